import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as vscode from 'vscode';
import { workspaceExclude } from '../../../src/extension/panels/fileFilters';
import { api, waitFor, workspaceRoot } from './helpers';

describe('configuration', () => {
  const configFile = () => vscode.Uri.joinPath(workspaceRoot(), '.vscode/mcp.json').fsPath;

  it("lists the servers of the workspace's .vscode/mcp.json", async () => {
    const names = (await api()).servers.list().map((s) => s.name);
    assert.ok(names.includes('demo'), `servers: ${names.join(', ')}`);
    assert.ok(names.includes('demo-with-token'), `servers: ${names.join(', ')}`);
  });

  it('picks up a server added to mcp.json while VS Code runs', async () => {
    const host = await api();
    const original = await fsp.readFile(configFile(), 'utf8');
    try {
      const added = original.replace('"servers": {', '"servers": {\n    "added-later": { "type": "stdio", "command": "node", "args": ["--version"] },');
      assert.notEqual(added, original);
      await fsp.writeFile(configFile(), added);
      // the file watcher reloads by itself
      await waitFor('the added server', () => host.servers.list().some((s) => s.name === 'added-later') || undefined);
    } finally {
      await fsp.writeFile(configFile(), original);
      await host.servers.reload();
    }
    assert.ok(!host.servers.list().some((s) => s.name === 'added-later'), 'the server is gone once the file is restored');
  });

  it('the exclude of "From workspace…" keeps the user\'s files.exclude in force in the real findFiles', async () => {
    const found = (await vscode.workspace.findFiles('**/*', workspaceExclude({ '**/notes.txt': true }))).map((u) => u.path.split('/').pop());
    assert.ok(found.includes('photo.png'), `found: ${found.join(', ')}`);
    assert.ok(!found.includes('notes.txt'), `found: ${found.join(', ')}`);
  });
});
