import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  formatConfigError, inputIdsUsedBy, loadMcpConfig, loadMcpConfigs, parseEnvFile, parseMcpConfig, resolveServer,
  UnresolvedInputError, type ServerDefinition,
} from '../../src/core/config';
import { findExecutable, quoteForCmd, spawnPlan } from '../../src/core/connection';

const tmp = () => mkdtempSync(join(tmpdir(), 'mcp-config-'));

test('reads VS Code servers and inputs from a file with comments and trailing commas', () => {
  const text = `{
    // the workspace's servers
    "inputs": [
      { "type": "promptString", "id": "api-key", "description": "API key", "password": true },
      { "type": "pickString", "id": "region", "options": ["eu", "us"], "default": "eu" },
    ],
    "servers": {
      /* a local one */
      "local": { "type": "stdio", "command": "node", "args": ["server.js", 3], "env": { "A": "1", "B": null, "N": 5 } },
      "remote": { "type": "http", "url": "https://example.com/mcp", "headers": { "Authorization": "Bearer \${input:api-key}" } },
    },
  }`;
  const parsed = parseMcpConfig(text, '/w/.vscode/mcp.json');
  assert.deepEqual(parsed.errors, []);
  assert.deepEqual(parsed.servers.map((s) => [s.name, s.type]), [['local', 'stdio'], ['remote', 'http']]);
  const local = parsed.servers[0] as Extract<ServerDefinition, { type: 'stdio' }>;
  assert.deepEqual(local.args, ['server.js', '3']);
  assert.deepEqual(local.env, { A: '1', B: null, N: '5' });
  assert.equal(local.file, '/w/.vscode/mcp.json');
  assert.deepEqual(parsed.inputs.map((i) => [i.id, i.type, i.password]), [['api-key', 'promptString', true], ['region', 'pickString', false]]);
  assert.deepEqual(parsed.inputs[1].options, ['eu', 'us']);
});

test('accepts Claude-style mcpServers and infers each type from url or command', () => {
  const parsed = parseMcpConfig(JSON.stringify({
    mcpServers: {
      files: { command: 'npx', args: ['-y', 'some-server'] },
      web: { url: 'http://127.0.0.1:3000/mcp' },
      legacy: { url: 'http://127.0.0.1:3000/sse' },
      explicit: { type: 'sse', url: 'http://127.0.0.1:3000/events' },
    },
  }), 'claude.json');
  assert.deepEqual(parsed.errors, []);
  assert.deepEqual(parsed.servers.map((s) => [s.name, s.type]),
    [['files', 'stdio'], ['web', 'http'], ['legacy', 'sse'], ['explicit', 'sse']]);
});

test('a syntax error names the file, line and column and loads no server from that file', () => {
  const text = '{\n  "servers": {\n    "a": { "command": "node" }\n    "b": { "command": "node" }\n  }\n}';
  const parsed = parseMcpConfig(text, 'broken.json');
  assert.equal(parsed.servers.length, 0);
  assert.ok(parsed.errors.length >= 1);
  const [first] = parsed.errors;
  assert.equal(first.file, 'broken.json');
  assert.equal(first.line, 4);
  assert.equal(first.column, 5);
  assert.match(formatConfigError(first), /^broken\.json:4:5: comma expected/);
});

test('a bad server entry is reported at its line and the other servers still load', () => {
  const text = '{\n  "servers": {\n    "good": { "command": "node" },\n    "bad": { "type": "stdio", "args": [] },\n    "weird": { "type": "carrier-pigeon", "url": "x" }\n  }\n}';
  const parsed = parseMcpConfig(text, 'mcp.json');
  assert.deepEqual(parsed.servers.map((s) => s.name), ['good']);
  assert.deepEqual(parsed.errors.map((e) => [e.server, e.line]), [['bad', 4], ['weird', 5]]);
  assert.match(parsed.errors[0].message, /"command" must be a non-empty string/);
  assert.match(parsed.errors[1].message, /unknown type "carrier-pigeon"/);
});

test('a broken config file does not stop the servers of another file', async () => {
  const dir = tmp();
  writeFileSync(join(dir, 'user.json'), '{ "servers": { "u": { "command": "node" } } }');
  writeFileSync(join(dir, 'workspace.json'), '{ "servers": { "w": ');
  const merged = await loadMcpConfigs([join(dir, 'user.json'), join(dir, 'workspace.json')]);
  assert.deepEqual(merged.servers.map((s) => s.name), ['u']);
  assert.equal(merged.errors[0].file, join(dir, 'workspace.json'));
  assert.equal(merged.errors[0].line, 1);
});

test('a missing config file is an empty configuration', async () => {
  assert.deepEqual(await loadMcpConfig(join(tmp(), 'nope.json')), { servers: [], inputs: [], errors: [] });
});

test('substitutes workspaceFolder, userHome, env and input variables everywhere', async () => {
  const [def] = parseMcpConfig(JSON.stringify({
    servers: {
      s: {
        command: '${workspaceFolder}/bin/server', args: ['--home', '${userHome}', '--token=${input:token}', '${unknown}'],
        env: { KEY: '${env:SECRET_SOURCE}', MISSING: '${env:NOT_SET_ANYWHERE}' }, cwd: 'sub',
      },
    },
  }), 'mcp.json').servers;
  const asked: string[] = [];
  const resolved = await resolveServer(def, {
    workspaceFolder: '/ws', userHome: '/home/me', env: { SECRET_SOURCE: 'from-env', PATH: '/bin' },
    inputs: [{ id: 'token', type: 'promptString', password: true }],
    resolveInput: async (id, input) => { asked.push(`${id}:${input?.password}`); return 't0k'; },
  });
  assert.equal(resolved.transport, 'stdio');
  if (resolved.transport !== 'stdio') return;
  assert.equal(resolved.command, '/ws/bin/server');
  assert.deepEqual(resolved.args, ['--home', '/home/me', '--token=t0k', '${unknown}']);
  assert.equal(resolved.env.KEY, 'from-env');
  assert.equal(resolved.env.MISSING, '');
  assert.equal(resolved.env.PATH, '/bin');
  assert.equal(resolved.cwd, join('/ws', 'sub'));
  assert.deepEqual(asked, ['token:true']);
});

test('env null deletes an inherited variable and envFile values sit between the inherited env and env', async () => {
  const dir = tmp();
  writeFileSync(join(dir, '.env'), '# comment\nFROM_FILE=file\nexport OVERRIDDEN="from file"\nQUOTED=\'a b\'\n');
  const [def] = parseMcpConfig(JSON.stringify({
    servers: { s: { command: 'node', envFile: '${workspaceFolder}/.env', env: { OVERRIDDEN: 'from env', DROP_ME: null } } },
  }), 'mcp.json').servers;
  const resolved = await resolveServer(def, { workspaceFolder: dir, env: { DROP_ME: 'x', KEEP: 'k' } });
  assert.equal(resolved.transport, 'stdio');
  if (resolved.transport !== 'stdio') return;
  assert.deepEqual(resolved.env, { KEEP: 'k', FROM_FILE: 'file', OVERRIDDEN: 'from env', QUOTED: 'a b' });
  assert.equal(resolved.cwd, dir, 'cwd defaults to the workspace folder');
});

test('parses dotenv files', () => {
  assert.deepEqual(parseEnvFile('A=1\n\n# c\nB = two # trailing\nC="x\\ny"\nnot a line\n'), { A: '1', B: 'two', C: 'x\ny' });
});

test('an input with no value fails resolution naming the server and the input', async () => {
  const [def] = parseMcpConfig('{"servers":{"api":{"url":"https://x.test/mcp","headers":{"Authorization":"Bearer ${input:key}"}}}}', 'm.json').servers;
  await assert.rejects(resolveServer(def, { resolveInput: async () => undefined }),
    (e: unknown) => e instanceof UnresolvedInputError && e.inputId === 'key' && /server "api" needs the input "key"/.test(e.message));
  const ok = await resolveServer(def, { resolveInput: async () => 'abc' });
  assert.deepEqual(ok.transport !== 'stdio' && ok.headers, { Authorization: 'Bearer abc' });
});

test('lists the inputs a server uses, each once', () => {
  const [def] = parseMcpConfig(JSON.stringify({
    servers: { s: { command: '${input:a}', args: ['${input:b}', '${input:a}'], env: { X: '${input:c}', Y: null } } },
  }), 'm.json').servers;
  assert.deepEqual(inputIdsUsedBy(def), ['a', 'b', 'c']);
});

test('on Windows a .cmd shim runs through the shell with quoted arguments, an .exe directly', () => {
  const dir = tmp();
  writeFileSync(join(dir, 'npx.cmd'), '');
  writeFileSync(join(dir, 'node.exe'), '');
  const env = { PATH: dir, PATHEXT: '.EXE;.CMD' };
  const cmd = spawnPlan('npx', ['-y', 'my server', 'a&b'], env, undefined, 'win32');
  assert.equal(cmd.shell, true);
  assert.equal(cmd.file, join(dir, 'npx.cmd'));
  assert.deepEqual(cmd.args, ['-y', '"my server"', '"a^&b"']);
  const exe = spawnPlan('node', ['x y'], env, undefined, 'win32');
  assert.deepEqual(exe, { file: join(dir, 'node.exe'), args: ['x y'], shell: false });
  assert.deepEqual(spawnPlan('npx', ['a b'], env, undefined, 'linux'), { file: 'npx', args: ['a b'], shell: false });
  assert.equal(findExecutable('definitely-not-here', env, undefined, 'win32'), undefined);
  assert.equal(quoteForCmd('say "hi"'), '"say \\"hi\\""');
});
