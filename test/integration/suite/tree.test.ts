import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api } from './helpers';

describe("the Servers view's tree", () => {
  after(async () => (await api()).servers.stop('demo'));

  const label = (item: vscode.TreeItem) => (typeof item.label === 'string' ? item.label : item.label?.label);
  const icon = (item: vscode.TreeItem) => (item.iconPath instanceof vscode.ThemeIcon ? item.iconPath.id : undefined);

  it('lists the configured servers with their state', async () => {
    const host = await api();
    await host.servers.stop('demo');
    const items = host.tree.children().map((n) => host.tree.item(n));
    const demo = items.find((i) => label(i) === 'demo');
    const withToken = items.find((i) => label(i) === 'demo-with-token');
    assert.equal(demo?.contextValue, 'mcpServer.stopped');
    assert.equal(withToken?.contextValue, 'mcpServer.stopped.inputs');
    assert.equal(demo?.collapsibleState, vscode.TreeItemCollapsibleState.None);
    assert.match(String(demo?.tooltip), /demo-server\.js/);
  });

  it('shows the tools of a running server, with the file icon on tools that take files', async () => {
    const host = await api();
    await host.servers.start('demo');
    const server = host.tree.children().find((n) => n.kind === 'server' && n.server === 'demo');
    assert.ok(server);
    const serverItem = host.tree.item(server);
    assert.equal(serverItem.contextValue, 'mcpServer.running');
    assert.equal(serverItem.collapsibleState, vscode.TreeItemCollapsibleState.Expanded);

    const groups = host.tree.children(server);
    assert.deepEqual(
      groups.map((g) => host.tree.item(g).contextValue),
      ['mcpGroup.tools', 'mcpGroup.prompts', 'mcpGroup.resources'],
    );
    const [prompt] = host.tree.children(groups[1]).map((n) => host.tree.item(n));
    assert.equal(prompt?.contextValue, 'mcpPrompt');
    assert.equal(label(prompt!), 'Try the demo');
    const [resource] = host.tree.children(groups[2]);
    assert.equal(host.tree.item(resource!).contextValue, 'mcpResource');
    assert.equal(resource?.kind === 'resource' && resource.resource.uri, 'demo://guide');
    const tools = host.tree.children(groups[0]).map((n) => host.tree.item(n));
    const byLabel = new Map(tools.map((t) => [label(t), t]));
    assert.equal(tools.length, 6);
    assert.equal(host.tree.item(groups[0]!).description, '6');

    const describe = byLabel.get('Describe a file');
    assert.equal(describe?.contextValue, 'mcpTool.files');
    assert.equal(icon(describe!), 'file-binary');
    assert.equal(describe?.description, 'describe_file');
    assert.match(String(describe?.tooltip), /Any file up to 5 MiB/);
    assert.deepEqual(describe?.command?.arguments, ['demo', 'describe_file']);

    const slow = tools.find((t) => t.contextValue === 'mcpTool');
    assert.ok(slow, `a tool without file slots (${tools.map((t) => `${label(t)}=${t.contextValue}`).join(', ')})`);
    assert.equal(icon(slow), 'tools');
    assert.equal(tools.filter((t) => t.contextValue === 'mcpTool.files').length, 3, 'describe_file, compare_images, attach_note');
  });

  it('shows no children under a stopped server', async () => {
    const host = await api();
    await host.servers.stop('demo');
    const server = host.tree.children().find((n) => n.kind === 'server' && n.server === 'demo');
    assert.ok(server);
    assert.deepEqual(host.tree.children(server), []);
  });
});
