import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as vscode from 'vscode';
import { api, waitFor, workspaceFile } from './helpers';

describe('servers of other apps', () => {
  const config = () => vscode.workspace.getConfiguration('mcpHost');
  const name = 'from-cursor (Cursor)';

  it('a source turned on shows its servers as a group of the view; one asks for trust, then runs', async () => {
    const host = await api();
    const cursorFile = workspaceFile('.cursor/mcp.json');
    const demo = workspaceFile('../../../dist/demo-server.js');
    await fsp.mkdir(workspaceFile('.cursor'), { recursive: true });
    await fsp.writeFile(cursorFile, JSON.stringify({ mcpServers: { 'from-cursor': { command: 'node', args: [demo] }, broken: { args: ['no command'] } } }));
    await config().update('trustWorkspaceServers', false, vscode.ConfigurationTarget.Global);
    try {
      // Off by default: nothing of Cursor's is read.
      await host.servers.reload();
      assert.ok(!host.servers.list().some((s) => s.name === name));
      await config().update('discovery.cursor', true, vscode.ConfigurationTarget.Global);
      await waitFor('the Cursor server', () => host.servers.list().find((s) => s.name === name));
      const group = await waitFor('the Cursor group', () => host.tree.children().find((n) => n.kind === 'discoveredSource' && n.source === 'cursor'));
      assert.ok(!host.tree.children().some((n) => n.kind === 'server' && n.server === name), 'not among the configured servers');
      const children = host.tree.children(group);
      const serverNode = children.find((n) => n.kind === 'server' && n.server === name)!;
      const item = host.tree.item(serverNode);
      assert.match(String(item.contextValue), /\.discovered$/);
      assert.equal(item.description, 'needs your trust');
      // The entry without a command is a message of its source, the other server still shown.
      assert.ok(children.some((n) => n.kind === 'discoveredProblem' && /"command"/.test(n.message)));
      assert.match(String(host.tree.item(group).description), /1 found · read only/);

      await config().update('trustWorkspaceServers', true, vscode.ConfigurationTarget.Global);
      await host.servers.start(name);
      assert.ok(host.servers.tools(name).some((t) => t.name === 'describe_file'));
    } finally {
      await host.servers.stop(name).catch(() => undefined);
      await config().update('discovery.cursor', undefined, vscode.ConfigurationTarget.Global);
      await config().update('trustWorkspaceServers', true, vscode.ConfigurationTarget.Global);
      await fsp.rm(workspaceFile('.cursor'), { recursive: true, force: true });
      await host.servers.reload();
    }
  });

  it('each source has its own application-scoped setting, off by default', () => {
    const properties = (
      vscode.extensions.getExtension('mcp-host.mcp-host')!.packageJSON as {
        contributes: { configuration: { properties: Record<string, { scope?: string; default?: unknown }> } };
      }
    ).contributes.configuration.properties;
    for (const source of ['claudeDesktop', 'claudeCode', 'cursor', 'windsurf', 'copilotCli', 'codex']) {
      assert.equal(properties[`mcpHost.discovery.${source}`]?.scope, 'application', source);
      assert.equal(properties[`mcpHost.discovery.${source}`]?.default, false, source);
    }
  });
});
