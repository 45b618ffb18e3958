import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as vscode from 'vscode';
import { waitFor, workspaceFile } from './helpers';

describe('registry settings', () => {
  const config = () => vscode.workspace.getConfiguration('mcpHost');

  it("a workspace's own settings cannot point the registry elsewhere", async () => {
    const settingsFile = workspaceFile('.vscode/settings.json');
    await fsp.writeFile(settingsFile, JSON.stringify({ 'mcpHost.registry.url': 'http://127.0.0.1:9/elsewhere', 'mcpHost.requestTimeoutSeconds': 78 }));
    try {
      // The window-scoped setting shows the file was read; the application-scoped registry URL is ignored.
      await waitFor('the workspace settings', () => config().inspect('requestTimeoutSeconds')?.workspaceValue === 78 || undefined);
      assert.equal(config().inspect('registry.url')?.workspaceValue, undefined);
      assert.equal(config().get('registry.url'), 'https://registry.modelcontextprotocol.io');
    } finally {
      await fsp.rm(settingsFile, { force: true });
      await waitFor('the workspace settings gone', () => config().inspect('requestTimeoutSeconds')?.workspaceValue === undefined || undefined);
    }
  });
});
