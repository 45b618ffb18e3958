// The MCP Registry: the client against our registry fixture (pages, search, a server by name, hostile answers),
// server.json -> mcp.json entries for each package type, the CLI, and the npm server installed then run for real.
import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse } from 'jsonc-parser';
import { buildForm } from '../../src/core/forms';
import { installTargets, planInstall, RegistryClient, RegistryError, RegistryPager, type RegistryEntry } from '../../src/core/registry';
import { runCli } from '../fixtures/cli';
import { EVERYTHING_VERSION, startRegistryFixture, type RegistryFixture } from '../fixtures/registry-server';
import { repoRoot } from '../fixtures/servers';
import { tempDir } from '../helpers/tempDirs';

let registry: RegistryFixture;
before(async () => {
  registry = await startRegistryFixture();
});
after(async () => {
  await registry.stop();
});

const CONFIG_WITH_COMMENT = '{\n  // my servers\n  "servers": {\n    "mine": { "command": "node", "args": ["x.js"] } // keep me\n  }\n}\n';

function configFile(): string {
  const file = join(tempDir('registry-install'), 'mcp.json');
  writeFileSync(file, CONFIG_WITH_COMMENT);
  return file;
}

function readConfig(file: string): { servers: Record<string, unknown>; inputs?: unknown[] } {
  return parse(readFileSync(file, 'utf8')) as { servers: Record<string, unknown>; inputs?: unknown[] };
}

describe('registry client', () => {
  test('pages through every server: the cursor of each page gives the next, the last page has none', async () => {
    const pager = new RegistryPager(new RegistryClient(registry.url()), '', 50, 10);
    const names: string[] = [];
    let pages = 0;
    while (!pager.done) {
      names.push(...(await pager.next()).entries.map((e) => e.server.name));
      pages++;
    }
    assert.equal(pages, 4);
    assert.equal(names.length, 33);
    assert.equal(new Set(names).size, 33, 'no server twice');
    assert.deepEqual(names, [...names].sort());
  });

  test('search: the registry filters by name; a deprecated server is marked with its message', async () => {
    const page = await new RegistryClient(registry.url()).listServers({ search: 'old-tool' });
    assert.deepEqual(
      page.entries.map((e) => [e.server.name, e.status, e.statusMessage]),
      [['io.example/old-tool', 'deprecated', 'Use io.example/new-tool']],
    );
    assert.equal(page.nextCursor, undefined);
    assert.equal((await new RegistryClient(registry.url()).listServers({ search: 'nothing-like-this' })).entries.length, 0);
  });

  test('one server by name: the name is URL-encoded in the path; an unknown one is a clear 404', async () => {
    const entry = await new RegistryClient(`${registry.url()}/`).getServer('io.example/weather');
    assert.equal(entry.server.version, '1.4.0');
    assert.ok(registry.requests.includes('/ok/v0.1/servers/io.example%2Fweather/versions/latest'), registry.requests.join('\n'));
    await assert.rejects(
      new RegistryClient(registry.url()).getServer('io.example/none'),
      (e: Error) => e instanceof RegistryError && /"io.example\/none" was not found/.test(e.message),
    );
  });

  test('a registry URL that is not http(s), or holds a password, is refused', () => {
    assert.throws(() => new RegistryClient('file:///etc'), /not http or https/);
    assert.throws(() => new RegistryClient('https://u:p@example.com'), /user name or password/);
  });
});

describe('registry client against a hostile registry', () => {
  test('a 64 MB page is cut at the answer limit, named, and nothing of it is used', async () => {
    const started = Date.now();
    await assert.rejects(new RegistryClient(registry.url('huge'), { maxAnswerBytes: 1024 * 1024 }).listServers(), (e: Error) => {
      assert.ok(e instanceof RegistryError);
      assert.match(e.message, /sent an answer over 1 MiB, the limit; nothing of it was used/);
      return true;
    });
    assert.ok(Date.now() - started < 20_000);
  });

  test('a registry that never answers: the request ends at its time limit, named', async () => {
    await assert.rejects(new RegistryClient(registry.url('slow'), { timeoutMs: 1500 }).listServers({ search: 'x' }), /did not answer within 1.5 s/);
  });

  test('the same cursor again: paging stops with an error instead of looping', async () => {
    const pager = new RegistryPager(new RegistryClient(registry.url('loop')), '');
    await pager.next();
    await assert.rejects(pager.next(), /gave the cursor "the-same-cursor" again after 2 pages; paging stopped/);
    assert.ok(pager.done);
  });

  test('more pages than the bound: a clear error naming it', async () => {
    const pager = new RegistryPager(new RegistryClient(registry.url()), '', 2, 5);
    await pager.next();
    await pager.next();
    await assert.rejects(pager.next(), /more than 2 pages for this search; narrow it/);
  });
});

describe('server.json -> mcp.json entry', () => {
  let entries: Map<string, RegistryEntry>;
  before(async () => {
    const client = new RegistryClient(registry.url());
    entries = new Map();
    for (const name of [
      'io.github.modelcontextprotocol/everything',
      'io.example/weather',
      'io.example/database',
      'io.example/files-dotnet',
      'io.example/hosted',
      'io.example/bundle',
    ]) {
      entries.set(name, await client.getServer(name));
    }
  });
  const plan = (name: string, n = 0) => planInstall(entries.get(name)!.server, installTargets(entries.get(name)!.server).filter((t) => !t.unsupported)[n]!);

  test('the fields become a form for the form engine: required, defaults, choices, descriptions; secrets left out', () => {
    const form = buildForm(plan('io.example/weather').schema);
    const byId = new Map(form.fields.map((f) => [f.id, f]));
    assert.deepEqual([...byId.keys()], ['/python', '/units', '/WEATHER_CITY']);
    const units = byId.get('/units')!;
    assert.equal(units.kind, 'enum');
    assert.equal(units.default, 'metric');
    assert.equal(byId.get('/WEATHER_CITY')!.required, true);
    assert.match(byId.get('/WEATHER_CITY')!.description ?? '', /Default city.*Environment variable/);
    const oci = buildForm(plan('io.example/database').schema);
    assert.deepEqual(
      oci.fields.map((f) => [f.id, f.kind, f.required]),
      [
        ['/host_path', 'string', true],
        ['/max-rows', 'number', false],
      ],
    );
  });

  test('a missing required value, a wrong choice and a secret given in clear are refused, named', () => {
    assert.throws(
      () => plan('io.example/weather').build({ units: 'kelvin' }),
      (e: Error) => {
        assert.match(e.message, /WEATHER_CITY is required/);
        assert.match(e.message, /--units must be one of metric, imperial, not "kelvin"/);
        return true;
      },
    );
    assert.throws(
      () => plan('io.example/weather').build({ WEATHER_CITY: 'Oslo', WEATHER_API_KEY: 'sk-live-123' }),
      /WEATHER_API_KEY is a secret: give it as \$\{env:NAME\}/,
    );
    assert.throws(() => plan('io.example/weather').build({ WEATHER_CITY: 'Oslo', nope: '1' }), /nope: not a value this server takes/);
  });

  test('a bundle without its sha-256, and a package without an exact version, are not installed', () => {
    const bundleServer = entries.get('io.example/bundle')!.server;
    assert.equal(installTargets(bundleServer)[0]!.kind, 'mcpb');
    const unchecked = { ...bundleServer, packages: [{ ...bundleServer.packages[0]!, fileSha256: undefined }] };
    assert.match(installTargets(unchecked)[0]!.unsupported ?? '', /has no fileSha256, so it cannot be checked before it is unpacked/);
    const server = { ...entries.get('io.example/weather')!.server };
    server.packages = [{ ...server.packages[0]!, version: '^1.4.0' }];
    assert.throws(() => planInstall(server, installTargets(server)[0]!), /"\^1.4.0", which is not one exact version/);
  });
});

describe('mcp-host registry', () => {
  test('search: one line per server with its version, deprecated marked, package types; --json for scripts', async () => {
    const r = await runCli(['registry', 'search', 'io.example/', '--registry', registry.url(), '--limit', '100']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^io\.example\/old-tool 0\.9\.0 \[DEPRECATED: Use io\.example\/new-tool\]  \(npm\)$/m);
    assert.match(r.out, /^io\.example\/hosted 3\.2\.0  \(remote\)$/m);
    assert.match(r.out, /^io\.example\/bundle 1\.0\.0  \(mcpb\)$/m);
    const paged = await runCli(['registry', 'search', '--registry', registry.url(), '--limit', '10', '--pages', '2', '--json']);
    const json = JSON.parse(paged.out) as { servers: unknown[]; more: boolean };
    assert.equal(json.servers.length, 20);
    assert.equal(json.more, true);
    assert.match(paged.err, /^$/);
  });

  test('show: the details and, for each way to install, the values it takes', async () => {
    const r = await runCli(['registry', 'show', 'io.example/hosted', '--registry', registry.url()]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^Hosted — io\.example\/hosted 3\.2\.0$/m);
    assert.match(r.out, /--from remote: remote streamable-http https:\/\/mcp\.example\.com\/\{tenant\}\/mcp/);
    assert.match(r.out, /--arg tenant=…  URL: tenant: Your tenant \(required\)/);
    assert.match(r.out, /--arg token=…  Authorization: token \(required, secret: asked at the first start\)/);
    assert.match(r.out, /--arg X-Region=…  X-Region: Data region \(optional, default eu, one of eu, us\)/);
  });

  test('show --json: the registry entry as parsed (server.json and its status), nothing else on stdout', async () => {
    const r = await runCli(['registry', 'show', 'io.example/old-tool', '--registry', registry.url(), '--json']);
    assert.equal(r.code, 0, r.err);
    const entry = JSON.parse(r.out) as RegistryEntry;
    assert.equal(entry.status, 'deprecated');
    assert.equal(entry.statusMessage, 'Use io.example/new-tool');
    assert.equal(entry.isLatest, true);
    assert.equal(entry.server.name, 'io.example/old-tool');
    assert.equal(entry.server.version, '0.9.0');
    assert.deepEqual(
      entry.server.packages.map((p) => [p.registryType, p.identifier, p.version, p.transport.type]),
      [['npm', '@example/old-tool', '0.9.0', 'stdio']],
    );
    assert.deepEqual(entry.server.remotes, []);
    const hosted = JSON.parse((await runCli(['registry', 'show', 'io.example/hosted', '--registry', registry.url(), '--json'])).out) as RegistryEntry;
    assert.equal(hosted.status, 'active');
    assert.deepEqual(
      hosted.server.remotes.map((rm) => [rm.type, rm.url, rm.headers?.map((h) => h.name)]),
      [
        ['streamable-http', 'https://mcp.example.com/{tenant}/mcp', ['Authorization', 'X-Region']],
        ['sse', 'https://mcp.example.com/sse', undefined],
      ],
    );
    const missing = await runCli(['registry', 'show', 'io.example/none', '--registry', registry.url(), '--json']);
    assert.notEqual(missing.code, 0);
    assert.equal(missing.out, '');
    assert.match(missing.err, /"io.example\/none" was not found/);
  });

  test("install npm: npx -y with the version pinned, the file's comments kept", async () => {
    const file = configFile();
    const r = await runCli(['registry', 'install', 'io.github.modelcontextprotocol/everything', '--registry', registry.url(), '--config', file]);
    assert.equal(r.code, 0, r.err);
    assert.match(
      r.out,
      new RegExp(`as "everything" in .*:\\n  npx -y @modelcontextprotocol/server-everything@${EVERYTHING_VERSION.replace(/\./g, '\\.')} stdio\\n$`),
    );
    const text = readFileSync(file, 'utf8');
    assert.match(text, /\/\/ my servers/);
    assert.match(text, /\/\/ keep me/);
    assert.deepEqual(readConfig(file).servers.everything, {
      type: 'stdio',
      command: 'npx',
      args: ['-y', `@modelcontextprotocol/server-everything@${EVERYTHING_VERSION}`, 'stdio'],
    });
  });

  test('install PyPI: uvx name==version, the secret an ${input:…} password input, the rest from --arg/--env', async () => {
    const file = configFile();
    const r = await runCli([
      'registry',
      'install',
      'io.example/weather',
      '--registry',
      registry.url(),
      '--config',
      file,
      '--env',
      'WEATHER_CITY=Oslo',
      '--arg',
      'units=imperial',
    ]);
    assert.equal(r.code, 0, r.err);
    const config = readConfig(file);
    assert.deepEqual(config.servers.weather, {
      type: 'stdio',
      command: 'uvx',
      args: ['--python', '3.12', 'weather-mcp==1.4.0', '--units', 'imperial'],
      env: { WEATHER_API_KEY: '${input:weather-WEATHER_API_KEY}', WEATHER_CITY: 'Oslo' },
    });
    assert.deepEqual(config.inputs, [
      { id: 'weather-WEATHER_API_KEY', type: 'promptString', password: true, description: 'WEATHER_API_KEY of io.example/weather: Your API key' },
    ]);
    assert.doesNotMatch(readFileSync(file, 'utf8'), /sk-/);
  });

  test('install next to existing inputs: they are kept with their comments, the new one appended; an input id already there is not added twice', async () => {
    const file = join(tempDir('registry-install'), 'mcp.json');
    const before = '{\n  "inputs": [\n    // the notes key\n    { "type": "promptString", "id": "notes-key", "password": true }\n  ],\n  "servers": {}\n}\n';
    writeFileSync(file, before);
    const args = ['registry', 'install', 'io.example/weather', '--registry', registry.url(), '--config', file, '--env', 'WEATHER_CITY=Oslo'];
    assert.equal((await runCli(args)).code, 0);
    assert.equal((await runCli([...args, '--as', 'weather-again'])).code, 0);
    const text = readFileSync(file, 'utf8');
    assert.match(text, /\/\/ the notes key/);
    assert.deepEqual(
      (readConfig(file).inputs as { id: string }[]).map((i) => i.id),
      ['notes-key', 'weather-WEATHER_API_KEY'],
    );
    assert.deepEqual(Object.keys(readConfig(file).servers), ['weather', 'weather-again']);
  });

  test('install OCI: docker run -i --rm, the variable filled into its argument, the environment passed with -e', async () => {
    const file = configFile();
    const r = await runCli([
      'registry',
      'install',
      'io.example/database',
      '--registry',
      registry.url(),
      '--config',
      file,
      '--arg',
      'host_path=/srv/data',
      '--env',
      'DB_URL=env:MY_DB_URL',
    ]);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(readConfig(file).servers.database, {
      type: 'stdio',
      command: 'docker',
      args: ['run', '-i', '--rm', '-v', '/srv/data:/data', '-e', 'DB_URL', 'docker.io/example/db-mcp:2.0.1', '--max-rows', '100'],
      env: { DB_URL: '${env:MY_DB_URL}' },
    });
    assert.equal(readConfig(file).inputs, undefined, 'a secret given as ${env:…} needs no input');
  });

  test('install NuGet: dnx name@version --yes, the package arguments after --', async () => {
    const file = configFile();
    const r = await runCli([
      'registry',
      'install',
      'io.example/files-dotnet',
      '--registry',
      registry.url(),
      '--config',
      file,
      '--arg',
      'root_dir=/home/me/docs',
    ]);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(readConfig(file).servers['files-dotnet'], {
      type: 'stdio',
      command: 'dnx',
      args: ['Example.Files.Mcp@0.3.0', '--yes', '--', '/home/me/docs'],
    });
  });

  test('install a remote: http with its URL variable and headers, the token a secret input; --from picks the SSE one', async () => {
    const file = configFile();
    const r = await runCli(['registry', 'install', 'io.example/hosted', '--registry', registry.url(), '--config', file, '--arg', 'tenant=acme', '--json']);
    assert.equal(r.code, 0, r.err);
    const out = JSON.parse(r.out) as { key: string; entry: unknown };
    assert.equal(out.key, 'hosted');
    assert.deepEqual(readConfig(file).servers.hosted, {
      type: 'http',
      url: 'https://mcp.example.com/acme/mcp',
      headers: { Authorization: 'Bearer ${input:hosted-token}', 'X-Region': 'eu' },
    });
    assert.deepEqual(readConfig(file).inputs, [
      { id: 'hosted-token', type: 'promptString', password: true, description: 'Authorization: token of io.example/hosted' },
    ]);
    const sse = await runCli([
      'registry',
      'install',
      'io.example/hosted',
      '--registry',
      registry.url(),
      '--config',
      file,
      '--from',
      'sse',
      '--as',
      'hosted-sse',
    ]);
    assert.equal(sse.code, 0, sse.err);
    assert.deepEqual(readConfig(file).servers['hosted-sse'], { type: 'sse', url: 'https://mcp.example.com/sse' });
  });

  test('refusals: a missing required value (exit 1, named), a deprecated server warned, a bundle, a slow registry (exit 4)', async () => {
    const file = configFile();
    const missing = await runCli(['registry', 'install', 'io.example/weather', '--registry', registry.url(), '--config', file]);
    assert.equal(missing.code, 1);
    assert.match(missing.err, /cannot install io\.example\/weather: WEATHER_CITY is required \(Default city\)/);
    assert.equal(readFileSync(file, 'utf8'), CONFIG_WITH_COMMENT, 'nothing written');
    const old = await runCli(['registry', 'install', 'io.example/old-tool', '--registry', registry.url(), '--config', file]);
    assert.equal(old.code, 0, old.err);
    assert.match(old.err, /warning: io\.example\/old-tool is deprecated: Use io\.example\/new-tool/);
    // A bundle is installable (carry.test.ts downloads and installs one); one without fileSha256 is not.
    const bundle = await runCli(['registry', 'show', 'io.example/bundle', '--registry', registry.url()]);
    assert.match(bundle.out, /^--from mcpb: mcpb https:\/\/example\.com\/releases\/bundle-1\.0\.0\.mcpb$/m);
    const badArg = await runCli(['registry', 'install', 'io.example/weather', '--registry', registry.url(), '--config', file, '--arg', 'WEATHER_CITY=Oslo']);
    assert.match(badArg.err, /--arg WEATHER_CITY: WEATHER_CITY is an environment variable; give it with --env/);
    const loop = await runCli(['registry', 'search', '--registry', registry.url('loop'), '--pages', '5']);
    assert.equal(loop.code, 4);
    assert.match(loop.err, /gave the cursor "the-same-cursor" again/);
  });

  test('the installed npm server starts for real (npx, version pinned) and lists its tools', { timeout: 180_000 }, async () => {
    const file = configFile();
    const installed = await runCli(['registry', 'install', 'io.github.modelcontextprotocol/everything', '--registry', registry.url(), '--config', file]);
    assert.equal(installed.code, 0, installed.err);
    const tools = await runCli(['tools', '--server', 'everything', '--config', file, '--timeout', '150000'], {}, repoRoot);
    assert.equal(tools.code, 0, tools.err);
    assert.match(tools.out, /^echo\b/m);
    assert.match(tools.out, /get-sum|add/);
  });
});
