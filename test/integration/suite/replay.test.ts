// The History in a real extension host: a run through the extension's API (the panel's path) and one by a chat
// agent are kept under their server and tool, with who asked, the file by path and sha-256 (never its bytes);
// Copy as mcp-host Command gives the same call; Run Again refuses a file changed since.
import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as vscode from 'vscode';
import { api, waitFor, workspaceFile } from './helpers';
import type { ServerTreeNode } from '../../../src/extension/servers/serversView';

describe('the History of runs', function () {
  this.timeout(60_000);
  const copy = workspaceFile('history-photo.png');
  after(async () => {
    await fsp.rm(copy, { force: true });
    await vscode.commands.executeCommand('mcpHost.clearHistory');
  });

  it('keeps each run under its server and tool, with who asked and the file by path and sha-256', async () => {
    const host = await api();
    await vscode.commands.executeCommand('mcpHost.clearHistory');
    await fsp.copyFile(workspaceFile('photo.png'), copy);
    await host.callTool('demo', 'describe_file', {}, { file: [copy] });
    await vscode.lm.invokeTool('mcpHost_callTool', {
      input: { server: 'demo', tool: 'describe_file', arguments: { file: 'notes.txt' } },
      toolInvocationToken: undefined,
    });

    const child = (node: ServerTreeNode | undefined, kind: string) => host.tree.children(node).find((n) => n.kind === kind);
    const runs = await waitFor('two runs in the History', () => {
      const tool = child(child(child(undefined, 'history'), 'historyServer'), 'historyTool');
      const rows = tool ? host.tree.children(tool) : [];
      return rows.length === 2 ? rows : undefined;
    });
    const [agent, person] = runs.map((n) => host.tree.item(n));
    assert.match(String(agent!.description), /^success · agent · \d+ ms$/);
    assert.match(String(person!.description), /^success · you · \d+ ms$/);
    assert.match(String(person!.tooltip), /file: history-photo\.png \(image\/png, 7214 bytes\)/);
    assert.equal(person!.contextValue, 'mcpRun.result');

    const command = await vscode.commands.executeCommand<string>('mcpHost.copyRunCommand', runs[1]);
    assert.equal(command, 'mcp-host call describe_file --server demo --file file=history-photo.png');
    assert.equal(await vscode.env.clipboard.readText(), command);

    // Changed since it was run: Run Again opens no panel.
    const panels = host.lifetimes().toolPanels;
    const bytes = await fsp.readFile(copy);
    bytes[bytes.length - 20] = bytes[bytes.length - 20]! ^ 0xff;
    await fsp.writeFile(copy, bytes);
    assert.equal(await vscode.commands.executeCommand('mcpHost.runAgain', runs[1]), undefined);
    assert.equal(host.lifetimes().toolPanels, panels);
  });
});
