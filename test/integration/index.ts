// The extension-tests entry VS Code loads inside the extension host (code-server's smoke-test
// payload or @vscode/test-electron): runs every compiled *.test.js next to this file with mocha.
// An unhandled rejection or uncaught exception anywhere in the extension host fails the run, named with the
// test that was running (VS Code itself only logs them).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';
import * as vscode from 'vscode';
import { formatProblem, watchHostProcess, type HostProblem } from '../extensions/host-watch/watch';

const problems: HostProblem[] = [];
let during = 'the start, before the first test';
// From the moment VS Code loads this entry: activation that happened earlier is covered by run.mjs, which fails
// on VS Code's own "rejected promise not handled" line.
watchHostProcess(() => during, (problem) => {
  problems.push(problem);
  console.error(formatProblem(problem));
});

export async function run(): Promise<void> {
  // The suite starts the test workspace's servers without the trust prompt (a user setting, as a user would).
  await vscode.workspace.getConfiguration('mcpHost').update('trustWorkspaceServers', true, vscode.ConfigurationTarget.Global);
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 30_000, reporter: 'spec' });
  const grep = process.env.MCP_HOST_TEST_GREP;
  if (grep) mocha.grep(grep);
  for (const name of readdirSync(__dirname).sort()) {
    if (name.endsWith('.test.js')) mocha.addFile(join(__dirname, name));
  }
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      during = 'the end of the run, after the last test';
      const messages = [
        ...(failures > 0 ? [`${failures} integration test(s) failed`] : []),
        ...problems.map(formatProblem),
      ];
      if (messages.length > 0) reject(new Error(messages.join('\n')));
      else resolve();
    });
    runner.on('hook', (hook) => { during = `"${hook.fullTitle()}"`; });
    runner.on('test', (test) => { during = `"${test.fullTitle()}"`; });
    runner.on('test end', (test) => { during = `the time after "${test.fullTitle()}"`; });
  });
}
