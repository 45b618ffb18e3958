// MCP Apps marks in the extension host: the Servers view and the Run Tool quick pick mark tools that come
// with an app (the `_meta.ui.resourceUri` key and the older flat `_meta["ui/resourceUri"]`) and do not offer
// tools meant only for their app (`visibility: ["app"]`). Against the apps fixture, from the user's mcp.json.
import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { api, waitFor, workspaceRoot } from './helpers';
import { fixtureArgv } from '../../fixtures/servers';

const label = (item: vscode.TreeItem | vscode.QuickPickItem) => (typeof item.label === 'string' ? item.label : item.label?.label);
const icon = (item: vscode.TreeItem) => (item.iconPath instanceof vscode.ThemeIcon ? item.iconPath.id : undefined);

describe('MCP Apps marks', () => {
  let userConfig: string;
  let savedUserConfig: string | undefined;
  let runningBefore: Set<string>;

  before(async () => {
    const host = await api();
    runningBefore = new Set(
      host.servers
        .list()
        .filter((s) => s.state.kind === 'running')
        .map((s) => s.name),
    );
    userConfig = host.paths.userConfig.fsPath;
    savedUserConfig = await fsp.readFile(userConfig, 'utf8').catch(() => undefined);
    const repo = join(workspaceRoot().fsPath, '../../..');
    await fsp.mkdir(dirname(userConfig), { recursive: true });
    await fsp.writeFile(
      userConfig,
      JSON.stringify({
        servers: {
          apps: { type: 'stdio', command: 'node', args: fixtureArgv('apps-server.ts'), cwd: repo },
        },
      }),
    );
    await host.servers.reload();
    await waitFor('the apps server listed', () => host.servers.list().some((s) => s.name === 'apps'));
    await host.servers.start('apps');
  });

  after(async () => {
    const host = await api();
    // Servers the quick pick started in the background are stopped again, as the other suites expect them.
    for (const s of host.servers.list()) {
      if (!runningBefore.has(s.name) && s.state.kind !== 'stopped') await host.servers.stop(s.name).catch(() => undefined);
    }
    if (savedUserConfig === undefined) await fsp.rm(userConfig, { force: true });
    else await fsp.writeFile(userConfig, savedUserConfig);
    await host.servers.reload();
  });

  it('the Servers view marks app tools with the window icon and "app", and leaves app-only tools out', async () => {
    const host = await api();
    const server = host.tree.children().find((n) => n.kind === 'server' && n.server === 'apps');
    assert.ok(server);
    const toolsGroup = host.tree.children(server).find((g) => host.tree.item(g).contextValue === 'mcpGroup.tools');
    assert.ok(toolsGroup);
    const rows = host.tree.children(toolsGroup).map((n) => host.tree.item(n));
    const byLabel = new Map(rows.map((r) => [label(r), r]));

    for (const name of ['show_polite', 'show_hostile', 'legacy_key', 'only_for_app_hosts']) {
      const row = byLabel.get(name);
      assert.ok(row, `${name} is listed: ${[...byLabel.keys()].join(', ')}`);
      assert.equal(icon(row), 'window', name);
      assert.equal(row.description, 'app', name);
      assert.equal(row.contextValue, 'mcpTool.app', name);
    }
    assert.match(String(byLabel.get('show_polite')?.tooltip), /Has an interface \(MCP App\): ui:\/\/polite\/app\.html/);
    assert.match(String(byLabel.get('legacy_key')?.tooltip), /Has an interface \(MCP App\): ui:\/\/silent\/app\.html/);

    // Tools without an app are not marked, whoever may call them; the app-only one is not a row at all.
    for (const name of ['model_only', 'update_app']) {
      const row = byLabel.get(name);
      assert.ok(row, name);
      assert.equal(icon(row), 'tools', name);
      assert.equal(row.description, undefined, name);
      assert.equal(row.contextValue, 'mcpTool', name);
    }
    assert.equal(byLabel.has('report'), false, 'the app-only tool is not offered');
    assert.ok(
      host.servers.tools('apps').some((t) => t.name === 'report'),
      'the server does list it',
    );
    assert.equal(host.tree.item(toolsGroup).description, String(rows.length));
  });

  it('the Run Tool quick pick marks app tools with the window icon and "App", and leaves app-only tools out', async () => {
    // The command's own quick pick, read as it is shown (the real QuickPick, only its reference kept).
    const window = vscode.window as { createQuickPick: typeof vscode.window.createQuickPick };
    const create = window.createQuickPick;
    let pick: vscode.QuickPick<vscode.QuickPickItem> | undefined;
    window.createQuickPick = <T extends vscode.QuickPickItem>() => {
      const created = create<T>();
      pick = created as unknown as vscode.QuickPick<vscode.QuickPickItem>;
      return created;
    };
    let running: Thenable<unknown> | undefined;
    try {
      running = vscode.commands.executeCommand('mcpHost.runTool');
      const rows = await waitFor("the apps server's rows", () => {
        const items = pick?.items.filter((i) => i.description === 'apps') ?? [];
        return items.some((i) => label(i)?.includes('show_polite')) ? items : undefined;
      });
      const row = (name: string) => rows.find((i) => label(i)?.endsWith(` ${name}`));
      for (const name of ['show_polite', 'legacy_key']) {
        assert.equal(label(row(name)!), `$(window) ${name}`);
        assert.match(String(row(name)?.detail), /^App — /);
      }
      assert.equal(label(row('model_only')!), '$(tools) model_only');
      assert.equal(row('model_only')?.detail, 'Not for apps');
      assert.equal(row('report'), undefined, 'the app-only tool is not offered');
      assert.equal(rows.length, (await api()).servers.tools('apps').length - 1);
    } finally {
      window.createQuickPick = create;
      pick?.hide();
      await running;
    }
  });
});
