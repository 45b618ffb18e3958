import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { parse } from 'jsonc-parser';
import * as vscode from 'vscode';
import type { RegistryNode } from '../../../src/extension/carry/registryTree';
import { CATALOGUE, startRegistryFixture, type RegistryFixture } from '../../fixtures/registry-server';
import { api, waitFor, workspaceFile } from './helpers';
import { standIn, type StandIn } from './windowAnswers';

type Json = Record<string, unknown>;

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

describe("the MCP view's registry section", () => {
  const config = () => vscode.workspace.getConfiguration('mcpHost');
  const chat = () => vscode.workspace.getConfiguration('chat.mcp');
  let registry: RegistryFixture;
  let userConfigBefore: string | undefined;
  let user: StandIn | undefined;
  const listRequests = () => registry.requests.filter((r) => r.startsWith('/ok/v0.1/servers?'));
  const servers = (rows: RegistryNode[]) => rows.flatMap((r) => (r.kind === 'server' ? [r] : []));

  before(async () => {
    const host = await api();
    userConfigBefore = await fsp.readFile(host.paths.userConfig.fsPath, 'utf8').catch(() => undefined);
    registry = await startRegistryFixture();
    await config().update('registry.url', registry.url(), vscode.ConfigurationTarget.Global);
  });

  afterEach(() => user?.restore());

  after(async () => {
    const host = await api();
    await config().update('registry.url', undefined, vscode.ConfigurationTarget.Global);
    await chat().update('gallery.enabled', undefined, vscode.ConfigurationTarget.Global);
    await chat().update('access', undefined, vscode.ConfigurationTarget.Global);
    if (userConfigBefore === undefined) await fsp.rm(host.paths.userConfig.fsPath, { force: true });
    else await fsp.writeFile(host.paths.userConfig.fsPath, userConfigBefore);
    await host.servers.reload();
    await registry.stop();
  });

  it('is a collapsed section of the MCP view, hidden by the policy of VS Code and by ours', () => {
    const views = (vscode.extensions.getExtension('mcp-host.mcp-host')!.packageJSON as { contributes: { views: Record<string, Record<string, string>[]> } })
      .contributes.views.mcpHost!;
    const section = views.find((v) => v.id === 'mcpHost.registry');
    assert.equal(section?.visibility, 'collapsed');
    assert.equal(section?.when, "config.chat.mcp.access != 'none' && !mcpHost.registryOff");
  });

  it('lists the first page when first asked, Load more follows the cursor, a deprecated server is marked', async () => {
    const host = await api();
    assert.deepEqual(listRequests(), [], 'nothing is asked of the registry before the section shows its rows');
    const first = await host.registryView.children();
    assert.equal(listRequests().length, 1);
    assert.doesNotMatch(listRequests()[0]!, /cursor=/);
    const names = (s: Json) => (s.server as { name: string }).name;
    assert.deepEqual(
      servers(first).map((r) => r.entry.server.name),
      CATALOGUE.slice(0, 30).map(names),
    );
    const more = first[first.length - 1]!;
    assert.equal(more.kind, 'more');
    const moreItem = host.registryView.item(more);
    assert.equal(moreItem.label, 'Load more…');

    const hosted = servers(first).find((r) => r.entry.server.name === 'io.example/hosted')!;
    const hostedItem = host.registryView.item(hosted);
    assert.equal(hostedItem.label, 'Hosted (io.example/hosted)');
    assert.equal(hostedItem.description, '3.2.0 · remote');
    assert.equal(hostedItem.accessibilityInformation?.label, 'Hosted (io.example/hosted), 3.2.0 · remote');
    assert.match(String(hostedItem.tooltip), /A hosted server with an API token/);
    assert.deepEqual(
      (await host.registryView.children(hosted)).map((r) => (r.kind === 'detail' ? r.label : r.kind)),
      ['A hosted server with an API token', 'remote streamable-http https://mcp.example.com/{tenant}/mcp', 'remote sse https://mcp.example.com/sse'],
    );
    const everythingLike = servers(first).find((r) => r.entry.server.name === 'io.example/database')!;
    assert.equal(host.registryView.item(everythingLike).description, '2.0.1 · oci');

    // Asked again (the view redrawn), the page read is kept: no new request.
    await host.registryView.children();
    assert.equal(listRequests().length, 1);

    await vscode.commands.executeCommand(moreItem.command!.command, ...(moreItem.command!.arguments ?? []));
    assert.equal(listRequests().length, 2);
    assert.match(listRequests()[1]!, new RegExp(`cursor=${encodeURIComponent('io.example/hosted').replace(/\./g, '\\.')}`));
    const all = await host.registryView.children();
    assert.deepEqual(
      servers(all).map((r) => r.entry.server.name),
      CATALOGUE.map(names),
    );
    assert.ok(!all.some((r) => r.kind === 'more'), 'the last page has no Load more');
    const old = servers(all).find((r) => r.entry.server.name === 'io.example/old-tool')!;
    const oldItem = host.registryView.item(old);
    assert.equal(oldItem.description, '0.9.0 · deprecated · npm');
    assert.equal((oldItem.iconPath as vscode.ThemeIcon).id, 'warning');
    assert.equal(oldItem.contextValue, 'mcpRegistryServer.installable');
    const oldDetails = await host.registryView.children(old);
    assert.ok(oldDetails.some((r) => r.kind === 'detail' && r.label === 'Deprecated' && r.description === 'Use io.example/new-tool'));
  });

  it("Install writes the entry through the browser's flow; its one confirmation names the exact command line", async () => {
    const host = await api();
    const old = servers(await host.registryView.children()).find((r) => r.entry.server.name === 'io.example/old-tool')!;
    user = standIn((q) => (q.kind === 'warning' && q.message.startsWith('Add "old-tool"') ? 'Add Server' : undefined));
    await vscode.commands.executeCommand('mcpHost.installFromRegistry', old);
    assert.deepEqual(
      user.asked.filter((q) => q.kind === 'error'),
      [],
    );
    // As the browser does: the server's whole server.json asked for by name and version.
    assert.ok(registry.requests.includes('/ok/v0.1/servers/io.example%2Fold-tool/versions/0.9.0'), registry.requests.join('\n'));
    const confirmations = user.asked.filter((q) => q.kind === 'warning');
    assert.equal(confirmations.length, 1);
    assert.equal(confirmations[0]!.message, `Add "old-tool" to ${vscode.workspace.asRelativePath(host.paths.userConfig)}?`);
    assert.deepEqual(confirmations[0]!.items, ['Add Server']);
    assert.deepEqual(confirmations[0]!.detail!.split('\n'), [
      'This server is deprecated.',
      'It runs:',
      'npx -y @example/old-tool@0.9.0',
      '',
      'In your user configuration it starts without another question.',
    ]);
    const written = parse(await fsp.readFile(host.paths.userConfig.fsPath, 'utf8')) as { servers: Record<string, unknown> };
    assert.deepEqual(written.servers['old-tool'], { type: 'stdio', command: 'npx', args: ['-y', '@example/old-tool@0.9.0'] });
    assert.ok(user.asked.some((q) => q.kind === 'information' && q.message === 'Installed io.example/old-tool 0.9.0 as "old-tool".'));
    await waitFor('the installed server', () => host.servers.list().find((s) => s.name === 'old-tool'));
  });

  it('chat.mcp.gallery.enabled set to false, or chat.mcp.access "none": the section asks the registry nothing and shows nothing', async () => {
    const host = await api();
    for (const [key, value] of [
      ['gallery.enabled', false],
      ['access', 'none'],
    ] as const) {
      await chat().update(key, value, vscode.ConfigurationTarget.Global);
      try {
        const before = registry.requests.length;
        assert.deepEqual(await host.registryView.children(), [], key);
        assert.equal(registry.requests.length, before, key);
      } finally {
        await chat().update(key, undefined, vscode.ConfigurationTarget.Global);
      }
    }
    // Back on: the first page is read again.
    const before = listRequests().length;
    assert.equal(servers(await host.registryView.children()).length, 30);
    assert.equal(listRequests().length, before + 1);
  });
});
