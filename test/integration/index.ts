// The extension-tests entry VS Code loads inside the extension host (code-server's smoke-test
// payload or @vscode/test-electron): runs every compiled *.test.js next to this file with mocha.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';
import * as vscode from 'vscode';

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
    mocha.run((failures) => {
      if (failures > 0) reject(new Error(`${failures} integration test(s) failed`));
      else resolve();
    });
  });
}
