import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  formatConfigError,
  inferHttpType,
  inputIdsUsedBy,
  loadMcpConfig,
  loadMcpConfigSync,
  loadMcpConfigs,
  parseEnvFile,
  parseMcpConfig,
  resolveServer,
  UnresolvedInputError,
  type ServerDefinition,
} from '../../src/core/config';
import { eraCacheKey, findExecutable, LEGACY_ERA_MAX_AGE_MS, priorFrom, quoteForCmd, spawnPlan } from '../../src/core/connection';
import { escapeCmdCommand } from '../../src/core/connection/stdioTransport';
import { tempDir } from '../helpers/tempDirs';

const tmp = () => tempDir('mcp-config-');

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
  assert.deepEqual(
    parsed.servers.map((s) => [s.name, s.type]),
    [
      ['local', 'stdio'],
      ['remote', 'http'],
    ],
  );
  const local = parsed.servers[0] as Extract<ServerDefinition, { type: 'stdio' }>;
  assert.deepEqual(local.args, ['server.js', '3']);
  assert.deepEqual(local.env, { A: '1', B: null, N: '5' });
  assert.equal(local.file, '/w/.vscode/mcp.json');
  assert.deepEqual(
    parsed.inputs.map((i) => [i.id, i.type, i.password]),
    [
      ['api-key', 'promptString', true],
      ['region', 'pickString', false],
    ],
  );
  assert.deepEqual(parsed.inputs[1]!.options, ['eu', 'us']);
});

test('accepts Claude-style mcpServers and infers each type from url or command', () => {
  const parsed = parseMcpConfig(
    JSON.stringify({
      mcpServers: {
        files: { command: 'npx', args: ['-y', 'some-server'] },
        web: { url: 'http://127.0.0.1:3000/mcp' },
        legacy: { url: 'http://127.0.0.1:3000/sse' },
        explicit: { type: 'sse', url: 'http://127.0.0.1:3000/events' },
      },
    }),
    'claude.json',
  );
  assert.deepEqual(parsed.errors, []);
  assert.deepEqual(
    parsed.servers.map((s) => [s.name, s.type]),
    [
      ['files', 'stdio'],
      ['web', 'http'],
      ['legacy', 'sse'],
      ['explicit', 'sse'],
    ],
  );
});

test('a syntax error names the file, line and column and loads no server from that file', () => {
  const text = '{\n  "servers": {\n    "a": { "command": "node" }\n    "b": { "command": "node" }\n  }\n}';
  const parsed = parseMcpConfig(text, 'broken.json');
  assert.equal(parsed.servers.length, 0);
  assert.ok(parsed.errors.length >= 1);
  const [first] = parsed.errors;
  assert.equal(first!.file, 'broken.json');
  assert.equal(first!.line, 4);
  assert.equal(first!.column, 5);
  assert.match(formatConfigError(first!), /^broken\.json:4:5: comma expected/);
});

test('a bad server entry is reported at its line and the other servers still load', () => {
  const text =
    '{\n  "servers": {\n    "good": { "command": "node" },\n    "bad": { "type": "stdio", "args": [] },\n    "weird": { "type": "carrier-pigeon", "url": "x" }\n  }\n}';
  const parsed = parseMcpConfig(text, 'mcp.json');
  assert.deepEqual(
    parsed.servers.map((s) => s.name),
    ['good'],
  );
  assert.deepEqual(
    parsed.errors.map((e) => [e.server, e.line]),
    [
      ['bad', 4],
      ['weird', 5],
    ],
  );
  assert.match(parsed.errors[0]!.message, /"command" must be a non-empty string/);
  assert.match(parsed.errors[1]!.message, /unknown type "carrier-pigeon"/);
});

test('a broken config file does not stop the servers of another file', async () => {
  const dir = tmp();
  writeFileSync(join(dir, 'user.json'), '{ "servers": { "u": { "command": "node" } } }');
  writeFileSync(join(dir, 'workspace.json'), '{ "servers": { "w": ');
  const merged = await loadMcpConfigs([join(dir, 'user.json'), join(dir, 'workspace.json')]);
  assert.deepEqual(
    merged.servers.map((s) => s.name),
    ['u'],
  );
  assert.equal(merged.errors[0]!.file, join(dir, 'workspace.json'));
  assert.equal(merged.errors[0]!.line, 1);
});

test('a missing config file is an empty configuration', async () => {
  assert.deepEqual(await loadMcpConfig(join(tmp(), 'nope.json')), { servers: [], inputs: [], errors: [] });
});

test('read without yielding (as the extension reads it), a config file gives what loadMcpConfig gives', async () => {
  const dir = tmp();
  // about 160 KB, more than the 64 KiB a read starts with when the file's size says less
  const servers = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`server-${i}`, { command: 'node', args: [`${i}`.padStart(40, '0')] }]));
  const large = join(dir, 'large.json');
  writeFileSync(large, JSON.stringify({ servers }));
  const sync = loadMcpConfigSync(large);
  assert.equal(sync.servers.length, 2000);
  assert.deepEqual(sync, await loadMcpConfig(large));
  assert.deepEqual(loadMcpConfigSync(join(dir, 'nope.json')), { servers: [], inputs: [], errors: [] });
  // a FIFO with no writer is refused from its descriptor, at once, not waited on
  const pipe = join(dir, 'pipe.json');
  assert.equal(spawnSync('mkfifo', [pipe]).status, 0, 'mkfifo is needed for this case');
  assert.match(loadMcpConfigSync(pipe).errors[0]!.message, /the config file .*pipe\.json is not a regular file \(it is a pipe\)/);
});

test('substitutes workspaceFolder, userHome, env and input variables everywhere', async () => {
  const [def] = parseMcpConfig(
    JSON.stringify({
      servers: {
        s: {
          command: '${workspaceFolder}/bin/server',
          args: ['--home', '${userHome}', '--token=${input:token}', '${unknown}'],
          env: { KEY: '${env:SECRET_SOURCE}', MISSING: '${env:NOT_SET_ANYWHERE}' },
          cwd: 'sub',
        },
      },
    }),
    'mcp.json',
  ).servers;
  const asked: string[] = [];
  const resolved = await resolveServer(def!, {
    workspaceFolder: '/ws',
    userHome: '/home/me',
    env: { SECRET_SOURCE: 'from-env', PATH: '/bin' },
    inputs: [{ id: 'token', type: 'promptString', password: true }],
    resolveInput: async (id, input) => {
      asked.push(`${id}:${input?.password}`);
      return 't0k';
    },
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
  assert.deepEqual(resolved.secrets, ['t0k'], 'the password value is returned for the log to mask');
});

test('only values of password (or undeclared) inputs are reported as secrets', async () => {
  const [def] = parseMcpConfig(
    JSON.stringify({
      servers: { s: { url: 'https://x.test/${input:region}/mcp', headers: { Authorization: 'Bearer ${input:key}', 'X-Team': '${input:team}' } } },
    }),
    'm.json',
  ).servers;
  const resolved = await resolveServer(def!, {
    inputs: [
      { id: 'region', type: 'pickString', options: ['eu'] },
      { id: 'key', type: 'promptString', password: true },
    ],
    resolveInput: async (id) => ({ region: 'eu', key: 's3cr3t', team: 'blue' })[id],
  });
  assert.deepEqual(resolved.secrets, ['s3cr3t', 'blue']);
});

test('env null deletes an inherited variable and envFile values sit between the inherited env and env', async () => {
  const dir = tmp();
  writeFileSync(join(dir, '.env'), '# comment\nFROM_FILE=file\nexport OVERRIDDEN="from file"\nQUOTED=\'a b\'\n');
  const [def] = parseMcpConfig(
    JSON.stringify({
      servers: { s: { command: 'node', envFile: '${workspaceFolder}/.env', env: { OVERRIDDEN: 'from env', DROP_ME: null } } },
    }),
    'mcp.json',
  ).servers;
  const resolved = await resolveServer(def!, { workspaceFolder: dir, env: { DROP_ME: 'x', KEEP: 'k' } });
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
  await assert.rejects(
    resolveServer(def!, { resolveInput: async () => undefined }),
    (e: unknown) => e instanceof UnresolvedInputError && e.inputId === 'key' && /server "api" needs the input "key"/.test(e.message),
  );
  const ok = await resolveServer(def!, { resolveInput: async () => 'abc' });
  assert.deepEqual(ok.transport !== 'stdio' && ok.headers, { Authorization: 'Bearer abc' });
});

test('lists the inputs a server uses, each once', () => {
  const [def] = parseMcpConfig(
    JSON.stringify({
      servers: { s: { command: '${input:a}', args: ['${input:b}', '${input:a}'], env: { X: '${input:c}', Y: null } } },
    }),
    'm.json',
  ).servers;
  assert.deepEqual(inputIdsUsedBy(def!), ['a', 'b', 'c']);
});

test('on Windows a .cmd shim runs through the shell with caret-escaped arguments, an .exe directly', () => {
  const dir = tmp();
  writeFileSync(join(dir, 'npx.cmd'), '');
  writeFileSync(join(dir, 'node.exe'), '');
  const env = { PATH: dir, PATHEXT: '.EXE;.CMD' };
  const cmd = spawnPlan('npx', ['-y', 'my server', 'a&b'], env, undefined, 'win32');
  assert.equal(cmd.shell, true);
  assert.equal(cmd.file, join(dir, 'npx.cmd'));
  assert.deepEqual(cmd.args, ['-y', '^^^"my^^^ server^^^"', '^^^"a^^^&b^^^"']);
  const exe = spawnPlan('node', ['x y'], env, undefined, 'win32');
  assert.deepEqual(exe, { file: join(dir, 'node.exe'), args: ['x y'], shell: false });
  assert.deepEqual(spawnPlan('npx', ['a b'], env, undefined, 'linux'), { file: 'npx', args: ['a b'], shell: false });
  assert.equal(findExecutable('definitely-not-here', env, undefined, 'win32'), undefined);
});

// cmd.exe removes one level of carets per parse and passes carets inside double quotes literally, so every
// cmd metacharacter (the quotes too) is caret-escaped outside any quote, twice because a batch shim's %*
// goes through cmd again; what remains after two parses is CommandLineToArgvW quoting.
for (const [arg, expected, why] of [
  ['plain-arg_1.0', 'plain-arg_1.0', 'needs no quoting at all'],
  ['C:\\dir\\file.txt', 'C:\\dir\\file.txt', 'backslashes without a quote are literal to CommandLineToArgvW'],
  ['', '^^^"^^^"', 'an empty argument stays an argument'],
  ['a&b', '^^^"a^^^&b^^^"', '& would end the command: escaped outside quotes, not as "a^&b" (caret kept literally)'],
  ['say "hi"', '^^^"say^^^ \\^^^"hi\\^^^"^^^"', 'inner quotes become \\" for argv, and every quote is caret-escaped for cmd'],
  ['50%', '^^^"50^^^%^^^"', '% would expand a variable'],
  ['a|b>c<d', '^^^"a^^^|b^^^>c^^^<d^^^"', 'pipes and redirections'],
  ['x!y^z', '^^^"x^^^!y^^^^z^^^"', '! (delayed expansion) and ^ itself'],
  ['my dir\\', '^^^"my^^^ dir\\\\^^^"', 'trailing backslashes are doubled so the closing quote stays a quote'],
  ['a\\"b', '^^^"a\\\\\\^^^"b^^^"', 'backslashes before a quote are doubled, then the quote escaped'],
  ['(x)', '^^^"^^^(x^^^)^^^"', 'parentheses would close a block'],
] as const) {
  test(`quoteForCmd(${JSON.stringify(arg)}): ${why}`, () => {
    assert.equal(quoteForCmd(arg), expected);
  });
}

test('the path of a .cmd is caret-escaped for cmd, not quoted', () => {
  assert.equal(escapeCmdCommand('C:\\Program Files (x86)\\nodejs\\npx.cmd'), 'C:\\Program^ Files^ ^(x86^)\\nodejs\\npx.cmd');
});

test('a url whose path ends in /sse is the SSE transport even when declared "http"', () => {
  const parsed = parseMcpConfig(
    JSON.stringify({
      servers: {
        declared: { type: 'http', url: 'http://127.0.0.1:3000/sse' },
        slash: { type: 'http', url: 'http://127.0.0.1:3000/sse/?x=1' },
        streamable: { type: 'http', url: 'http://127.0.0.1:3000/mcp' },
        named: { type: 'http', url: 'http://127.0.0.1:3000/sse-like' },
      },
    }),
    'm.json',
  );
  assert.deepEqual(
    parsed.servers.map((s) => [s.name, s.type]),
    [
      ['declared', 'sse'],
      ['slash', 'sse'],
      ['streamable', 'http'],
      ['named', 'http'],
    ],
  );
  // `mcp-host … --url URL` picks the transport with the same rule.
  assert.equal(inferHttpType('http://127.0.0.1:3000/sse'), 'sse');
  assert.equal(inferHttpType('http://127.0.0.1:3000/mcp'), 'http');
});

test('the era cache key is a sha256 of how the server is reached: no resolved secret, and headers count', () => {
  const stdio = { name: 's', transport: 'stdio' as const, command: 'node', args: ['--token=hunter2-secret'], env: {}, cwd: '/w' };
  const key = eraCacheKey(stdio);
  assert.match(key, /^[0-9a-f]{64}$/);
  assert.ok(!key.includes('hunter2'));
  assert.equal(eraCacheKey({ ...stdio, name: 'renamed', env: { X: '1' } }), key, 'the name and env are not identity');
  assert.notEqual(eraCacheKey({ ...stdio, args: ['--token=other'] }), key);
  const http = { name: 'h', transport: 'http' as const, url: 'https://x.test/mcp', headers: { Authorization: 'Bearer a' } };
  assert.notEqual(eraCacheKey(http), eraCacheKey({ ...http, headers: { Authorization: 'Bearer b' } }), 'another authorization context is another entry');
  assert.equal(eraCacheKey(http), eraCacheKey({ ...http, headers: { authorization: 'Bearer a' } }));
});

test('a legacy era verdict is supplied only while younger than the horizon; a modern one always', () => {
  const now = 1_000_000_000_000;
  const discover = { supportedVersions: ['2026-07-28'] } as never;
  assert.deepEqual(priorFrom({ kind: 'legacy', at: now - 1000 }, now), { kind: 'legacy' });
  assert.equal(priorFrom({ kind: 'legacy', at: now - LEGACY_ERA_MAX_AGE_MS }, now), undefined);
  assert.equal(priorFrom({ kind: 'legacy' }, now), undefined, 'an undated legacy verdict (stored before dates) is stale');
  assert.equal(priorFrom({ kind: 'legacy', at: now + 60_000 }, now), undefined, 'a date in the future is not trusted');
  assert.deepEqual(priorFrom({ kind: 'modern', discover, at: 1 } as never, now), { kind: 'modern', discover });
  assert.equal(priorFrom(undefined, now), undefined);
});
