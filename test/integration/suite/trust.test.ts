import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import { api, waitFor, workspaceFile } from './helpers';

describe('workspace trust', () => {
  const config = () => vscode.workspace.getConfiguration('mcpHost');

  it("a server from the user's own configuration starts without the trust question, with trustWorkspaceServers off", async () => {
    const host = await api();
    const userConfig = host.paths.userConfig.fsPath;
    const before = await fsp.readFile(userConfig, 'utf8').catch(() => undefined);
    const demo = workspaceFile('../../../dist/demo-server.js');
    await config().update('trustWorkspaceServers', false, vscode.ConfigurationTarget.Global);
    try {
      await fsp.mkdir(dirname(userConfig), { recursive: true });
      await fsp.writeFile(userConfig, JSON.stringify({ servers: { 'user-level': { type: 'stdio', command: 'node', args: [demo] } } }));
      await host.servers.reload();
      // A trust question is a modal nobody answers here: the start would never resolve.
      await host.servers.start('user-level');
      assert.ok(host.servers.tools('user-level').some((t) => t.name === 'describe_file'));
    } finally {
      await host.servers.stop('user-level').catch(() => undefined);
      await config().update('trustWorkspaceServers', true, vscode.ConfigurationTarget.Global);
      if (before === undefined) await fsp.rm(userConfig, { force: true });
      else await fsp.writeFile(userConfig, before);
      await host.servers.reload();
    }
  });

  it("a workspace's own settings cannot turn on autoStart or trustWorkspaceServers", async () => {
    const settingsFile = workspaceFile('.vscode/settings.json');
    await fsp.writeFile(
      settingsFile,
      JSON.stringify({
        'mcpHost.autoStart': true,
        'mcpHost.trustWorkspaceServers': true,
        'mcpHost.requestTimeoutSeconds': 77,
      }),
    );
    try {
      // The window-scoped setting shows the file was read; the application-scoped ones are ignored.
      await waitFor('the workspace settings', () => config().inspect('requestTimeoutSeconds')?.workspaceValue === 77 || undefined);
      assert.equal(config().inspect('autoStart')?.workspaceValue, undefined);
      assert.equal(config().get('autoStart'), false);
      assert.equal(config().inspect('trustWorkspaceServers')?.workspaceValue, undefined);
    } finally {
      await fsp.rm(settingsFile, { force: true });
      await waitFor('the workspace settings gone', () => config().inspect('requestTimeoutSeconds')?.workspaceValue === undefined || undefined);
    }
  });

  it('autoStart, confirmEveryCall and trustWorkspaceServers are application settings; the size ceilings machine settings', () => {
    const properties = (
      vscode.extensions.getExtension('mcp-host.mcp-host')!.packageJSON as {
        contributes: { configuration: { properties: Record<string, { scope?: string }> } };
      }
    ).contributes.configuration.properties;
    for (const key of ['mcpHost.autoStart', 'mcpHost.confirmEveryCall', 'mcpHost.trustWorkspaceServers'])
      assert.equal(properties[key]?.scope, 'application', key);
    for (const key of ['mcpHost.files.stdioMaxBytes', 'mcpHost.files.httpMaxBytes', 'mcpHost.elicitation.binaryUploads'])
      assert.equal(properties[key]?.scope, 'machine', key);
  });
});
