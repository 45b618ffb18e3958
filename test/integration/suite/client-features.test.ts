import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { basename, join } from 'node:path';
import * as vscode from 'vscode';
import { api, waitFor } from './helpers';

async function logOf(server: string): Promise<string> {
  const host = await api();
  const files: string[] = [];
  const walk = async (dir: string) => {
    for (const entry of await fsp.readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else files.push(path);
    }
  };
  await walk(host.paths.logFolder.fsPath);
  // One file per channel, named after it ("MCP: <server>").
  const own = files.find((f) => basename(f).includes(server));
  return own ? fsp.readFile(own, 'utf8') : '';
}

describe('client features', () => {
  after(async () => {
    const host = await api();
    await Promise.all([host.servers.stop('everything'), host.servers.stop('paged')]);
  });

  it('lists all 1,000 tools of a server that pages them, in the Servers view too', async () => {
    const host = await api();
    await host.servers.start('paged');
    assert.equal(host.servers.tools('paged').length, 1000);
    const server = host.tree.children().find((n) => n.kind === 'server' && n.server === 'paged');
    assert.ok(server);
    const [toolsGroup] = host.tree.children(server);
    assert.equal(host.tree.children(toolsGroup).length, 1000);
  });

  it("writes server-everything's simulated log messages to its output channel, asked from the channel's level up", async () => {
    const host = await api();
    await host.servers.start('everything');
    await waitFor('toggle-simulated-logging', () => host.servers.tools('everything').some((t) => t.name === 'toggle-simulated-logging') || undefined);
    const started = await host.callTool('everything', 'toggle-simulated-logging', {});
    assert.equal(started.isError, false);
    try {
      // One message at once, then one every 5 s at a random level; those below the channel's level (info) are not sent.
      const log = await waitFor('a simulated log message in the channel', async () => {
        const text = await logOf('everything');
        return /\[server\] (Info|Notice|Warning|Error|Critical|Alert|Emergency)[- ]level/i.test(text) ? text : undefined;
      }, 40_000);
      assert.match(log, /asked the server for log messages from info up/);
      assert.doesNotMatch(log, /Debug-level message/, 'debug messages were not asked for');
    } finally {
      await host.callTool('everything', 'toggle-simulated-logging', {});
    }
  });

  it('offers the workspace folders as roots (server-everything get-roots-list)', async () => {
    const host = await api();
    await host.servers.start('everything');
    const folder = vscode.workspace.workspaceFolders![0];
    const text = await waitFor('the roots', async () => {
      const view = await host.callTool('everything', 'get-roots-list', {});
      const t = view.items.map((i) => (i.kind === 'text' ? i.text : '')).join('\n');
      return t.includes(folder.uri.toString()) ? t : undefined;
    });
    assert.ok(text.includes(folder.name));
  });
});

describe('resources in editors', () => {
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await (await api()).servers.stop('everything');
  });

  it('opens a resource read-only under mcp-host-resource:, refreshes it on updates while open, and unsubscribes on close', async () => {
    const host = await api();
    await host.servers.start('everything');
    const uri = 'demo://resource/dynamic/text/1';
    await vscode.commands.executeCommand('mcpHost.readResource', 'everything', uri);
    const doc = await waitFor('the resource document', () => vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'mcp-host-resource'
      && Buffer.from(d.uri.query, 'base64url').toString().includes(uri)));
    assert.equal(vscode.window.activeTextEditor?.document, doc, 'shown in the editor');
    assert.match(doc.getText(), /Resource 1/);
    await waitFor('the subscription', async () => ((await logOf('everything')).includes(`subscribed to ${uri}`) ? true : undefined));
    const first = doc.getText();
    await host.callTool('everything', 'toggle-subscriber-updates', {});
    try {
      // Each read says the time (to the second); updates come every 5 s.
      await waitFor('the document refreshed by an update', () => (doc.getText() !== first ? true : undefined), 30_000);
    } finally {
      await host.callTool('everything', 'toggle-subscriber-updates', {});
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await waitFor('the unsubscription', async () => ((await logOf('everything')).includes(`unsubscribed from ${uri}`) ? true : undefined));
  });
});
