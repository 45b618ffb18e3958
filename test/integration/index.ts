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
/** The message of the two problems `checkTheWatch` causes on purpose (run.mjs leaves VS Code's lines about them out too). */
const WATCH_CHECK = 'host watch check: a deliberate';
let during = 'the start, before the first test';
// From the moment VS Code loads this entry: activation that happened earlier is covered by run.mjs, which fails
// on VS Code's own "rejected promise not handled" line.
watchHostProcess(
  () => during,
  (problem) => {
    problems.push(problem);
    if (!problem.text.includes(WATCH_CHECK)) console.error(formatProblem(problem));
  },
);

/**
 * Before the suite, in this very extension host: an unhandled rejection and an uncaught exception reach the
 * watch, or the run fails (a watch that saw nothing would let every later problem pass). The two are then
 * taken back out; the rejection is handled at once, so VS Code's "not handled within 1 second" never fires.
 */
async function checkTheWatch(): Promise<void> {
  const rejection = Promise.reject(new Error(`${WATCH_CHECK} unhandled rejection`));
  setImmediate(() => {
    throw new Error(`${WATCH_CHECK} uncaught exception`);
  });
  // Node reports a rejection as the microtask queue drains, before any immediate: it is handled from here on.
  await new Promise((resolve) => setImmediate(resolve));
  rejection.catch(() => undefined);
  const kinds = ['unhandled rejection', 'uncaught exception'] as const;
  const missing = () => kinds.filter((kind) => !problems.some((p) => p.kind === kind && p.text.includes(WATCH_CHECK)));
  for (const deadline = Date.now() + 5000; missing().length > 0 && Date.now() < deadline;) await new Promise((resolve) => setTimeout(resolve, 10));
  const unseen = missing();
  for (let i = problems.length - 1; i >= 0; i--) if (problems[i]!.text.includes(WATCH_CHECK)) problems.splice(i, 1);
  if (unseen.length > 0) {
    throw new Error(
      `the host watch did not see a deliberate ${unseen.join(' or ')} in the extension host within 5 s: the run could not tell a quiet host from an unwatched one`,
    );
  }
}

export async function run(): Promise<void> {
  await checkTheWatch();
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
      const messages = [...(failures > 0 ? [`${failures} integration test(s) failed`] : []), ...problems.map(formatProblem)];
      if (messages.length > 0) reject(new Error(messages.join('\n')));
      else resolve();
    });
    runner.on('hook', (hook) => {
      during = `"${hook.fullTitle()}"`;
    });
    runner.on('test', (test) => {
      during = `"${test.fullTitle()}"`;
    });
    runner.on('test end', (test) => {
      during = `the time after "${test.fullTitle()}"`;
    });
  });
}
