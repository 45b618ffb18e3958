// ServerConnection over stdio against real servers: the era-2025 fixture (sdk 1.32.2), the era-2026 fixture
// (@modelcontextprotocol/server 2.4.0), server-everything, and hostile fixtures.
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { parseMcpConfig, resolveServer, type ResolvedServer } from '../../src/core/config';
import {
  CallCancelledError,
  CallTimeoutError,
  eraCacheKey,
  InMemoryEraCache,
  LEGACY_ERA_MAX_AGE_MS,
  NotRunningError,
  ServerConnection,
  ServerCrashedError,
  ServerRequestError,
  ServerStartError,
  type ConnectionOptions,
  type ConnectionState,
  type ElicitationHandler,
  type ElicitRequestParamsLoose,
} from '../../src/core/connection';
import { Logger, SECRET_MASK, type LogLevel } from '../../src/core/log';
import { everythingStdio, isAlive, repoRoot, startEverythingHttp, stdioFixture, fixtureArgv } from '../fixtures/servers';

function recordingLog(level: LogLevel = 'debug') {
  const lines: string[] = [];
  return { lines, log: new Logger((l, m) => lines.push(`[${l}] ${m}`), level) };
}

function connection(server: ResolvedServer = stdioFixture('era2025-server.ts'), options: Partial<ConnectionOptions> = {}, level: LogLevel = 'debug') {
  const { lines, log } = recordingLog(level);
  const c = new ServerConnection(server, { log, stopGraceMs: 1000, ...options });
  return { c, lines };
}

function text(result: { content?: unknown[] }): string {
  return (result.content ?? []).map((b) => (b as { text?: string }).text ?? '').join('');
}

const fileSchemaOf = (p: ElicitRequestParamsLoose) =>
  (p.requestedSchema as { properties: Record<string, Record<string, unknown>> }).properties.photo!['x-mcp-file'];

describe('a 2025-era server over stdio', () => {
  const seen: ElicitRequestParamsLoose[] = [];
  let elicitDelayMs = 0;
  const elicitation: ElicitationHandler = async (params) => {
    seen.push(params);
    if (elicitDelayMs) await new Promise((r) => setTimeout(r, elicitDelayMs));
    if (params.mode === 'url') return { action: 'accept' };
    return { action: 'accept', content: { photo: 'data:image/png;base64,iVBORw0KGgo=' } };
  };
  const states: ConnectionState['kind'][] = [];
  let roots = [{ uri: 'file:///work/space', name: 'space' }];
  const { c, lines } = connection(stdioFixture('era2025-server.ts'), { elicitation, roots: () => roots });
  c.onDidChangeState((s) => states.push(s.kind));
  before(() => c.start());
  after(() => c.stop());

  test('connects in the legacy era and lists the tools right away', () => {
    assert.deepEqual(c.state, { kind: 'running', era: 'legacy', protocolVersion: '2025-11-25' });
    assert.deepEqual(states, ['starting', 'running']);
    assert.equal(c.tools.length, 13, 'every page of tools/list was read');
    assert.ok(c.tools.some((t) => t.name === 'describe_photo'));
    assert.equal(c.serverInfo?.name, 'era2025-fixture');
  });

  test('calls a tool and returns its result', async () => {
    assert.equal(text(await c.callTool('echo', { text: 'hello' })), 'hello');
    const sum = await c.callTool('add', { a: 2, b: 3 });
    assert.deepEqual(sum.structuredContent, { sum: 5 });
  });

  test('a tool that reports an error returns isError rather than throwing', async () => {
    const r = await c.callTool('fail', {});
    assert.equal(r.isError, true);
  });

  test('structured content that breaks the output schema is refused', async () => {
    await assert.rejects(c.callTool('bad_output', {}), (e: unknown) => e instanceof ServerRequestError && /output schema/.test(e.message));
  });

  test('reports progress while a tool runs', async () => {
    const progress: number[] = [];
    await c.callTool('slow', { steps: 3, delayMs: 20 }, { onProgress: (p) => progress.push(p.progress) });
    assert.deepEqual(progress, [1, 2, 3]);
  });

  test('an aborted call rejects with CallCancelledError at once', async () => {
    const abort = new AbortController();
    const started = Date.now();
    const call = c.callTool('slow', { steps: 50, delayMs: 100 }, { signal: abort.signal });
    setTimeout(() => abort.abort(), 50);
    await assert.rejects(call, CallCancelledError);
    assert.ok(Date.now() - started < 3000, 'the call did not run to its end (5 s)');
  });

  test('a call that gets no answer in time fails with CallTimeoutError', async () => {
    await assert.rejects(
      c.callTool('slow', { steps: 1, delayMs: 1000 }, { timeoutMs: 100 }),
      (e: unknown) => e instanceof CallTimeoutError && /no answer within 100 ms/.test(e.message),
    );
  });

  test('time the user spends answering an elicitation does not count against the call timeout', async () => {
    elicitDelayMs = 1500;
    try {
      const r = await c.callTool('ask_file', {}, { timeoutMs: 600 });
      assert.match(text(r), /accept/);
    } finally {
      elicitDelayMs = 0;
    }
  });

  test('x-mcp-file survives in an elicitation requestedSchema', async () => {
    seen.length = 0;
    const r = await c.callTool('ask_file', {});
    assert.deepEqual(fileSchemaOf(seen[0]!), { accept: ['image/png'], maxSize: 1000 });
    assert.deepEqual(JSON.parse(text(r)), { action: 'accept', content: { photo: 'data:image/png;base64,iVBORw0KGgo=' } });
  });

  test('an elicitation replayed with the same elicitationId is answered once, and its completion is announced', async () => {
    seen.length = 0;
    const completed: string[] = [];
    const sub = c.onDidCompleteElicitation((id) => completed.push(id));
    const r = await c.callTool('ask_twice', {});
    sub.dispose();
    assert.equal(seen.length, 1);
    assert.deepEqual(JSON.parse(text(r)), [{ action: 'accept' }, { action: 'accept' }]);
    assert.deepEqual(completed, ['e-1']);
  });

  test('a binary-mode elicitation is refused when the host did not declare it', async () => {
    const r = await c.callTool('ask_binary', {}).catch((e: Error) => e);
    assert.ok(r instanceof Error || r.isError, 'the server saw a refusal');
    assert.ok(!seen.some((p) => p.mode === 'binary'));
  });

  test('offers the workspace folders as roots and tells the server when they change', async () => {
    const r = JSON.parse(text(await c.callTool('roots', {})));
    assert.deepEqual(r.roots, [{ uri: 'file:///work/space', name: 'space' }]);
    assert.equal(r.rootsChanges, 0);
    roots = [...roots, { uri: 'file:///work/other', name: 'other' }];
    await c.notifyRootsChanged();
    const again = JSON.parse(text(await c.callTool('roots', {})));
    assert.equal(again.roots.length, 2);
    assert.equal(again.rootsChanges, 1);
  });

  test('cancelling a call tells the server (notifications/cancelled), which stops; progress messages arrive on the way', async () => {
    const abort = new AbortController();
    const progress: { progress: number; total?: number; message?: string }[] = [];
    const call = c.callTool(
      'slow',
      { steps: 40, delayMs: 50 },
      {
        signal: abort.signal,
        onProgress: (p) => {
          progress.push(p);
          if (progress.length === 2) abort.abort();
        },
      },
    );
    await assert.rejects(call, (e: unknown) => e instanceof CallCancelledError);
    assert.deepEqual(
      progress.map((p) => [p.progress, p.total, p.message]),
      [
        [1, 40, 'step 1'],
        [2, 40, 'step 2'],
      ],
    );
    for (let i = 0; i < 50 && !lines.some((l) => /slow: stopped at step \d+, the client cancelled/.test(l)); i++) await new Promise((r) => setTimeout(r, 20));
    assert.ok(
      lines.some((l) => /slow: stopped at step \d+, the client cancelled \(reason: Cancelled by the user\)/.test(l)),
      `the server saw the cancellation, with a reason meant for people: ${lines.filter((l) => l.includes('slow:')).join('; ')}`,
    );
    assert.equal(c.state.kind, 'running');
  });

  test('progress that arrives after the result is ignored quietly', async () => {
    const progress: unknown[] = [];
    assert.equal(text(await c.callTool('late_progress', {}, { onProgress: (p) => progress.push(p) })), 'answered');
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(progress, []);
    assert.equal(c.state.kind, 'running');
    assert.deepEqual(
      lines.filter((l) => /^\[(warn|error)\]/.test(l) && /progress/i.test(l)),
      [],
    );
    assert.equal(text(await c.callTool('echo', { text: 'still fine' })), 'still fine');
  });

  test('a call in flight when the server is stopped is cancelled, not reported as a crash', async () => {
    const other = connection();
    await other.c.start();
    const call = other.c.callTool('slow', { steps: 20, delayMs: 100 });
    await new Promise((r) => setTimeout(r, 100));
    await other.c.stop();
    await assert.rejects(call, (e: unknown) => e instanceof CallCancelledError && /the server was stopped/.test(e.message));
    assert.deepEqual(other.c.state, { kind: 'stopped' });
  });

  test('a request made while the server is stopping says so, not "not running (running)"', async () => {
    const other = connection();
    await other.c.start();
    const stopped = other.c.stop();
    // the stop has begun (the server process takes longer than this to end), the state is still 'running'
    await new Promise((r) => setImmediate(r));
    assert.equal(other.c.state.kind, 'running');
    await assert.rejects(
      other.c.callTool('echo', { text: 'late' }),
      (e: unknown) => e instanceof NotRunningError && e.message === 'server "era2025-server" is not running (stopping)',
    );
    await stopped;
    await assert.rejects(
      other.c.callTool('echo', { text: 'later' }),
      (e: unknown) => e instanceof NotRunningError && /is not running \(stopped\)$/.test(e.message),
    );
  });

  test('lists tools again when the server says the list changed', async () => {
    const changed = new Promise<void>((resolve) => {
      const sub = c.onDidChangeLists(() => {
        if (c.tools.some((t) => t.name === 'extra')) {
          sub.dispose();
          resolve();
        }
      });
    });
    await c.callTool('add_tool', {});
    // Right after list_changed the output validators must still be in force.
    await assert.rejects(c.callTool('bad_output', {}), /output schema/);
    await changed;
    assert.equal(text(await c.callTool('extra', {})), 'extra');
  });

  test('stderr and the lifecycle go to the connection log', () => {
    assert.ok(lines.some((l) => l.includes('connected over stdio')));
    assert.ok(lines.some((l) => l.includes('elicitation answered: accept')));
  });
});

test('SEP-1306: a binary-mode elicitation reaches the handler with its endpoints and progress, and its answer goes back verbatim', async () => {
  let got: { params: ElicitRequestParamsLoose; token?: string | number; hasProgress: boolean } | undefined;
  const { c, lines } = connection(
    stdioFixture('era2025-server.ts'),
    {
      capabilities: { binaryElicitation: { maxFileSize: 1024 }, fileInputs: true },
      elicitation: async (params, ctx) => {
        got = { params, token: ctx.progressToken, hasProgress: typeof ctx.sendProgress === 'function' };
        await ctx.sendProgress?.(10, 20, 'Uploading a.png...');
        return { action: 'accept', content: { imageFile: { name: 'a.png', size: 20, mimeType: 'image/png', uploadId: 'u-1' } } };
      },
    },
    'trace',
  );
  await c.start();
  try {
    const r = await c.callTool('ask_binary', {});
    assert.equal(got?.params.mode, 'binary');
    assert.deepEqual(got?.params.uploadEndpoints, { imageFile: { url: 'http://127.0.0.1:1/upload', method: 'POST', uploadId: 'u-1' } });
    assert.equal((got?.params.requestedSchema as { properties: { imageFile: { type: string } } }).properties.imageFile.type, 'file');
    assert.equal(got?.token, 'up-1');
    assert.equal(got?.hasProgress, true);
    assert.deepEqual(JSON.parse(text(r)), {
      action: 'accept',
      content: { imageFile: { name: 'a.png', size: 20, mimeType: 'image/png', uploadId: 'u-1' } },
    });
    const initialize = lines.find((l) => l.includes('"method":"initialize"')) ?? '';
    assert.match(initialize, /"elicitation":\{"form":\{\},"url":\{\},"binary":\{"maxFileSize":1024,"supportedMimeTypes":\["\*\/\*"\]\}\}/);
    assert.match(initialize, /"fileInputs":\{\}/);
  } finally {
    await c.stop();
  }
});

describe('a 2026-era server over stdio', () => {
  const seen: ElicitRequestParamsLoose[] = [];
  const cache = new InMemoryEraCache();
  const { c } = connection(stdioFixture('era2026-server.ts'), {
    eraCache: cache,
    inputRequired: { maxRounds: 3 },
    elicitation: async (params) => {
      seen.push(params);
      return { action: 'accept', content: { photo: 'data:image/png;base64,iVBORw0KGgo=', ok: true } };
    },
  });
  before(() => c.start());
  after(() => c.stop());

  test('connects in the modern era (2026-07-28)', () => {
    assert.deepEqual(c.state, { kind: 'running', era: 'modern', protocolVersion: '2026-07-28' });
    assert.ok(c.tools.some((t) => t.name === 'ask_file'));
  });

  test('calls a tool and validates its structured content', async () => {
    assert.equal(text(await c.callTool('echo', { text: 'modern' })), 'modern');
    assert.deepEqual((await c.callTool('add', { a: 1, b: 1 })).structuredContent, { sum: 2 });
  });

  test('x-mcp-file survives in an input_required elicitation (MRTR)', async () => {
    seen.length = 0;
    const r = await c.callTool('ask_file', {});
    assert.deepEqual(fileSchemaOf(seen[0]!), { accept: ['image/png'], maxSize: 1000 });
    assert.match(text(r), /data:image\/png;base64,iVBORw0KGgo=/);
  });

  test('a server that keeps asking for input is cut off after the configured number of rounds', async () => {
    await assert.rejects(
      c.callTool('ask_forever', {}),
      (e: unknown) => e instanceof ServerRequestError && /the server kept asking for input \(3 rounds\)/.test(e.message),
    );
  });

  test('reports progress', async () => {
    const progress: number[] = [];
    await c.callTool('slow', { steps: 3, delayMs: 20 }, { onProgress: (p) => progress.push(p.progress) });
    assert.ok(progress.length >= 1);
  });

  test('the negotiated era is remembered and the next connect skips the probe', async () => {
    const prior = cache.get([...(cache as unknown as { entries: Map<string, unknown> }).entries.keys()][0]!);
    assert.equal(prior?.kind, 'modern');
    const { lines, log } = recordingLog('trace');
    const again = new ServerConnection(stdioFixture('era2026-server.ts'), { log, eraCache: cache });
    await again.start();
    try {
      assert.equal(again.state.kind === 'running' && again.state.era, 'modern');
      const probes = lines.filter((l) => l.includes('server/discover'));
      assert.deepEqual(probes, [], 'no server/discover probe was sent');
      assert.equal(text(await again.callTool('echo', { text: 'cached' })), 'cached');
    } finally {
      await again.stop();
    }
  });
});

test('a remembered era that is no longer true is dropped, and the server is probed again', async () => {
  const cache = new InMemoryEraCache();
  const server = stdioFixture('era2025-server.ts');
  cache.set(eraCacheKey(server), {
    kind: 'modern',
    discover: { supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, serverInfo: { name: 'x', version: '1' } } as never,
  });
  const { c, lines } = connection(server, { eraCache: cache });
  await c.start();
  try {
    assert.deepEqual(c.state, { kind: 'running', era: 'legacy', protocolVersion: '2025-11-25' });
    assert.equal(text(await c.callTool('echo', { text: 'again' })), 'again');
    const entry = cache.get(eraCacheKey(server));
    assert.equal(entry?.kind, 'legacy');
    assert.ok(entry?.at !== undefined && Math.abs(Date.now() - entry.at) < 60_000, 'a legacy verdict is dated');
    assert.ok(lines.some((l) => l.includes('remembered protocol era failed')));
  } finally {
    await c.stop();
  }
});

test('server-everything over stdio: lists and calls tools, and validates structured output after its list_changed', async () => {
  const { c } = connection(everythingStdio());
  await c.start();
  try {
    assert.equal(c.state.kind, 'running');
    assert.ok(c.tools.length > 5);
    assert.equal(text(await c.callTool('echo', { message: 'hi' })), 'Echo: hi');
    const structured = await c.callTool('get-structured-content', { location: 'New York' });
    assert.ok(structured.structuredContent);
    assert.ok(c.prompts.length > 0 && c.resources.length > 0, 'prompts and resources are listed too');
    const resource = await c.readResource(c.resources[0]!.uri);
    assert.equal(resource.contents[0]!.uri, c.resources[0]!.uri);
  } finally {
    await c.stop();
  }
});

test('a line that is not JSON on stdout is logged and skipped', async () => {
  const { c, lines } = connection(stdioFixture('noisy-stdout-server.ts'));
  await c.start();
  try {
    assert.equal(text(await c.callTool('ping', {})), 'pong');
    assert.ok(lines.some((l) => l.includes('[server stdout, not JSON-RPC] Server starting')));
    assert.ok(lines.some((l) => l.startsWith('[warn] [server stderr] a line on stderr')));
  } finally {
    await c.stop();
  }
});

test('a server that answers tools/list with an error runs with no tools, and says why in its log', async () => {
  const server = stdioFixture('era2025-server.ts');
  const { c, lines } = connection({ ...server, env: { ...server.env, FIXTURE_TOOLS_LIST_FAILS: '1' } });
  await c.start();
  try {
    assert.equal(c.state.kind, 'running');
    assert.deepEqual(c.tools, []);
    assert.ok(
      lines.some((l) => /tools\/list failed: .*the tool registry is down; running with no tools/.test(l)),
      lines.join('\n'),
    );
  } finally {
    await c.stop();
  }
});

test('a command that does not exist gives "command not found" and the error state', async () => {
  const { c } = connection({ name: 'x', transport: 'stdio', command: 'npx-that-is-not-installed', args: [], env: { PATH: '/nonexistent' } });
  await assert.rejects(
    c.start(),
    (e: unknown) => e instanceof ServerStartError && e.message === 'command not found: npx-that-is-not-installed — give the absolute path in mcp.json',
  );
  assert.deepEqual(c.state, { kind: 'error', reason: 'command not found: npx-that-is-not-installed — give the absolute path in mcp.json' });
});

test('a server that exits during startup is reported as crashed with its exit code', async () => {
  const { c } = connection({ name: 'x', transport: 'stdio', command: process.execPath, args: ['-e', 'process.exit(7)'], env: {}, cwd: repoRoot });
  await assert.rejects(c.start(), ServerStartError);
  assert.equal(c.state.kind, 'crashed');
  assert.equal(c.state.kind === 'crashed' && c.state.exitCode, 7);
});

test('a server that dies mid-call fails that call clearly, goes to crashed, and restarts', async () => {
  const { c } = connection();
  await c.start();
  try {
    await assert.rejects(
      c.callTool('crash', {}),
      (e: unknown) => e instanceof ServerCrashedError && e.exitCode === 3 && /tool "crash" failed: the server exited \(exit code 3\)/.test(e.message),
    );
    assert.deepEqual(c.state, { kind: 'crashed', exitCode: 3, signal: null, reason: 'the server exited (exit code 3)' });
    await c.restart();
    assert.equal(c.state.kind, 'running');
    assert.equal(text(await c.callTool('echo', { text: 'back' })), 'back');
  } finally {
    await c.stop();
  }
});

test('stop ends the server process and clears the lists', async () => {
  const { c } = connection();
  await c.start();
  const pid = (c as unknown as { attempt: { transport: { pid: number } } }).attempt.transport.pid;
  assert.ok(isAlive(pid));
  await c.stop();
  assert.deepEqual(c.state, { kind: 'stopped' });
  assert.equal(c.tools.length, 0);
  assert.equal(isAlive(pid), false);
});

test('a server that ignores stdin closing is stopped with SIGTERM after the grace period', async () => {
  const stubborn =
    'process.stdin.on("end",()=>{}); process.stdin.resume(); const rl=require("readline").createInterface({input:process.stdin});' +
    'rl.on("line",l=>{const m=JSON.parse(l); if(m.method==="initialize") process.stdout.write(JSON.stringify({jsonrpc:"2.0",id:m.id,result:{protocolVersion:"2025-11-25",capabilities:{},serverInfo:{name:"s",version:"1"}}})+"\\n"); else if(m.id!==undefined) process.stdout.write(JSON.stringify({jsonrpc:"2.0",id:m.id,error:{code:-32601,message:"nope"}})+"\\n");});' +
    'setInterval(()=>{},1000);';
  const { c, lines } = connection(
    { name: 's', transport: 'stdio', command: process.execPath, args: ['-e', stubborn], env: {}, cwd: repoRoot },
    { stopGraceMs: 200 },
  );
  await c.start();
  const pid = (c as unknown as { attempt: { transport: { pid: number } } }).attempt.transport.pid;
  await c.stop();
  assert.equal(isAlive(pid), false);
  assert.ok(lines.some((l) => l.includes('sending SIGTERM')));
});

test('protocol traffic is logged at trace level with data URIs redacted', async () => {
  const { lines, log } = recordingLog('trace');
  const c = new ServerConnection(stdioFixture('era2025-server.ts'), {
    log,
    elicitation: async () => ({ action: 'accept', content: { photo: `data:image/png;base64,${'A'.repeat(4000)}` } }),
  });
  await c.start();
  try {
    await c.callTool('ask_file', {});
  } finally {
    await c.stop();
  }
  assert.ok(lines.some((l) => l.startsWith('[trace] [host -> server]') && l.includes('"tools/call"')));
  assert.ok(lines.some((l) => l.includes('data:image/png;base64,[3000 bytes]')));
  assert.ok(!lines.some((l) => l.includes('AAAAAAAA')), 'no file bytes in the log');
});

test('without an elicitation handler the capability is not declared and a server that asks anyway gets cancel', async () => {
  const { c, lines } = connection(stdioFixture('era2025-server.ts'), {}, 'trace');
  await c.start();
  try {
    // The fixture asks anyway and returns the answer it received as the tool's text.
    const r = await c.callTool('ask_file', {});
    assert.deepEqual(JSON.parse(text(r)), { action: 'cancel' });
    assert.ok(
      lines.some((l) => l.startsWith('[warn] the server asked for input (elicitation/create) though the host did not declare elicitation; answered cancel')),
    );
    const initialize = lines.find((l) => l.includes('"method":"initialize"')) ?? '';
    // Nothing but the Tasks, Skills and Secure Parameters extensions (declared in every era).
    assert.match(
      initialize,
      /"capabilities":\{"extensions":\{"io\.modelcontextprotocol\/tasks":\{\},"io\.modelcontextprotocol\/skills":\{\},"io\.modelcontextprotocol\/secure-params":\{\}\}\}/,
    );
  } finally {
    await c.stop();
  }
});

test('a server that ignores SIGTERM is killed with SIGKILL, and stop() resolves within two grace periods', async () => {
  const graceMs = 300;
  const { c, lines } = connection(stdioFixture('sigterm-ignoring-server.ts'), { stopGraceMs: graceMs });
  await c.start();
  const pid = (c as unknown as { attempt: { transport: { pid: number } } }).attempt.transport.pid;
  const started = Date.now();
  await c.stop();
  const took = Date.now() - started;
  assert.equal(isAlive(pid), false);
  assert.ok(took < graceMs * 2 + 1500, `stop took ${took} ms`);
  assert.ok(
    lines.some((l) => l.includes('[server stderr] SIGTERM ignored')),
    'the fixture got SIGTERM and ignored it',
  );
  assert.ok(lines.some((l) => l.includes('did not exit after SIGTERM; sending SIGKILL')));
  assert.deepEqual(c.state, { kind: 'stopped' });
});

test('restart() while running replaces the process and keeps serving', async () => {
  const { c } = connection();
  await c.start();
  const states: string[] = [];
  c.onDidChangeState((s) => states.push(s.kind));
  const pid = (c as unknown as { attempt: { transport: { pid: number } } }).attempt.transport.pid;
  try {
    await c.restart();
    const newPid = (c as unknown as { attempt: { transport: { pid: number } } }).attempt.transport.pid;
    assert.notEqual(newPid, pid);
    assert.equal(isAlive(pid), false, 'the old process is gone');
    assert.deepEqual(states, ['stopped', 'starting', 'running']);
    assert.equal(c.tools.length, 13);
    assert.equal(text(await c.callTool('echo', { text: 'after restart' })), 'after restart');
  } finally {
    await c.stop();
  }
});

test('a password input passed as an argument never reaches the log or the era cache key', async () => {
  const secret = 'hunter2-"quoted"-s3cret';
  const { servers, inputs } = parseMcpConfig(
    JSON.stringify({
      inputs: [{ id: 'key', type: 'promptString', password: true }],
      servers: { s: { command: process.execPath, args: [...fixtureArgv('era2025-server.ts'), '--token=${input:key}'] } },
    }),
    'mcp.json',
  );
  const server = await resolveServer(servers[0]!, { workspaceFolder: repoRoot, inputs, resolveInput: async () => secret });
  assert.ok(server.transport === 'stdio' && server.args.includes(`--token=${secret}`), 'the server gets the real value');
  const cache = new InMemoryEraCache();
  const { c, lines } = connection(server, { eraCache: cache }, 'trace');
  await c.start();
  try {
    assert.equal(text(await c.callTool('echo', { text: `say ${secret}` })), `say ${secret}`);
  } finally {
    await c.stop();
  }
  const escaped = JSON.stringify(secret).slice(1, -1);
  assert.deepEqual(
    lines.filter((l) => l.includes('hunter2') || l.includes(escaped)),
    [],
  );
  assert.ok(
    lines.some((l) => l.startsWith('[info] starting') && l.includes(`--token=${SECRET_MASK}`)),
    'the start line shows a mask',
  );
  assert.ok(
    lines.some((l) => l.includes(`say ${SECRET_MASK}`)),
    'traced traffic is masked too',
  );
  const keys = [...(cache as unknown as { entries: Map<string, unknown> }).entries.keys()];
  assert.deepEqual(keys, [eraCacheKey(server)]);
  assert.ok(!keys[0]!.includes('hunter2'));
});

describe('a remembered legacy era for a server that is now 2026-era', () => {
  const server = stdioFixture('era2026-server.ts');
  const start = async (at: number) => {
    const cache = new InMemoryEraCache();
    cache.set(eraCacheKey(server), { kind: 'legacy', at });
    const { c, lines } = connection(server, { eraCache: cache }, 'trace');
    await c.start();
    const state = c.state;
    await c.stop();
    return { state, lines, entry: cache.get(eraCacheKey(server)) };
  };

  test('is re-checked once older than the horizon: the server is probed and spoken to in the modern era', async () => {
    const { state, lines, entry } = await start(Date.now() - LEGACY_ERA_MAX_AGE_MS - 60_000);
    assert.equal(state.kind === 'running' && state.era, 'modern');
    assert.ok(
      lines.some((l) => l.includes('"method":"server/discover"')),
      'the era was probed',
    );
    assert.equal(entry?.kind, 'modern', 'the new verdict replaced the stale one');
  });

  test('is still used while fresh: no probe, the legacy handshake', async () => {
    const { state, lines, entry } = await start(Date.now() - 60_000);
    assert.equal(state.kind === 'running' && state.era, 'legacy');
    assert.ok(!lines.some((l) => l.includes('server/discover')), 'no server/discover probe was sent');
    assert.ok(lines.some((l) => l.includes('"method":"initialize"')));
    assert.equal(entry?.kind, 'legacy');
  });
});

/** The local addresses of the listening TCP sockets on a port (Linux /proc), in /proc's hex form. */
function listeningAddresses(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  return ['/proc/net/tcp', '/proc/net/tcp6'].filter(existsSync).flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((f) => f.length > 3 && f[3] === '0A' && f[1]!.endsWith(`:${hexPort}`))
      .map((f) => f[1]!.split(':')[0]!),
  );
}

test('server-everything in tests listens on 127.0.0.1 only', { skip: !existsSync('/proc/net/tcp') && 'needs Linux /proc' }, async () => {
  const everything = await startEverythingHttp('streamableHttp');
  try {
    const addresses = listeningAddresses(everything.port);
    assert.ok(addresses.length > 0, 'the listening socket was found');
    assert.deepEqual([...new Set(addresses)], ['0100007F'], `listening on ${addresses.join(', ')}`);
  } finally {
    await everything.stop();
  }
});

test('type "http" with a url ending in /sse goes straight to SSE: no Streamable HTTP request is sent', async () => {
  const everything = await startEverythingHttp('sse');
  const requests: string[] = [];
  const realFetch = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    requests.push(`${init?.method ?? (input instanceof Request ? input.method : 'GET')} ${url.pathname}`);
    return realFetch(input, init);
  };
  const { servers } = parseMcpConfig(JSON.stringify({ servers: { e: { type: 'http', url: everything.url } } }), 'mcp.json');
  const server = await resolveServer(servers[0]!, {});
  const { c, lines } = connection(server);
  try {
    await c.start();
    assert.equal(c.transportInUse, 'sse');
    assert.equal(text(await c.callTool('echo', { message: 'via sse' })), 'Echo: via sse');
    assert.equal(requests[0], 'GET /sse', 'the first request opens the SSE stream');
    assert.ok(!requests.includes('POST /sse'), `no Streamable HTTP POST to the SSE endpoint: ${requests.join(', ')}`);
    assert.ok(!lines.some((l) => l.includes('trying the legacy HTTP+SSE transport')));
  } finally {
    globalThis.fetch = realFetch;
    await c.stop();
    await everything.stop();
  }
});
