// Installing MCP Bundles, discovering servers configured for other apps, and carrying servers in and out.
// A bundle is built with @anthropic-ai/mcpb's own packer around a real server, installed (from the file and from
// the registry fixture), started and its tool called; hostile archives are crafted byte by byte and refused before
// anything is written outside a temporary folder. Each other app's config format is written into a fake home.
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { crc32 } from 'node:zlib';
import { parse } from 'jsonc-parser';
import { BUNDLE_LIMITS, openBundleBytes, planBundle, readCentralDirectory } from '../../src/core/bundles';
import { parseMcpConfig } from '../../src/core/config';
import { discoverServers, exportStandard, importEntry, sourceFiles } from '../../src/core/discovery';
import { runCli } from '../fixtures/cli';
import { startRegistryFixture, type RegistryFixture } from '../fixtures/registry-server';
import { repoRoot } from '../fixtures/servers';
import { bundleServer } from '../helpers/bundle';
import { tempDir } from '../helpers/tempDirs';

const dir = tempDir('mcp-carry-');

const MANIFEST = {
  manifest_version: '0.3',
  name: 'carry-test-bundle',
  display_name: 'Carry Test',
  version: '1.2.3',
  description: 'A bundle for the tests',
  author: { name: 'MCP Host tests' },
  server: {
    type: 'node',
    entry_point: 'server/index.js',
    mcp_config: {
      command: 'node',
      args: ['${__dirname}/server/index.js', '${user_config.roots}'],
      env: { GREETING: '${user_config.greeting}', API_TOKEN: '${user_config.api_token}' },
    },
  },
  user_config: {
    greeting: { type: 'string', title: 'Greeting', description: 'Said first', required: true },
    api_token: { type: 'string', title: 'API token', description: 'The service token', sensitive: true, required: true },
    roots: { type: 'directory', title: 'Folders', description: 'Folders it may read', multiple: true, default: ['${HOME}/notes'] },
  },
};

let bundleBytes: Buffer;
let bundleFile: string;
let registry: RegistryFixture;

before(async () => {
  const source = join(dir, 'source');
  mkdirSync(join(source, 'server'), { recursive: true });
  writeFileSync(join(source, 'manifest.json'), JSON.stringify(MANIFEST, null, 2));
  await bundleServer('test/fixtures/bundle-server.ts', join(source, 'server', 'index.js'));
  bundleFile = join(dir, 'carry-test.mcpb');
  const { packExtension } = await import('@anthropic-ai/mcpb');
  assert.equal(await packExtension({ extensionPath: source, outputPath: bundleFile, silent: true }), true, 'mcpb packs the bundle');
  bundleBytes = readFileSync(bundleFile);
  registry = await startRegistryFixture();
});
after(async () => {
  await registry.stop();
});

/** A fresh place to install into: its config file and bundles folder (neither exists yet). */
function place(name: string): { config: string; bundles: string; env: NodeJS.ProcessEnv } {
  const root = join(dir, name);
  mkdirSync(root, { recursive: true });
  const bundles = join(root, 'bundles');
  return { config: join(root, 'mcp.json'), bundles, env: { MCP_HOST_BUNDLES: bundles } };
}

function readConfig(file: string): { servers: Record<string, Record<string, unknown>>; inputs?: Array<Record<string, unknown>> } {
  return parse(readFileSync(file, 'utf8')) as { servers: Record<string, Record<string, unknown>>; inputs?: Array<Record<string, unknown>> };
}

const bundleTemps = () =>
  readdirSync(tmpdir())
    .filter((n) => n.startsWith('mcp-host-bundle-'))
    .sort();

describe('MCP Bundles', () => {
  test('a bundle packed by mcpb is installed, started, and its tool called with its user_config', { timeout: 60_000 }, async () => {
    const p = place('file-install');
    const r = await runCli(
      ['bundle', 'install', bundleFile, '--config', p.config, '--arg', 'greeting=Hello', '--arg', 'roots=/srv/a', '--arg', 'roots=/srv/b'],
      p.env,
      dir,
    );
    assert.equal(r.code, 0, r.err);
    const folder = join(p.bundles, 'carry-test-bundle-1.2.3');
    assert.match(r.out, /Installed the bundle Carry Test 1\.2\.3/);
    assert.ok(existsSync(join(folder, 'manifest.json')) && existsSync(join(folder, 'server', 'index.js')));
    const config = readConfig(p.config);
    assert.deepEqual(config.servers['carry-test-bundle'], {
      type: 'stdio',
      command: 'node',
      args: [join(folder, 'server', 'index.js'), '/srv/a', '/srv/b'],
      env: { GREETING: 'Hello', API_TOKEN: '${input:carry-test-bundle-api_token}' },
    });
    assert.deepEqual(config.inputs, [
      { id: 'carry-test-bundle-api_token', type: 'promptString', password: true, description: 'API token of Carry Test: The service token' },
    ]);

    const call = await runCli(
      ['call', 'whoami', '--server', 'carry-test-bundle', '--config', p.config, '--json'],
      { MCP_INPUT_carry_test_bundle_api_token: 's3cret-value' },
      dir,
    );
    assert.equal(call.code, 0, call.err);
    const said = JSON.parse((JSON.parse(call.out) as { content: { text: string }[] }).content[0]!.text) as Record<string, unknown>;
    assert.deepEqual(said, { greeting: 'Hello', tokenLength: 12, roots: ['/srv/a', '/srv/b'], dir: join(folder, 'server') });
  });

  test('the form: non-sensitive user_config only, defaults with ${HOME}; a missing required value is named', () => {
    const plan = planBundle(openBundleBytes(bundleBytes, 'the bundle').manifest);
    const schema = plan.schema as { properties: Record<string, Record<string, unknown>>; required: string[] };
    assert.deepEqual(Object.keys(schema.properties), ['greeting', 'roots']);
    assert.deepEqual(schema.required, ['greeting']);
    assert.equal(schema.properties.roots!.type, 'array');
    assert.doesNotMatch(JSON.stringify(schema.properties.roots!.default), /\$\{HOME\}/);
    assert.throws(() => plan.build({}, '/x'), /greeting \(Greeting\) is required/);
    assert.throws(() => plan.build({ greeting: 'x', api_token: 'plain' }, '/x'), /api_token is sensitive/);
  });

  test('from the registry: downloaded, fileSha256 checked, installed; a wrong sha-256 writes nothing', { timeout: 60_000 }, async () => {
    const p = place('registry-install');
    registry.serveBundle(bundleBytes);
    const r = await runCli(
      ['registry', 'install', 'io.example/bundle', '--registry', registry.url(), '--config', p.config, '--arg', 'greeting=Hi', '--json'],
      p.env,
      dir,
    );
    assert.equal(r.code, 0, r.err);
    const out = JSON.parse(r.out) as { key: string; sha256: string; folder: string };
    assert.equal(out.key, 'carry-test-bundle');
    assert.equal(out.folder, join(p.bundles, 'carry-test-bundle-1.2.3'));
    assert.ok(existsSync(join(out.folder, 'server', 'index.js')));

    const q = place('registry-wrong-sha');
    registry.serveBundle(bundleBytes, 'ab'.repeat(32));
    const before = bundleTemps();
    const wrong = await runCli(
      ['registry', 'install', 'io.example/bundle', '--registry', registry.url(), '--config', q.config, '--arg', 'greeting=Hi'],
      q.env,
      dir,
    );
    assert.equal(wrong.code, 1);
    assert.match(wrong.err, /has the sha-256 [0-9a-f]{64}, not the expected abab.*nothing was unpacked/);
    assert.ok(!existsSync(q.bundles) && !existsSync(q.config), 'nothing written');
    assert.deepEqual(bundleTemps(), before, 'no temporary folder left');
  });

  test('a wrong --sha256 for a file is refused before anything is written', async () => {
    const p = place('file-wrong-sha');
    const r = await runCli(['bundle', 'install', bundleFile, '--config', p.config, '--arg', 'greeting=x', '--sha256', '0'.repeat(64)], p.env, dir);
    assert.equal(r.code, 1);
    assert.match(r.err, /not the expected 0{64}; nothing was unpacked/);
    assert.ok(!existsSync(p.bundles) && !existsSync(p.config));
  });
});

interface Crafted {
  name: string;
  data?: Buffer;
  declaredSize?: number;
  unixMode?: number;
  method?: number;
  compressed?: Buffer;
}

/** A zip written byte by byte, with whatever sizes, modes and names the test wants (no ZIP64 unless `entries` says). */
function craftZip(entries: Crafted[], totalOverride?: number): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const data = e.data ?? Buffer.alloc(0);
    const stored = e.compressed ?? data;
    const name = Buffer.from(e.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(e.method ?? 0, 8);
    local.writeUInt32LE(crc32(data) >>> 0, 14);
    local.writeUInt32LE(stored.length, 18);
    local.writeUInt32LE(e.declaredSize ?? data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(e.unixMode !== undefined ? (3 << 8) | 20 : 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(e.method ?? 0, 10);
    central.writeUInt32LE(crc32(data) >>> 0, 16);
    central.writeUInt32LE(stored.length, 20);
    central.writeUInt32LE(e.declaredSize ?? data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((e.unixMode ?? 0) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, stored);
    centrals.push(central, name);
    offset += 30 + name.length + stored.length;
  }
  const cd = Buffer.concat(centrals);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  const total = totalOverride ?? entries.length;
  eocd.writeUInt16LE(Math.min(total, 0xffff), 8);
  eocd.writeUInt16LE(Math.min(total, 0xffff), 10);
  eocd.writeUInt32LE(cd.length, 12);
  eocd.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, eocd]);
}

const manifestEntry = (): Crafted => ({ name: 'manifest.json', data: Buffer.from(JSON.stringify(MANIFEST)) });

describe('hostile bundles are refused before anything is written outside a temporary folder', () => {
  const cases: Array<[string, () => Buffer, RegExp]> = [
    [
      'a path leaving the folder',
      () => craftZip([manifestEntry(), { name: '../escape.js', data: Buffer.from('x') }]),
      /"\.\.\/escape\.js" leaves the bundle's folder/,
    ],
    ['an absolute path', () => craftZip([manifestEntry(), { name: '/etc/evil', data: Buffer.from('x') }]), /is an absolute path/],
    ['a backslash path', () => craftZip([manifestEntry(), { name: 'server\\..\\..\\evil', data: Buffer.from('x') }]), /backslash/],
    [
      'a symbolic link',
      () => craftZip([manifestEntry(), { name: 'server/link', data: Buffer.from('/etc/passwd'), unixMode: 0o120777 }]),
      /"server\/link" is a symbolic link/,
    ],
    ['100,000 files (ZIP64)', () => craftZip([manifestEntry()], 100_000), /ZIP64 archive \(over 65,535 entries/],
    ['30,000 files', () => craftZip(Array.from({ length: 30_000 }, (_, i) => ({ name: `f/${i}` }))), /has 30,000 entries, over 20,000, the limit/],
    [
      '10 GB declared',
      () => craftZip([manifestEntry(), ...[1, 2, 3].map((i) => ({ name: `big-${i}.bin`, data: Buffer.alloc(0), declaredSize: 3_400_000_000 }))]),
      /declares more than 1 GiB unpacked, the limit/,
    ],
    [
      'an entry larger than it declares',
      () => craftZip([manifestEntry(), { name: 'liar.bin', data: Buffer.alloc(10_000), declaredSize: 10 }]),
      /"liar\.bin" is 9\.8 KiB, not the 10 bytes it declares/,
    ],
    [
      'a file that is also a folder',
      () => craftZip([manifestEntry(), { name: 'server', data: Buffer.from('x') }, { name: 'server/index.js', data: Buffer.from('x') }]),
      /"server" both as a file and as a folder/,
    ],
    ['no manifest', () => craftZip([{ name: 'server/index.js', data: Buffer.from('x') }]), /has no manifest\.json/],
    [
      "a manifest mcpb's schema refuses",
      () => craftZip([{ name: 'manifest.json', data: Buffer.from(JSON.stringify({ ...MANIFEST, server: { type: 'node' } })) }]),
      /not a valid MCP Bundle manifest: server\.entry_point/,
    ],
  ];
  for (const [what, craft, message] of cases) {
    test(what, async () => {
      const p = place(`hostile-${what.replace(/\W+/g, '-')}`);
      const file = join(dir, `${what.replace(/\W+/g, '-')}.mcpb`);
      writeFileSync(file, craft());
      const before = bundleTemps();
      const r = await runCli(['bundle', 'install', file, '--config', p.config, '--arg', 'greeting=x'], p.env, dir);
      assert.equal(r.code, 1, r.out);
      assert.match(r.err, message);
      assert.ok(!existsSync(p.bundles), 'no bundle folder');
      assert.ok(!existsSync(p.config), 'no config written');
      assert.deepEqual(bundleTemps(), before, 'no temporary folder made');
    });
  }

  test('the limits are what the messages say', () => {
    assert.equal(BUNDLE_LIMITS.maxEntries, 20_000);
    assert.throws(() => readCentralDirectory(Buffer.from('not a zip at all, just text'.repeat(3))), /not a zip archive/);
  });
});

/** Where Windsurf keeps its servers under a home folder. */
function windsurfConfig(home: string): string {
  return join(home, '.codeium', 'windsurf', 'mcp_config.json');
}

/** Windsurf's file cut short: not valid JSON. */
function breakWindsurf(home: string): void {
  writeFileSync(windsurfConfig(home), '{ "mcpServers": { "broken": ');
}

/** A fake home with each app's config, and a workspace folder with the project files. */
function fakeHome(): { home: string; work: string } {
  const home = tempDir('mcp-carry-home-');
  const work = join(home, 'project');
  const write = (path: string, text: string) => {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, text);
  };
  write(
    join(home, '.config', 'Claude', 'claude_desktop_config.json'),
    JSON.stringify({
      mcpServers: {
        github: {
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-github@0.6.2'],
          env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_abcdefghijklmnopqrstuvwxyz0123', LOG_LEVEL: 'debug' },
        },
      },
    }),
  );
  write(
    join(home, '.claude.json'),
    JSON.stringify({
      numStartups: 12,
      mcpServers: { 'user-tool': { type: 'stdio', command: 'uvx', args: ['user-tool==1.0'] } },
      projects: {
        [work]: { mcpServers: { 'local-db': { type: 'http', url: 'https://db.example.com/mcp', headers: { Authorization: 'Bearer ${DB_TOKEN}' } } } },
        '/elsewhere': { mcpServers: { other: { command: 'x' } } },
      },
    }),
  );
  write(
    join(work, '.mcp.json'),
    JSON.stringify({ mcpServers: { 'project-api': { type: 'sse', url: 'https://api.example.com/sse', headers: { 'X-Api-Key': '${API_KEY:-none}' } } } }),
  );
  write(
    join(home, '.cursor', 'mcp.json'),
    JSON.stringify({ mcpServers: { search: { url: 'https://search.example.com/mcp', headers: { 'X-Team': 'blue' } } } }),
  );
  write(join(work, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { lint: { command: 'node', args: ['${workspaceFolder}/lint.js'] } } }));
  write(
    windsurfConfig(home),
    JSON.stringify({
      mcpServers: {
        notes: { command: 'npx', args: ['-y', 'notes-mcp@1.2.0'], env: { NOTES_DIR: '/srv/notes' } },
        'docs-remote': { serverUrl: 'https://docs.example.com/mcp', headers: { 'X-Team': 'red' } },
      },
    }),
  );
  write(
    join(home, '.copilot', 'mcp-config.json'),
    JSON.stringify({ mcpServers: { playwright: { type: 'local', command: 'npx', args: ['@playwright/mcp@0.0.40'], tools: ['*'] } } }),
  );
  write(
    join(home, '.codex', 'config.toml'),
    [
      '[mcp_servers.docs]',
      'command = "npx"',
      'args = ["-y", "docs-mcp@2.0.0"]',
      'env = { "DOCS_API_KEY" = "sk-abcdefghijklmnopqrstuvwx" }',
      '',
      '[mcp_servers.remote]',
      'url = "https://remote.example.com/mcp"',
      'bearer_token_env_var = "REMOTE_TOKEN"',
      '',
      '[mcp_servers.off]',
      'command = "never"',
      'enabled = false',
      '',
    ].join('\n'),
  );
  return { home, work };
}

describe('discovery of servers configured for other apps', () => {
  test('each source format, in a fake home; a broken file is a message for its source alone', async () => {
    const { home, work } = fakeHome();
    const results = await discoverServers({ home, platform: 'linux', env: {}, workspaceFolders: [work] });
    const by = Object.fromEntries(results.map((r) => [r.source, r]));
    const names = (id: string) => by[id]!.servers.map((s) => `${s.definition.name}:${s.definition.type}`);
    assert.deepEqual(names('claudeDesktop'), ['github:stdio']);
    assert.deepEqual(names('claudeCode'), ['user-tool:stdio', 'local-db:http', 'project-api:sse']);
    assert.deepEqual(names('cursor'), ['search:http', 'lint:stdio']);
    assert.deepEqual(names('windsurf'), ['notes:stdio', 'docs-remote:http']);
    assert.deepEqual(names('copilotCli'), ['playwright:stdio']);
    assert.deepEqual(names('codex'), ['docs:stdio', 'remote:http']);
    for (const id of ['claudeDesktop', 'claudeCode', 'cursor', 'windsurf', 'copilotCli', 'codex']) assert.deepEqual(by[id]!.problems, [], id);
    const def = (id: string, name: string) => by[id]!.servers.find((s) => s.definition.name === name)!.definition;
    // Windsurf's `serverUrl` is the URL of a remote; its stdio entry is read as written.
    const windsurfRemote = def('windsurf', 'docs-remote');
    assert.equal(windsurfRemote.type, 'http');
    assert.equal((windsurfRemote as { url: string }).url, 'https://docs.example.com/mcp');
    assert.deepEqual((windsurfRemote as { headers: unknown }).headers, { 'X-Team': 'red' });
    assert.equal(windsurfRemote.file, windsurfConfig(home));
    const windsurfLocal = def('windsurf', 'notes') as { command: string; args: string[]; env: Record<string, string>; file: string };
    assert.deepEqual([windsurfLocal.command, windsurfLocal.args, windsurfLocal.env], ['npx', ['-y', 'notes-mcp@1.2.0'], { NOTES_DIR: '/srv/notes' }]);
    assert.deepEqual(by.windsurf!.files, [windsurfConfig(home)]);

    // Windsurf's file broken: a message for Windsurf alone, every other source read as before.
    breakWindsurf(home);
    const again = Object.fromEntries((await discoverServers({ home, platform: 'linux', env: {}, workspaceFolders: [work] })).map((r) => [r.source, r]));
    assert.deepEqual(again.windsurf!.servers, []);
    assert.equal(again.windsurf!.problems.length, 1);
    assert.match(again.windsurf!.problems[0]!, /mcp_config\.json: not valid JSON/);
    for (const id of ['claudeDesktop', 'claudeCode', 'cursor', 'copilotCli', 'codex']) {
      assert.deepEqual(again[id]!.problems, [], id);
      assert.deepEqual(again[id]!.servers, by[id]!.servers, id);
    }
    assert.deepEqual((def('claudeCode', 'local-db') as { headers: unknown }).headers, { Authorization: 'Bearer ${env:DB_TOKEN}' });
    assert.deepEqual((def('claudeCode', 'project-api') as { headers: unknown }).headers, { 'X-Api-Key': '${env:API_KEY}' });
    assert.deepEqual((def('codex', 'remote') as { headers: unknown }).headers, { Authorization: 'Bearer ${env:REMOTE_TOKEN}' });
    assert.equal(def('claudeCode', 'local-db').file, join(home, '.claude.json'));
  });

  test('per-OS locations of Claude Desktop', () => {
    const ctx = (platform: NodeJS.Platform) => ({ home: '/h', platform, env: { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, workspaceFolders: [] });
    assert.match(sourceFiles('claudeDesktop', ctx('darwin'))[0]!.path, /Library\/Application Support\/Claude\/claude_desktop_config\.json$/);
    assert.match(sourceFiles('claudeDesktop', ctx('win32'))[0]!.path, /Roaming.Claude.claude_desktop_config\.json$/);
    assert.match(sourceFiles('claudeDesktop', ctx('linux'))[0]!.path, /\.config\/Claude\/claude_desktop_config\.json$/);
  });

  test('a config over the size limit is refused with a message, not read', async () => {
    const home = tempDir('mcp-carry-big-');
    mkdirSync(join(home, '.cursor'));
    writeFileSync(join(home, '.cursor', 'mcp.json'), Buffer.alloc(17 * 1024 * 1024, 0x20));
    const [cursor] = await discoverServers({ home, platform: 'linux', env: {}, workspaceFolders: [] }, ['cursor']);
    assert.equal(cursor!.servers.length, 0);
    assert.match(cursor!.problems[0]!, /over 16 MiB|16 MiB/);
  });

  test('the CLI lists them; import writes secrets as password inputs, never in clear', async () => {
    const { home, work } = fakeHome();
    breakWindsurf(home);
    const listed = await runCli(['discover'], { HOME: home }, work);
    assert.equal(listed.code, 0, listed.err);
    assert.match(listed.out, /^Claude Desktop \(claudeDesktop\)\n {2}github\tstdio\tnpx -y @modelcontextprotocol\/server-github@0\.6\.2$/m);
    assert.match(listed.err, /Windsurf: .*not valid JSON/);

    const config = join(work, 'imported.json');
    const imported = await runCli(['import', 'claudeDesktop', 'github', '--config', config], { HOME: home }, work);
    assert.equal(imported.code, 0, imported.err);
    assert.match(imported.out, /not copied \(asked at the first start, kept as secrets\): env GITHUB_PERSONAL_ACCESS_TOKEN/);
    const text = readFileSync(config, 'utf8');
    assert.doesNotMatch(text, /ghp_/);
    const written = readConfig(config);
    assert.deepEqual(written.servers.github!.env, { GITHUB_PERSONAL_ACCESS_TOKEN: '${input:github-github_personal_access_token}', LOG_LEVEL: 'debug' });
    assert.deepEqual(written.inputs, [
      {
        id: 'github-github_personal_access_token',
        type: 'promptString',
        password: true,
        description: 'Environment variable GITHUB_PERSONAL_ACCESS_TOKEN of github',
      },
    ]);

    const codex = await runCli(['import', 'codex', '--config', config, '--json'], { HOME: home }, work);
    assert.equal(codex.code, 0, codex.err);
    assert.doesNotMatch(readFileSync(config, 'utf8'), /sk-abcdef/);
    assert.deepEqual(
      (JSON.parse(codex.out) as { servers: { key: string }[] }).servers.map((s) => s.key),
      ['docs', 'remote'],
    );
  });
});

describe('export to the standard mcp.json (SEP-2633) and import back', () => {
  const OURS = `{
  // comments are fine in ours
  "servers": {
    "files": { "type": "stdio", "command": "npx", "args": ["-y", "files-mcp@1.0.0"], "env": { "FILES_TOKEN": "\${input:files-token}", "MODE": "ro" } },
    "github": { "type": "http", "url": "https://api.githubcopilot.com/mcp/", "headers": { "Authorization": "Bearer \${input:github_mcp_pat}" } },
    "legacy": { "type": "sse", "url": "https://old.example.com/sse", "headers": { "X-Key": "\${env:LEGACY_KEY}" } },
  },
  "inputs": [
    { "id": "files-token", "type": "promptString", "password": true, "description": "Files token" },
    { "id": "github_mcp_pat", "type": "promptString", "password": true, "description": "GitHub PAT" },
  ],
}
`;

  test('export: mcpServers, the standard types, placeholders kept; import of the export gives the same servers', async () => {
    const work = tempDir('mcp-carry-export-');
    const ours = join(work, 'ours.json');
    writeFileSync(ours, OURS);
    const standard = join(work, 'mcp.json');
    const exported = await runCli(['export', '--config', ours, '--out', standard], { MCP_INPUT_files_token: 'never-read' }, work);
    assert.equal(exported.code, 0, exported.err);
    const doc = JSON.parse(readFileSync(standard, 'utf8')) as { mcpServers: Record<string, Record<string, unknown>> };
    assert.deepEqual(doc, {
      mcpServers: {
        files: { type: 'stdio', command: 'npx', args: ['-y', 'files-mcp@1.0.0'], env: { FILES_TOKEN: '${input:files-token}', MODE: 'ro' } },
        github: { type: 'streamable-http', url: 'https://api.githubcopilot.com/mcp/', headers: { Authorization: 'Bearer ${input:github_mcp_pat}' } },
        legacy: { type: 'sse', url: 'https://old.example.com/sse', headers: { 'X-Key': '${env:LEGACY_KEY}' } },
      },
    });
    assert.doesNotMatch(readFileSync(standard, 'utf8'), /never-read/);

    const back = join(work, 'back.json');
    const imported = await runCli(['import', standard, '--config', back], {}, work);
    assert.equal(imported.code, 0, imported.err);
    const strip = (text: string, file: string) => parseMcpConfig(text, file).servers.map(({ file: _f, ...rest }) => rest);
    assert.deepEqual(strip(readFileSync(back, 'utf8'), back), strip(OURS, ours));
    const inputs = parseMcpConfig(readFileSync(back, 'utf8'), back).inputs;
    assert.deepEqual(inputs.map((i) => [i.id, i.password]).sort(), [
      ['files-token', true],
      ['github_mcp_pat', true],
    ]);
  });

  test('what the standard cannot carry is said, never silently kept; stdout when no --out', async () => {
    const work = tempDir('mcp-carry-notes-');
    const ours = join(work, 'ours.json');
    writeFileSync(ours, JSON.stringify({ servers: { 'my server': { command: 'node', args: ['s.js'], cwd: '${workspaceFolder}/x', env: { DROP: null } } } }));
    const r = await runCli(['export', '--config', ours], {}, work);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(JSON.parse(r.out), { mcpServers: { 'my-server': { type: 'stdio', command: 'node', args: ['s.js'] } } });
    assert.match(r.err, /"my server" is exported as "my-server"/);
    assert.match(r.err, /cwd .* is not part of the standard format; left out/);
    assert.match(r.err, /env DROP is null/);
  });

  test('import: header secrets keep their scheme; placeholders stay; oauth secrets become inputs', () => {
    const [def] = parseMcpConfig(
      JSON.stringify({
        mcpServers: {
          api: {
            type: 'http',
            url: 'https://x.example/mcp',
            headers: { Authorization: 'Bearer abcdefghijklmnop', 'X-Env': '${env:K}', 'X-Plain': 'hello' },
            oauth: { clientId: 'c', clientSecret: 'shh-very-secret' },
          },
        },
      }),
      '/f',
    ).servers;
    const imported = importEntry(def!);
    assert.deepEqual(imported.entry.headers, { Authorization: 'Bearer ${input:api-authorization}', 'X-Env': '${env:K}', 'X-Plain': 'hello' });
    assert.deepEqual(imported.entry.oauth, { clientId: 'c', clientSecret: '${input:api-client-secret}' });
    assert.deepEqual(imported.secrets, ['header Authorization', 'oauth clientSecret']);
    const exported = exportStandard([def!]);
    assert.match(exported.notes.join('\n'), /oauth clientSecret is not part of the standard format/);
    assert.doesNotMatch(JSON.stringify(exported.document), /shh-very-secret/);
  });
});

test('the repository root is where the fixtures are', () => {
  assert.ok(existsSync(join(repoRoot, 'package.json')));
});

test('registry options from the one option table: --server-version asks for that version, bad values are usage errors', async () => {
  const shown = await runCli(['registry', 'show', 'io.example/weather', '--server-version', '1.4.0', '--registry', registry.url()], {}, dir);
  assert.equal(shown.code, 0, shown.err);
  const missing = await runCli(['registry', 'show', 'io.example/weather', '--server-version', '9.9.9', '--registry', registry.url()], {}, dir);
  assert.equal(missing.code, 4);
  assert.match(missing.err, /was not found in the registry/);
  assert.ok(registry.requests.some((r) => r.endsWith('/versions/9.9.9')));
  const badLimit = await runCli(['registry', 'search', '--limit', '0', '--registry', registry.url()], {}, dir);
  assert.equal(badLimit.code, 1);
  assert.match(badLimit.err, /--limit takes a whole number from 1 to 100 \(got "0"\)/);
  const wrongCommand = await runCli(['tools', '--registry', registry.url(), '--', 'node'], {}, dir);
  assert.match(wrongCommand.err, /tools does not take --registry/);
  const help = await runCli(['registry', '--help'], {}, dir);
  assert.match(help.out, /--server-version V/);
});
