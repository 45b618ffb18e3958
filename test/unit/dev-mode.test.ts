// Dev mode's core: the `dev` block of an mcp.json entry, the debugger's command lines (and node's inspector port,
// read from a real node's stderr), the debounced restart, and a call in flight when its server is restarted.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { describe, test } from 'node:test';
import { parseMcpConfig, type ResolvedStdioServer } from '../../src/core/config';
import { ServerConnection } from '../../src/core/connection';
import { DEV_WATCH_MAX_CHARS, DEV_WATCH_MAX_GLOBS, debugLaunch, inspectorPortIn, RestartScheduler, watchedBy } from '../../src/core/dev';
import { CallCancelledError, ServerStartError, ServerStoppedError } from '../../src/core/errors';
import { Logger } from '../../src/core/log';
import { stdioFixture } from '../fixtures/servers';

function parseServer(entry: unknown) {
  return parseMcpConfig(JSON.stringify({ servers: { s: entry } }), '/w/.vscode/mcp.json');
}

describe('the dev block of a server entry', () => {
  test('watch as a glob or a list, debug for node or debugpy, kept on the definition', () => {
    const one = parseServer({ command: 'node', args: ['s.js'], dev: { watch: 'src/**/*.ts', debug: { type: 'node' } } });
    assert.deepEqual(one.errors, []);
    assert.deepEqual(one.servers[0]!.dev, { watch: ['src/**/*.ts'], debug: { type: 'node' } });
    const list = parseServer({
      command: 'python3',
      args: ['s.py'],
      dev: { watch: ['**/*.py', '!tests/**'], debug: { type: 'debugpy', debugpyPath: '/opt/debugpy' } },
    });
    assert.deepEqual(list.servers[0]!.dev, { watch: ['**/*.py', '!tests/**'], debug: { type: 'debugpy', debugpyPath: '/opt/debugpy' } });
    const http = parseServer({ url: 'http://127.0.0.1:3000/mcp', dev: { watch: 'src/**' } });
    assert.deepEqual(http.servers[0]!.dev, { watch: ['src/**'] });
    assert.equal(parseServer({ command: 'node' }).servers[0]!.dev, undefined);
    // An empty block is dev mode still (started with the window, traffic shown).
    assert.deepEqual(parseServer({ command: 'node', dev: {} }).servers[0]!.dev, {});
  });

  test('a bad dev block skips the server with a message naming the key and the limit', () => {
    const cases: Array<[unknown, RegExp]> = [
      [true, /server "s": "dev" must be an object/],
      [{ watch: 3 }, /"dev.watch" must be a glob or a list of globs/],
      [{ watch: ['a', ''] }, /"dev.watch" must be a glob or a list of globs/],
      [
        { watch: Array.from({ length: DEV_WATCH_MAX_GLOBS + 1 }, (_, i) => `${i}/**`) },
        new RegExp(`has ${DEV_WATCH_MAX_GLOBS + 1} globs; the limit is ${DEV_WATCH_MAX_GLOBS}`),
      ],
      [{ watch: 'a'.repeat(DEV_WATCH_MAX_CHARS + 1) }, new RegExp(`has ${DEV_WATCH_MAX_CHARS + 1} characters; the limit is ${DEV_WATCH_MAX_CHARS}`)],
      [{ watch: ['!dist/**'] }, /excludes everything it names/],
      [{ debug: { type: 'gdb' } }, /"dev.debug" must be \{ "type": "node" \} or \{ "type": "debugpy" \}/],
      [{ debug: { type: 'node', debugpyPath: 'x' } }, /unknown "dev.debug" key "debugpyPath"/],
      [{ watch: 'a', reload: true }, /unknown "dev" key "reload"/],
    ];
    for (const [dev, message] of cases) {
      const parsed = parseServer({ command: 'node', dev });
      assert.equal(parsed.servers.length, 0, JSON.stringify(dev));
      assert.match(parsed.errors[0]!.message, message);
      assert.equal(parsed.errors[0]!.server, 's');
    }
    const http = parseServer({ url: 'http://127.0.0.1/mcp', dev: { debug: { type: 'node' } } });
    assert.match(http.errors[0]!.message, /"dev.debug" applies to stdio servers only/);
  });

  test('a changed file is watched when it matches an include and no exclude', () => {
    const globs = ['src/**/*.ts', 'package.json', '!src/**/*.test.ts'];
    assert.equal(watchedBy('src/tools/echo.ts', globs), true);
    assert.equal(watchedBy('src\\tools\\echo.ts', globs), true);
    assert.equal(watchedBy('package.json', globs), true);
    assert.equal(watchedBy('src/tools/echo.test.ts', globs), false);
    assert.equal(watchedBy('dist/echo.js', globs), false);
    assert.equal(watchedBy('src/.hidden/x.ts', globs), true);
  });
});

describe('the debugger command lines', () => {
  const server: ResolvedStdioServer = { name: 's', transport: 'stdio', command: 'node', args: ['server.js', '--x'], env: {} };

  test('node is paused on an inspector port of its choosing, on loopback', () => {
    assert.deepEqual(debugLaunch(server, { type: 'node' }).args, ['--inspect-brk=127.0.0.1:0', 'server.js', '--x']);
    assert.deepEqual(debugLaunch({ ...server, command: '/usr/local/bin/node22' }, { type: 'node' }).command, '/usr/local/bin/node22');
    assert.throws(
      () => debugLaunch({ ...server, command: 'npx' }, { type: 'node' }),
      (e: Error) => e instanceof ServerStartError && /needs the server started with the node executable \("command": "node"\), not "npx"/.test(e.message),
    );
  });

  test('debugpy connects to the debugger and waits for it', () => {
    const python = { ...server, command: 'python3', args: ['server.py'] };
    assert.deepEqual(debugLaunch(python, { type: 'debugpy' }, 5678).args, ['-m', 'debugpy', '--connect', '127.0.0.1:5678', '--wait-for-client', 'server.py']);
    const viaPath = debugLaunch(python, { type: 'debugpy', debugpyPath: '/venv/bin/debugpy' }, 5678);
    assert.equal(viaPath.command, '/venv/bin/debugpy');
    assert.deepEqual(viaPath.args, ['--connect', '127.0.0.1:5678', '--wait-for-client', 'server.py']);
    assert.throws(() => debugLaunch({ ...python, command: 'uv' }, { type: 'debugpy' }, 5678), /needs the server started with python/);
  });

  test("node's inspector port is read from the line node prints on stderr", async () => {
    const child = spawn(process.execPath, ['--inspect=127.0.0.1:0', '-e', 'setTimeout(() => {}, 20000)'], { stdio: ['ignore', 'ignore', 'pipe'] });
    try {
      const port = await new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no inspector line within 10 s')), 10_000);
        let seen = '';
        child.stderr!.setEncoding('utf8');
        child.stderr!.on('data', (text: string) => {
          seen += text;
          for (const line of seen.split('\n')) {
            const found = inspectorPortIn(line);
            if (found !== undefined) {
              clearTimeout(timer);
              resolve(found);
            }
          }
        });
      });
      // The port is node's inspector: it answers its version on /json/version.
      const version = (await (await fetch(`http://127.0.0.1:${port}/json/version`, { signal: AbortSignal.timeout(5000) })).json()) as { Browser?: string };
      assert.match(version.Browser ?? '', /^node\.js\//);
    } finally {
      child.kill('SIGKILL');
    }
    assert.equal(inspectorPortIn('Debugger listening on ws://[::1]:9229/0f2c'), 9229);
    assert.equal(inspectorPortIn('Debugger attached.'), undefined);
    assert.equal(inspectorPortIn('Debugger listening on ws://127.0.0.1:99999/x'), undefined);
  });
});

describe('the debounced restart', () => {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  test('a burst of changes makes one restart, naming the files changed', async () => {
    const restarts: string[][] = [];
    const scheduler = new RestartScheduler(async (changed) => {
      restarts.push([...changed]);
    }, 400);
    for (const f of ['a.ts', 'b.ts', 'a.ts', 'c.ts', 'd.ts']) {
      scheduler.changedFile(f);
      await sleep(5);
    }
    assert.equal(restarts.length, 0, 'not before the burst is over');
    await scheduler.settled();
    assert.deepEqual(restarts, [['a.ts', 'b.ts', 'c.ts']], 'once, the first three files named');
    scheduler.changedFile('e.ts');
    await scheduler.settled();
    assert.deepEqual(restarts[1], ['e.ts']);
    scheduler.dispose();
  });

  test('a change during a restart makes one more after it, never two at once', async () => {
    let running = 0;
    let most = 0;
    const restarts: string[][] = [];
    const scheduler: RestartScheduler = new RestartScheduler(async (changed) => {
      running += 1;
      most = Math.max(most, running);
      restarts.push([...changed]);
      if (restarts.length === 1) {
        // two changes while this restart is under way, each after the debounce ran out
        scheduler.changedFile('b.ts');
        await sleep(150);
        scheduler.changedFile('c.ts');
        await sleep(150);
      }
      running -= 1;
    }, 50);
    scheduler.changedFile('a.ts');
    await scheduler.settled();
    assert.equal(most, 1);
    assert.deepEqual(restarts, [['a.ts'], ['b.ts', 'c.ts']]);
    scheduler.dispose();
  });

  test('nothing restarts once disposed', async () => {
    let restarts = 0;
    const scheduler = new RestartScheduler(async () => {
      restarts += 1;
    }, 50);
    scheduler.changedFile('a.ts');
    scheduler.dispose();
    await sleep(150);
    assert.equal(restarts, 0);
  });
});

test('a call in flight when the host restarts its server ends saying so', async () => {
  const lines: string[] = [];
  const c = new ServerConnection(stdioFixture('era2025-server.ts'), { log: new Logger((l, m) => lines.push(`[${l}] ${m}`), 'debug'), stopGraceMs: 1000 });
  try {
    await c.start();
    const call = c.callTool('slow', { steps: 100, delayMs: 100 });
    await new Promise((r) => setTimeout(r, 300));
    await c.stop('the server was restarted: src/server.ts changed (dev.watch)');
    await assert.rejects(
      call,
      (e: Error) => e instanceof ServerStoppedError && e.message === 'tool "slow" ended: the server was restarted: src/server.ts changed (dev.watch)',
    );
    // The next start forgets the reason: a plain stop cancels.
    await c.start();
    const second = c.callTool('slow', { steps: 100, delayMs: 100 });
    await new Promise((r) => setTimeout(r, 300));
    await c.stop();
    await assert.rejects(second, (e: Error) => e instanceof CallCancelledError);
  } finally {
    await c.stop();
    c.dispose();
  }
});
