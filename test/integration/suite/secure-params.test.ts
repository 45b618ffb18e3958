// SEP-3221 secure parameters for chat agents, through vscode.lm.invokeTool: the model's schema never holds a
// secure property; a model's call is completed with the values the person set (remembered for the workspace, the
// secret one in SecretStorage) and the configuration's; without them the call stops, telling the person what to
// set; a model that names a secure property is refused; nothing of the values reaches a setting or the result.
import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { api, waitFor, workspaceRoot } from './helpers';

const SERVER = 'secure';
const TENANT = 'tenant-int-5d2c';
const KEY = 'sk-fixture-good';
const recordFile = () => join(workspaceRoot().fsPath, '../../../.artifacts/integration/secure-calls.jsonl');

async function recorded(): Promise<Record<string, unknown>[]> {
  const text = await fsp.readFile(recordFile(), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

function textOf(result: vscode.LanguageModelToolResult): string {
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('\n');
}

const NAMES = ['tenant', 'api_key', 'region', 'port', 'pin', 'verbose'];
const PIN = 730519;
const call = (tool: string, args: Record<string, unknown>) =>
  vscode.lm.invokeTool('mcpHost_callTool', { input: { server: SERVER, tool, arguments: args }, toolInvocationToken: undefined });

describe('secure parameters for agents (SEP-3221)', function () {
  this.timeout(60_000);

  before(async () => {
    await fsp.rm(recordFile(), { force: true });
    await (await api()).secureValues.forget(SERVER, NAMES);
  });
  after(async () => {
    const host = await api();
    await host.secureValues.forget(SERVER, NAMES);
    await host.servers.stop(SERVER);
  });

  it("the model's schema holds no secure property, and the clashing tool is not offered", async () => {
    const result = await vscode.lm.invokeTool('mcpHost_listTools', { input: { server: SERVER }, toolInvocationToken: undefined });
    const text = textOf(result);
    const listed = JSON.parse(text.slice(text.indexOf('\n') + 1)) as { tools: { tool: string; inputSchema: Record<string, unknown> }[] };
    assert.deepEqual(listed.tools.map((t) => t.tool).sort(), ['confirm', 'connect', 'plain', 'query', 'report']);
    assert.deepEqual(Object.keys(listed.tools.find((t) => t.tool === 'query')!.inputSchema.properties as object), ['sql']);
    assert.doesNotMatch(text, /secureInputSchema|tenant|api_key|region|x-mcp-header|"port"|"pin"/);
  });

  it('the MCP view lists the clashing tool as not offered, saying why', async () => {
    const host = await api();
    const server = host.tree.children().find((n) => n.kind === 'server' && n.server === SERVER)!;
    const tools = host.tree.children(host.tree.children(server).find((n) => n.kind === 'group' && n.group === 'tools')!);
    const clash = tools.map((n) => host.tree.item(n)).find((i) => String(i.tooltip).startsWith('clash'));
    assert.equal(clash?.description, 'not offered');
    assert.match(String(clash?.tooltip), /clash is not offered: its secureInputSchema and inputSchema both declare "instance"/);
  });

  it('without the values the call stops and tells the person what to set; nothing is sent', async () => {
    await assert.rejects(
      Promise.resolve(call('query', { sql: 'select 1' })),
      (e: Error) =>
        /needs secure values that only the user sets, and some are not set yet/.test(e.message) &&
        /MCP: Edit Secure Values…/.test(e.message) &&
        !/tenant|api_key/.test(e.message),
    );
    assert.equal((await recorded()).length, 0);
  });

  it('a model naming a secure property is refused', async () => {
    await assert.rejects(Promise.resolve(call('query', { sql: 'select 1', tenant: 'db-executive-payroll' })), (e: Error) =>
      /"tenant" is a value the host sets for this tool, not arguments/.test(e.message),
    );
    assert.equal((await recorded()).length, 0);
  });

  it("the model's call carries the remembered values and the configured one; they stay out of settings and the result", async () => {
    const host = await api();
    await host.secureValues.set(SERVER, 'query', { tenant: TENANT, api_key: KEY });
    assert.equal(await host.secureValues.storedIn(SERVER, 'api_key'), 'secrets');
    assert.equal(await host.secureValues.storedIn(SERVER, 'tenant'), 'workspaceState');
    const result = textOf(await call('query', { sql: 'select 2' }));
    const last = (await recorded()).at(-1)!;
    assert.deepEqual(last.arguments, { sql: 'select 2' });
    assert.deepEqual(last.secureArguments, { tenant: TENANT, api_key: KEY, region: 'eu' });
    assert.match(result, /ran select 2 for \*{8}/, 'the server echoed the tenant; the model is not given it');
    const settings = JSON.stringify(vscode.workspace.getConfiguration('mcpHost'));
    assert.doesNotMatch(settings + result, new RegExp(`${TENANT}|${KEY}`));
    // nor any log of the host (the server's channel has logged the call)
    const logs = (await fsp.readdir(host.paths.logFolder.fsPath, { withFileTypes: true, recursive: true }))
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name));
    assert.ok(
      logs.some((f) => f.includes(SERVER)),
      logs.join(', '),
    );
    for (const file of logs) assert.doesNotMatch(await fsp.readFile(file, 'utf8'), new RegExp(`${TENANT}|${KEY}`), file);
  });

  it('values of other types are kept and sent as their schema types: a secret integer from SecretStorage, a boolean and a port from the workspace state', async () => {
    const host = await api();
    await host.secureValues.set(SERVER, 'connect', { port: 8443, pin: PIN, verbose: true });
    assert.equal(await host.secureValues.storedIn(SERVER, 'pin'), 'secrets');
    assert.equal(await host.secureValues.storedIn(SERVER, 'port'), 'workspaceState');
    const result = textOf(await call('connect', {}));
    assert.match(result, /connected on port 8443, verbose/);
    assert.deepEqual((await recorded()).at(-1)!.secureArguments, { port: 8443, pin: PIN, verbose: true });
    const logs = (await fsp.readdir(host.paths.logFolder.fsPath, { withFileTypes: true, recursive: true }))
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name));
    for (const file of logs) assert.doesNotMatch(await fsp.readFile(file, 'utf8'), new RegExp(String(PIN)), file);
  });
});

// An MCP App's tools/call goes through the window's run pipeline like every other caller's: a tool with a
// secureInputSchema gets the values the person set (remembered) and the configuration's, never the app's.
// Against the same fixture with its app tool, from the user's mcp.json.
describe("secure parameters for an MCP App's tool calls (SEP-3221)", function () {
  this.timeout(60_000);
  const APP_SERVER = 'secure-app';
  let userConfig: string;
  let savedUserConfig: string | undefined;

  before(async () => {
    const host = await api();
    await fsp.rm(recordFile(), { force: true });
    userConfig = host.paths.userConfig.fsPath;
    savedUserConfig = await fsp.readFile(userConfig, 'utf8').catch(() => undefined);
    const repo = join(workspaceRoot().fsPath, '../../..');
    await fsp.mkdir(dirname(userConfig), { recursive: true });
    await fsp.writeFile(
      userConfig,
      JSON.stringify({
        servers: {
          [APP_SERVER]: {
            type: 'stdio',
            command: 'node',
            args: ['--import', 'tsx', join(repo, 'test/fixtures/secure-era2026-server.ts')],
            cwd: repo,
            env: { SECURE_FIXTURE_APP: '1', SECURE_FIXTURE_RECORD: recordFile() },
            secureArguments: { region: 'eu' },
          },
        },
      }),
    );
    await host.servers.reload();
    await waitFor('the server with the app listed', () => host.servers.list().some((s) => s.name === APP_SERVER));
    await host.secureValues.forget(APP_SERVER, ['tenant', 'api_key', 'region']);
  });
  after(async () => {
    const host = await api();
    await host.secureValues.forget(APP_SERVER, ['tenant', 'api_key', 'region']);
    await host.servers.stop(APP_SERVER).catch(() => undefined);
    if (savedUserConfig === undefined) await fsp.rm(userConfig, { force: true });
    else await fsp.writeFile(userConfig, savedUserConfig);
    await host.servers.reload();
  });

  it("without the values the app's call stops, telling the person what to set; nothing is sent", async () => {
    const host = await api();
    await assert.rejects(
      host.appCallTool(APP_SERVER, 'dashboard', 'query', { sql: 'select 3' }),
      (e: Error) => /needs secure values that only the user sets/.test(e.message) && /MCP: Edit Secure Values…/.test(e.message),
    );
    assert.equal((await recorded()).length, 0);
  });

  it("the app's call carries the remembered values and the configured one", async () => {
    const host = await api();
    await host.secureValues.set(APP_SERVER, 'query', { tenant: TENANT, api_key: KEY });
    const result = await host.appCallTool(APP_SERVER, 'dashboard', 'query', { sql: 'select 4' });
    const last = (await recorded()).at(-1)!;
    assert.equal(last.tool, 'query');
    assert.deepEqual(last.arguments, { sql: 'select 4' });
    assert.deepEqual(last.secureArguments, { tenant: TENANT, api_key: KEY, region: 'eu' });
    assert.match(JSON.stringify(result), /ran select 4 for /);
  });
});
