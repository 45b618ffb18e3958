import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { parse } from 'jsonc-parser';
import * as vscode from 'vscode';
import { api, waitFor, workspaceFile } from './helpers';
import { standIn, type StandIn } from './windowAnswers';

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

  it('a discovered server is never started without the trust question of workspace servers, naming its command line: declined, it does not start; trusted, it runs', async () => {
    const host = await api();
    const cursorFile = workspaceFile('.cursor/mcp.json');
    const demo = workspaceFile('../../../dist/demo-server.js');
    // A value of this run in the definition: a yes remembered from an earlier run (by the definition's hash) would skip the question.
    const run = String(Date.now());
    await fsp.mkdir(workspaceFile('.cursor'), { recursive: true });
    await fsp.writeFile(cursorFile, JSON.stringify({ mcpServers: { 'from-cursor': { command: 'node', args: [demo], env: { RUN_ID: run } } } }));
    await config().update('trustWorkspaceServers', false, vscode.ConfigurationTarget.Global);
    await config().update('discovery.cursor', true, vscode.ConfigurationTarget.Global);
    let answer: string | undefined;
    const user = standIn((q) => (q.message.startsWith('Start the MCP server') ? answer : undefined));
    const trustQuestions = () => user.asked.filter((q) => q.kind === 'warning' && q.message.startsWith('Start the MCP server'));
    try {
      await waitFor('the Cursor server', () => host.servers.list().find((s) => s.name === name));
      answer = undefined;
      await assert.rejects(host.servers.start(name), /not trusted/);
      const [asked] = trustQuestions();
      assert.equal(trustQuestions().length, 1);
      assert.equal(asked!.message, `Start the MCP server "${name}" defined in ${vscode.workspace.asRelativePath(cursorFile)}?`);
      const detail = asked!.detail!.split('\n');
      assert.ok(detail.includes(`Runs: node ${demo}`), asked!.detail);
      assert.ok(detail.includes('with the environment variables RUN_ID'), asked!.detail);
      assert.ok(
        detail.includes(
          `Defined in ${cursorFile}. A workspace's configuration comes from whoever wrote it: start it only if you trust them. You are asked again if this definition changes.`,
        ),
        asked!.detail,
      );
      assert.deepEqual(asked!.items, ['Trust and start', 'Trust and run sandboxed']);
      assert.notEqual(host.servers.list().find((s) => s.name === name)!.state.kind, 'running');
      assert.deepEqual(host.servers.tools(name), [], 'declined: not started');

      answer = 'Trust and start';
      await host.servers.start(name);
      assert.equal(trustQuestions().length, 2, 'asked again: the first answer was no');
      assert.ok(host.servers.tools(name).some((t) => t.name === 'describe_file'));
      // The yes is remembered for this definition.
      await host.servers.stop(name);
      await host.servers.start(name);
      assert.equal(trustQuestions().length, 2);
    } finally {
      user.restore();
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

describe('Import into mcp.json… and Export Servers…, as the commands run them', () => {
  const config = () => vscode.workspace.getConfiguration('mcpHost');
  const SECRET = 'sk-live0123456789abcdefghij';
  const STORED = 'sk-stored0123456789abcdefgh';
  let userConfigBefore: string | undefined;
  let user: StandIn | undefined;

  before(async () => {
    const host = await api();
    userConfigBefore = await fsp.readFile(host.paths.userConfig.fsPath, 'utf8').catch(() => undefined);
    const demo = workspaceFile('../../../dist/demo-server.js');
    await fsp.mkdir(workspaceFile('.cursor'), { recursive: true });
    await fsp.writeFile(
      workspaceFile('.cursor/mcp.json'),
      JSON.stringify({ mcpServers: { importable: { command: 'node', args: [demo], env: { DEMO_TOKEN: SECRET, MODE: 'ro' } } } }),
    );
    await config().update('discovery.cursor', true, vscode.ConfigurationTarget.Global);
    await waitFor('the Cursor server', () => host.servers.list().find((s) => s.name === 'importable (Cursor)'));
  });

  afterEach(() => user?.restore());

  after(async () => {
    const host = await api();
    await host.servers.stop('importable').catch(() => undefined);
    await host.inputs.clear('importable').catch(() => undefined);
    await config().update('discovery.cursor', undefined, vscode.ConfigurationTarget.Global);
    await fsp.rm(workspaceFile('.cursor'), { recursive: true, force: true });
    await fsp.rm(workspaceFile('exported-mcp.json'), { force: true });
    if (userConfigBefore === undefined) await fsp.rm(host.paths.userConfig.fsPath, { force: true });
    else await fsp.writeFile(host.paths.userConfig.fsPath, userConfigBefore);
    await host.servers.reload();
  });

  it('import: the server picked, the user configuration chosen, its secret written as a password input, never in clear; it then runs', async () => {
    const host = await api();
    const demo = workspaceFile('../../../dist/demo-server.js');
    user = standIn((q) => {
      if (q.kind === 'quickPick' && q.message === 'MCP: Import into mcp.json') return 'importable';
      if (q.kind === 'quickPick' && q.message === 'Import importable') return 'User configuration';
      if (q.kind === 'warning' && q.message === 'Import "importable" from Cursor?') return 'Import';
      return undefined;
    });
    await vscode.commands.executeCommand('mcpHost.importServer');
    assert.deepEqual(
      user.asked.filter((q) => q.kind === 'error'),
      [],
    );
    const confirm = user.asked.find((q) => q.kind === 'warning')!;
    assert.ok(confirm.detail!.split('\n').includes(`Runs: node ${demo}`), confirm.detail);
    assert.match(confirm.detail!, /Not copied, asked at the first start and kept as secrets: env DEMO_TOKEN/);
    assert.ok(user.asked.some((q) => q.kind === 'information' && q.message === 'Imported "importable" from Cursor as "importable".'));

    const text = await fsp.readFile(host.paths.userConfig.fsPath, 'utf8');
    assert.ok(!text.includes(SECRET), 'the secret is not in the file');
    const written = parse(text) as { servers: Record<string, unknown>; inputs: unknown[] };
    assert.deepEqual(written.servers.importable, {
      type: 'stdio',
      command: 'node',
      args: [demo],
      env: { DEMO_TOKEN: '${input:importable-demo_token}', MODE: 'ro' },
    });
    assert.deepEqual(
      written.inputs.filter((i) => (i as { id: string }).id === 'importable-demo_token'),
      [{ id: 'importable-demo_token', type: 'promptString', password: true, description: 'Environment variable DEMO_TOKEN of importable' }],
    );

    // The imported server is one of the user's: its password input goes to SecretStorage, and it starts.
    await waitFor('the imported server', () => host.servers.list().find((s) => s.name === 'importable'));
    await host.inputs.set('importable', 'importable-demo_token', STORED);
    assert.equal(await host.inputs.storedIn('importable', 'importable-demo_token'), 'secrets');
    await host.servers.start('importable');
    assert.ok(host.servers.tools('importable').some((t) => t.name === 'describe_file'));
  });

  it('export: the servers picked, as the standard mcp.json of SEP-2633, to a file and to the clipboard; placeholders kept, no value', async () => {
    const demo = workspaceFile('../../../dist/demo-server.js');
    const target = vscode.Uri.file(workspaceFile('exported-mcp.json'));
    let where = 'Save to File…';
    user = standIn((q) => {
      if (q.kind === 'quickPick' && q.message === 'MCP: Export Servers') return ['importable'];
      if (q.kind === 'information' && q.message.startsWith('Export ')) return where;
      if (q.kind === 'saveDialog') return target;
      return undefined;
    });
    await vscode.commands.executeCommand('mcpHost.exportServers');
    assert.deepEqual(
      user.asked.filter((q) => q.kind === 'error'),
      [],
    );
    const pick = user.asked.find((q) => q.kind === 'quickPick')!;
    assert.ok(pick.items.includes('importable'), pick.items.join(', '));
    const question = user.asked.find((q) => q.kind === 'information' && q.message.startsWith('Export '))!;
    assert.equal(question.message, 'Export "importable" as a standard mcp.json?');
    assert.deepEqual(question.items, ['Copy to Clipboard', 'Save to File…']);
    assert.match(question.detail!, /their values are never exported/);
    assert.ok(user.asked.some((q) => q.kind === 'saveDialog' && q.message === 'Export MCP Servers'));

    const text = await fsp.readFile(target.fsPath, 'utf8');
    assert.deepEqual(JSON.parse(text), {
      mcpServers: { importable: { type: 'stdio', command: 'node', args: [demo], env: { DEMO_TOKEN: '${input:importable-demo_token}', MODE: 'ro' } } },
    });
    for (const value of [SECRET, STORED]) assert.ok(!text.includes(value), 'no input value is exported');

    where = 'Copy to Clipboard';
    await vscode.env.clipboard.writeText('');
    await vscode.commands.executeCommand('mcpHost.exportServers');
    assert.equal(await vscode.env.clipboard.readText(), text, 'the clipboard holds the same document');
  });
});
