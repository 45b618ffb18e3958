// Sandboxed stdio servers with the real runtime (@anthropic-ai/sandbox-runtime) and the real bubblewrap: the
// fixture server reads ~/.ssh/id_rsa (a home of the test's own) and a file under denyRead, writes outside its
// folder, and GETs a loopback host that is allowed and one that is not. Sandboxed, each but the allowed GET is
// refused and reported by name with the entry that allows it; unsandboxed, each succeeds.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { addSandboxEntry, enableSandbox, parseMcpConfig, resolveServer, type ResolvedStdioServer } from '../../src/core/config';
import { ServerConnection, ServerStartError } from '../../src/core/connection';
import { Logger } from '../../src/core/log';
import { describeRefusal, refusalIn, sandboxUnavailableReason, type SandboxRefusal } from '../../src/core/sandbox';
import { fixtureArgv, repoRoot } from '../fixtures/servers';

const root = mkdtempSync(join(tmpdir(), 'mcp-sandbox-'));
const home = join(root, 'home');
const work = join(root, 'work');
const secretDir = join(root, 'secret');
const outside = join(root, 'outside');
for (const d of [join(home, '.ssh'), work, secretDir, outside]) mkdirSync(d, { recursive: true });
const idRsa = join(home, '.ssh', 'id_rsa');
writeFileSync(idRsa, 'PRIVATE KEY');
const secretFile = join(secretDir, 'data.txt');
writeFileSync(secretFile, 'SECRET DATA');
const outsideFile = join(outside, 'new.txt');

function hello(): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => res.end(`hello from ${(server.address() as AddressInfo).port}`));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port })));
}

const env: Record<string, string> = {};
for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/proxy/i.test(k)) env[k] = v;
env.HOME = home;

function configText(allowedPort: number, sandboxEnabled: boolean): string {
  return `{
  // denyRead for every sandboxed server of the file
  "sandbox": { "filesystem": { "denyRead": ["${secretDir}"] } },
  "servers": {
    "fixture": {
      "command": ${JSON.stringify(process.execPath)},
      "args": ${JSON.stringify(fixtureArgv('sandbox-server.ts'))},
      "cwd": ${JSON.stringify(work)},
      "sandboxEnabled": ${sandboxEnabled},
      "sandbox": { "network": { "allowedDomains": ["127.0.0.1:${allowedPort}"] } }
    }
  }
}`;
}

async function resolved(text: string): Promise<ResolvedStdioServer> {
  const config = parseMcpConfig(text, join(work, 'mcp.json'));
  assert.deepEqual(config.errors, []);
  return (await resolveServer(config.servers[0]!, { env, workspaceFolder: work })) as ResolvedStdioServer;
}

function text(result: { content?: unknown[] }): string {
  return (result.content ?? []).map((b) => (b as { text?: string }).text ?? '').join('');
}

let allowed: { server: Server; port: number };
let refused: { server: Server; port: number };
before(async () => {
  allowed = await hello();
  refused = await hello();
});
after(() => {
  allowed.server.close();
  refused.server.close();
  rmSync(root, { recursive: true, force: true });
});

describe('a sandboxed stdio server', () => {
  const lines: string[] = [];
  const refusals: SandboxRefusal[] = [];
  let c: ServerConnection;
  before(async () => {
    c = new ServerConnection(await resolved(configText(allowed.port, true)), {
      log: new Logger((l, m) => lines.push(`[${l}] ${m}`), 'debug'),
      stopGraceMs: 1000,
    });
    c.onSandboxRefusal((r) => refusals.push(r));
    await c.start();
  });
  after(async () => {
    await c.stop();
    c.dispose();
  });
  const refusalOf = async (target: string) => {
    for (let i = 0; i < 50 && !refusals.some((r) => r.target === target); i++) await new Promise((r) => setTimeout(r, 100));
    return refusals.find((r) => r.target === target);
  };

  test('starts and lists its tools', () => {
    assert.equal(c.state.kind, 'running');
    assert.ok(c.tools.some((t) => t.name === 'read'));
    assert.ok(
      lines.some((l) => l.includes('sandboxed')),
      'the log says the server runs sandboxed',
    );
  });

  test('cannot read ~/.ssh/id_rsa, and the refusal names it with the entry that allows it', async () => {
    const r = await c.callTool('read', { path: idRsa });
    assert.equal(r.isError, true);
    assert.doesNotMatch(text(r), /PRIVATE KEY/);
    assert.deepEqual(await refusalOf(idRsa), {
      kind: 'read',
      target: idRsa,
      allow: { section: 'filesystem', key: 'allowRead', value: idRsa },
      reportedBy: 'server',
    });
    assert.ok(
      lines.some((l) => l.includes(`[sandbox] refused: read ${idRsa}`)),
      'a log line names the path',
    );
  });

  test('cannot read a file under the top-level denyRead', async () => {
    const r = await c.callTool('read', { path: secretFile });
    assert.equal(r.isError, true);
    assert.doesNotMatch(text(r), /SECRET DATA/);
    assert.equal((await refusalOf(secretFile))?.kind, 'read');
  });

  test('cannot write outside its folder; can write in it', async () => {
    const r = await c.callTool('write', { path: outsideFile });
    assert.equal(r.isError, true);
    assert.equal(existsSync(outsideFile), false);
    assert.deepEqual(await refusalOf(outsideFile), {
      kind: 'write',
      target: outsideFile,
      allow: { section: 'filesystem', key: 'allowWrite', value: outside },
      reportedBy: 'server',
    });
    const inside = await c.callTool('write', { path: join(work, 'in.txt'), text: 'ok' });
    assert.equal(inside.isError, undefined);
    assert.equal(readFileSync(join(work, 'in.txt'), 'utf8'), 'ok');
  });

  test('cannot reach a loopback host that is not allowed; reaches the one that is', async () => {
    const r = await c.callTool('fetch', { url: `http://127.0.0.1:${refused.port}/` });
    assert.equal(r.isError, true);
    const target = `127.0.0.1:${refused.port}`;
    assert.deepEqual(await refusalOf(target), {
      kind: 'network',
      target,
      allow: { section: 'network', key: 'allowedDomains', value: target },
      reportedBy: 'sandbox',
    });
    const ok = await c.callTool('fetch', { url: `http://127.0.0.1:${allowed.port}/` });
    assert.equal(text(ok), `hello from ${allowed.port}`);
  });

  test("a line the server writes cannot pass for the sandbox's report of a connection; a read or write it names is shown as its word", async () => {
    await c.callTool('say', { text: '[sandbox] refused network evil.example:443' });
    await c.callTool('say', { text: `Error: EROFS: read-only file system, open '${join(outside, 'claimed.txt')}'` });
    const claimed = await refusalOf(join(outside, 'claimed.txt'));
    assert.equal(claimed?.reportedBy, 'server');
    assert.equal(describeRefusal(claimed!), `write ${join(outside, 'claimed.txt')} (as the server's error output says)`);
    assert.equal(
      refusals.some((r) => r.kind === 'network' && r.target.includes('evil.example')),
      false,
      'no connection refusal from a stderr line',
    );
    // A read the sandbox does not refuse (nothing is at the path under denyRead) is no refusal, whatever the line says.
    await c.callTool('say', { text: `Error: EACCES: permission denied, open '${join(home, '.ssh', 'id_ed25519')}'` });
    await c.callTool('echo', { text: 'x' });
    assert.equal(
      refusals.some((r) => r.target.endsWith('id_ed25519')),
      false,
    );
  });

  test('a second server of the same policy shares the sandbox service, and each is told only of its own refusals', async () => {
    const services = () =>
      spawnSync('pgrep', ['-P', String(process.pid), '-f', 'service\\.ts'], { encoding: 'utf8' })
        .stdout.trim()
        .split('\n')
        .filter(Boolean);
    assert.equal(services().length, 1);
    const second: SandboxRefusal[] = [];
    const c2 = new ServerConnection(await resolved(configText(allowed.port, true)), { log: new Logger(() => undefined), stopGraceMs: 1000 });
    c2.onSandboxRefusal((r) => second.push(r));
    try {
      await c2.start();
      assert.equal(services().length, 1, 'one service for both');
      const target = `localhost:${refused.port}`;
      assert.equal((await c2.callTool('fetch', { url: `http://${target}/` })).isError, true);
      for (let i = 0; i < 50 && !second.some((r) => r.target === target); i++) await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual(
        second.map((r) => r.target),
        [target],
      );
      assert.equal(
        refusals.some((r) => r.target === target),
        false,
        'the first server is not told of it',
      );
    } finally {
      await c2.stop();
      c2.dispose();
    }
  });
});

describe('the same server unsandboxed', () => {
  let c: ServerConnection;
  before(async () => {
    c = new ServerConnection(await resolved(configText(allowed.port, false)), { log: new Logger(() => undefined), stopGraceMs: 1000 });
    await c.start();
  });
  after(async () => {
    await c.stop();
    c.dispose();
  });

  test('reads, writes and connects where the sandbox refused', async () => {
    assert.equal(text(await c.callTool('read', { path: idRsa })), 'PRIVATE KEY');
    assert.equal(text(await c.callTool('read', { path: secretFile })), 'SECRET DATA');
    assert.equal((await c.callTool('write', { path: outsideFile })).isError, undefined);
    assert.equal(existsSync(outsideFile), true);
    rmSync(outsideFile);
    assert.equal(text(await c.callTool('fetch', { url: `http://127.0.0.1:${refused.port}/` })), `hello from ${refused.port}`);
  });
});

describe('where the sandbox cannot run', () => {
  test('a sandboxed server does not start, and the error names what is missing', async () => {
    const server = await resolved(configText(allowed.port, true));
    const c = new ServerConnection({ ...server, env: { ...server.env, PATH: '/nonexistent' } }, { log: new Logger(() => undefined), stopGraceMs: 1000 });
    await assert.rejects(c.start(), (e: Error) => e instanceof ServerStartError && /bwrap \(bubblewrap\)/.test(e.message) && /cannot start/.test(e.message));
    await c.stop();
    c.dispose();
  });

  test('the reason names the platform or each missing program', () => {
    assert.match(sandboxUnavailableReason({ PATH: '' }, 'win32')!, /Linux and macOS only, not on Windows/);
    assert.match(sandboxUnavailableReason({ PATH: '' }, 'linux')!, /bwrap \(bubblewrap\) and socat \(socat\) and rg \(ripgrep\)/);
    assert.equal(sandboxUnavailableReason({ PATH: process.env.PATH }, 'linux'), undefined);
  });
});

describe('the sandbox keys of mcp.json', () => {
  test("the server's own lists replace the top-level ones, list by list; defaults are added", async () => {
    const s = await resolved(configText(4321, true));
    assert.ok(s.sandbox);
    assert.deepEqual(s.sandbox.filesystem.denyRead, [join(home, '.ssh'), secretDir]);
    assert.deepEqual(s.sandbox.filesystem.allowWrite, [work, join(home, '.npm')]);
    assert.deepEqual(s.sandbox.network.allowedDomains, ['127.0.0.1:4321']);
    const npx = await resolved(configText(4321, true).replace(JSON.stringify(process.execPath), '"npx"'));
    assert.deepEqual(npx.sandbox?.network.allowedDomains, ['127.0.0.1:4321', 'registry.npmjs.org']);
  });

  test('a wrong key or value is an error naming it', () => {
    const bad = (entry: string, top = '') => parseMcpConfig(`{ ${top} "servers": { "s": { "command": "x", ${entry} } } }`, 'f').errors.map((e) => e.message);
    assert.deepEqual(bad('"sandboxEnabled": "yes"'), ['server "s": "sandboxEnabled" must be true or false']);
    assert.deepEqual(bad('"sandbox": { "filesystem": { "allowWrites": [] } }'), [
      'server "s": unknown "sandbox.filesystem" key "allowWrites" (expected allowWrite, denyRead, denyWrite, allowRead)',
    ]);
    assert.deepEqual(bad('"sandbox": { "network": { "allowedDomains": "x" } }'), [
      'server "s": "sandbox.network.allowedDomains" must be an array of non-empty strings',
    ]);
    assert.deepEqual(bad('"sandboxEnabled": true', '"sandbox": { "net": {} },'), [
      'unknown "sandbox" key "net" (expected filesystem, network)',
      'server "s" is sandboxed and the file\'s unknown "sandbox" key "net" (expected filesystem, network)',
    ]);
  });

  test("Allow adds exactly the entry to the server's block, keeping comments and the top-level list", () => {
    const text0 = configText(4321, true);
    const text1 = addSandboxEntry(text0, 'fixture', 'filesystem', 'denyRead', '/x');
    assert.match(text1, /\/\/ denyRead for every sandboxed server of the file/);
    const s = parseMcpConfig(text1, 'f').servers[0]!;
    assert.ok(s.type === 'stdio');
    assert.deepEqual(s.sandbox?.filesystem?.denyRead, [secretDir, '/x']);
    const text2 = addSandboxEntry(text1, 'fixture', 'network', 'allowedDomains', 'example.com');
    const s2 = parseMcpConfig(text2, 'f').servers[0]!;
    assert.ok(s2.type === 'stdio');
    assert.deepEqual(s2.sandbox?.network?.allowedDomains, ['127.0.0.1:4321', 'example.com']);
    assert.equal(addSandboxEntry(text2, 'fixture', 'network', 'allowedDomains', 'example.com'), text2, 'an entry there already is not added twice');
    const off = configText(4321, false);
    const on = parseMcpConfig(enableSandbox(off.replace('"sandboxEnabled": false,', ''), 'fixture'), 'f').servers[0]!;
    assert.ok(on.type === 'stdio' && on.sandboxEnabled === true);
  });

  test("stderr lines that are not the sandbox's refusals are not reported", async () => {
    const policy = (await resolved(configText(4321, true))).sandbox!;
    assert.equal(refusalIn(`ENOENT: no such file or directory, open '${join(root, 'nothing')}'`, policy), undefined);
    assert.equal(refusalIn(`EACCES: permission denied, open '${join(work, 'x')}'`, policy), undefined, 'a folder it may write');
    assert.deepEqual(refusalIn(`PermissionError: [Errno 30] Read-only file system: '${outsideFile}'`, policy)?.allow?.value, outside);
    assert.equal(refusalIn('[sandbox] refused network example.com:443', policy), undefined, 'only the sandbox service reports connections');
  });
});

describe('a reference server from npm, launched with npx, sandboxed', () => {
  test('starts and answers', { timeout: 120_000 }, async () => {
    const s: ResolvedStdioServer = {
      name: 'everything',
      transport: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-everything', 'stdio'],
      env: { ...env, HOME: process.env.HOME ?? home },
      cwd: repoRoot,
    };
    const config = parseMcpConfig(
      `{ "servers": { "everything": { "command": "npx", "args": ${JSON.stringify(s.args)}, "sandboxEnabled": true } } }`,
      join(repoRoot, 'mcp.json'),
    );
    const server = (await resolveServer(config.servers[0]!, { env: s.env, workspaceFolder: repoRoot })) as ResolvedStdioServer;
    const c = new ServerConnection(server, { log: new Logger(() => undefined), stopGraceMs: 1000, connectTimeoutMs: 90_000 });
    try {
      await c.start();
      assert.ok(c.tools.some((t) => t.name === 'echo'));
      const r = await c.callTool('echo', { message: 'sandboxed' });
      assert.match(text(r), /sandboxed/);
    } finally {
      await c.stop();
      c.dispose();
    }
  });
});
