// Servers never outlive the host: a stop that logging cannot break, shutdown() cutting stops and starts
// short, and the `mcp-host` process stopping its servers on Ctrl-C and when its parent dies.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ServerConnection, stopAllStdioServers } from '../../src/core/connection';
import { Logger } from '../../src/core/log';
import { cliArgv, httpServer, isAlive, repoRoot, startHttpFixture, stdioFixture, stdioPidOf, fixtureArgv } from '../fixtures/servers';
import { tempDir } from '../helpers/tempDirs';

/** A log whose sink throws once `closed` is set, as a VS Code output channel does after shutdown began. */
function closingLog() {
  const state = { closed: false, lines: [] as string[] };
  const log = new Logger((level, message) => {
    if (state.closed) throw new Error('Channel has been closed');
    state.lines.push(`[${level}] ${message}`);
  }, 'debug');
  return { state, log };
}

test('shutdown() stops a server that ignores stdin and SIGTERM within 3 × the grace, though every log line throws', async () => {
  const { state, log } = closingLog();
  const c = new ServerConnection(stdioFixture('sigterm-ignoring-server.ts'), { log, stopGraceMs: 5000 });
  await c.start();
  const pid = stdioPidOf(c);
  state.closed = true;
  const started = Date.now();
  await c.shutdown(300);
  const took = Date.now() - started;
  assert.equal(isAlive(pid), false, 'the process is gone');
  assert.ok(took < 300 * 3 + 1500, `shutdown took ${took} ms`);
  assert.equal(c.state.kind, 'stopped');
  await assert.rejects(c.start(), /shutting down/);
});

test('shutdown() hurries a stop already under way (its 5 s grace cut to the shutdown grace)', async () => {
  const { log } = closingLog();
  const c = new ServerConnection(stdioFixture('sigterm-ignoring-server.ts', ['--exit-on-sigterm']), { log, stopGraceMs: 5000 });
  await c.start();
  const pid = stdioPidOf(c);
  const started = Date.now();
  const slowStop = c.stop();
  await new Promise((r) => setTimeout(r, 100));
  await c.shutdown(300);
  await slowStop;
  const took = Date.now() - started;
  assert.equal(isAlive(pid), false);
  assert.ok(took < 2500, `stopped after ${took} ms, not after the 5 s grace`);
});

test('shutdown() during a start that waits on a silent server ends the process and the start at once', async () => {
  const { log } = closingLog();
  const silent = {
    name: 'silent',
    transport: 'stdio' as const,
    command: process.execPath,
    args: ['-e', 'process.on("SIGTERM",()=>{}); process.stdin.resume(); setInterval(()=>{},1000); console.error("pid "+process.pid)'],
    env: {},
    cwd: repoRoot,
  };
  const c = new ServerConnection(silent, { log, connectTimeoutMs: 60_000, stopGraceMs: 5000 });
  const starting = c.start();
  await new Promise((r) => setTimeout(r, 500));
  const pid = stdioPidOf(c);
  const started = Date.now();
  await c.shutdown(300);
  await assert.rejects(starting);
  assert.equal(isAlive(pid), false);
  assert.ok(Date.now() - started < 2500);
});

test('shutdown() closes an HTTP session (DELETE with its id) within the budget', async () => {
  const fixture = await startHttpFixture('era2025-server.ts', '--http');
  let stderr = '';
  fixture.child.stderr!.on('data', (d) => {
    stderr += d;
  });
  const { state, log } = closingLog();
  const c = new ServerConnection(httpServer('sessionful', fixture.url), { log });
  try {
    await c.start();
    state.closed = true;
    const started = Date.now();
    await c.shutdown(300);
    assert.ok(Date.now() - started < 3000, `shutdown took ${Date.now() - started} ms`);
    for (let i = 0; i < 50 && !/DELETE session [\w-]+/.test(stderr); i++) await new Promise((r) => setTimeout(r, 50));
    assert.match(stderr, /DELETE session [0-9a-f-]{36}/, 'the server was told the session ended');
    assert.equal(c.state.kind, 'stopped');
  } finally {
    await fixture.stop();
  }
});

test('stopAllStdioServers() stops every live server process, whoever owns it', async () => {
  const { log } = closingLog();
  const a = new ServerConnection(stdioFixture('sigterm-ignoring-server.ts'), { log });
  const b = new ServerConnection(stdioFixture('sigterm-ignoring-server.ts', ['--exit-on-sigterm']), { log });
  await Promise.all([a.start(), b.start()]);
  const pids = [stdioPidOf(a), stdioPidOf(b)];
  await stopAllStdioServers(200);
  assert.deepEqual(pids.map(isAlive), [false, false]);
  await Promise.all([a.stop(), b.stop()]);
});

/** Runs `mcp-host call hang` against the SIGTERM-ignoring fixture; stderr goes to a file. */
function cliCallingHang(parentScript?: string) {
  const dir = tempDir('mcp-cli-life-');
  const errFile = join(dir, 'stderr.txt');
  const cliArgs = [...cliArgv(), 'call', 'hang', '--verbose', '--', process.execPath, ...fixtureArgv('sigterm-ignoring-server.ts')];
  const readErr = () => {
    try {
      return readFileSync(errFile, 'utf8');
    } catch {
      return '';
    }
  };
  const serverPid = async () => {
    for (let i = 0; i < 300; i++) {
      const m = /\[server stderr\] pid (\d+)/.exec(readErr());
      if (m && /connected over stdio/.test(readErr())) {
        await new Promise((r) => setTimeout(r, 500));
        return Number(m[1]);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`the server never started:\n${readErr()}`);
  };
  const script = parentScript ?? '';
  const child = spawn(process.execPath, ['-e', script, JSON.stringify(cliArgs), errFile], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
  return { child, serverPid, readErr };
}

const SPAWN_CLI = `const fs=require('fs');const {spawn}=require('child_process');const [args,err]=[JSON.parse(process.argv[1]),process.argv[2]];
const fd=fs.openSync(err,'w');const c=spawn(process.execPath,args,{stdio:['ignore',fd,fd]});`;

test('mcp-host on Ctrl-C stops a server that ignores stdin and SIGTERM, and exits 130', async () => {
  const { child, serverPid, readErr } = cliCallingHang(
    `${SPAWN_CLI} process.stdout.write(c.pid+'\\n'); c.on('exit',(code)=>{process.stdout.write('exit '+code+'\\n');});`,
  );
  let out = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  const pid = await serverPid();
  const cliPid = Number(out.split('\n')[0]);
  process.kill(cliPid, 'SIGINT');
  await new Promise((r) => child.on('exit', r));
  assert.match(out, /exit 130/, readErr());
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(isAlive(pid), false, 'the server is gone');
});

test('mcp-host stops its servers when its parent dies', async () => {
  // The parent starts the CLI and is then killed with SIGKILL (no chance to pass anything on).
  const { child, serverPid, readErr } = cliCallingHang(`${SPAWN_CLI} process.stdout.write(c.pid+'\\n'); setInterval(()=>{},1000);`);
  let out = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  const pid = await serverPid();
  const cliPid = Number(out.split('\n')[0]);
  child.kill('SIGKILL');
  const deadline = Date.now() + 8000;
  while ((isAlive(pid) || isAlive(cliPid)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  assert.equal(isAlive(pid), false, `the server is gone\n${readErr()}`);
  assert.equal(isAlive(cliPid), false, 'the CLI ended too');
});
