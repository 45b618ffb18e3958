// ServerConnection over stdio against real servers: the era-2025 fixture (sdk 1.32.2), the era-2026 fixture
// (@modelcontextprotocol/server 2.4.0), server-everything, and hostile fixtures.
import { strict as assert } from 'node:assert';
import { after, before, describe, test } from 'node:test';
import {
  CallCancelledError, CallTimeoutError, eraCacheKey, InMemoryEraCache, ServerConnection, ServerCrashedError, ServerRequestError,
  ServerStartError, type ConnectionOptions, type ConnectionState, type ElicitationHandler, type ElicitRequestParamsLoose,
} from '../../src/core/connection';
import { Logger, type LogLevel } from '../../src/core/log';
import { everythingStdio, repoRoot, stdioFixture } from '../fixtures/servers';

function recordingLog(level: LogLevel = 'debug') {
  const lines: string[] = [];
  return { lines, log: new Logger((l, m) => lines.push(`[${l}] ${m}`), level) };
}

function connection(server = stdioFixture('era2025-server.ts'), options: Partial<ConnectionOptions> = {}, level: LogLevel = 'debug') {
  const { lines, log } = recordingLog(level);
  const c = new ServerConnection(server, { log, stopGraceMs: 1000, ...options });
  return { c, lines };
}

function text(result: { content?: unknown[] }): string {
  return (result.content ?? []).map((b) => (b as { text?: string }).text ?? '').join('');
}

const fileSchemaOf = (p: ElicitRequestParamsLoose) =>
  ((p.requestedSchema as { properties: Record<string, Record<string, unknown>> }).properties.photo)['x-mcp-file'];

function isAlive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch { return false; }
}

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
    assert.equal(c.tools.length, 12, 'every page of tools/list was read');
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
    assert.ok(progress.length >= 2, `got ${progress.length} progress notifications`);
    assert.deepEqual(progress, [...progress].sort());
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
    await assert.rejects(c.callTool('slow', { steps: 1, delayMs: 1000 }, { timeoutMs: 100 }),
      (e: unknown) => e instanceof CallTimeoutError && /no answer within 100 ms/.test(e.message));
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
    assert.deepEqual(fileSchemaOf(seen[0]), { accept: ['image/png'], maxSize: 1000 });
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

  test('a call in flight when the server is stopped is cancelled, not reported as a crash', async () => {
    const other = connection();
    await other.c.start();
    const call = other.c.callTool('slow', { steps: 20, delayMs: 100 });
    await new Promise((r) => setTimeout(r, 100));
    await other.c.stop();
    await assert.rejects(call, (e: unknown) => e instanceof CallCancelledError && /the server was stopped/.test(e.message));
    assert.deepEqual(other.c.state, { kind: 'stopped' });
  });

  test('lists tools again when the server says the list changed', async () => {
    const changed = new Promise<void>((resolve) => {
      const sub = c.onDidChangeLists(() => { if (c.tools.some((t) => t.name === 'extra')) { sub.dispose(); resolve(); } });
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
  const { c, lines } = connection(stdioFixture('era2025-server.ts'), {
    capabilities: { binaryElicitation: { maxFileSize: 1024 }, fileInputs: true },
    elicitation: async (params, ctx) => {
      got = { params, token: ctx.progressToken, hasProgress: typeof ctx.sendProgress === 'function' };
      await ctx.sendProgress?.(10, 20, 'Uploading a.png...');
      return { action: 'accept', content: { imageFile: { name: 'a.png', size: 20, mimeType: 'image/png', uploadId: 'u-1' } } };
    },
  }, 'trace');
  await c.start();
  try {
    const r = await c.callTool('ask_binary', {});
    assert.equal(got?.params.mode, 'binary');
    assert.deepEqual(got?.params.uploadEndpoints, { imageFile: { url: 'http://127.0.0.1:1/upload', method: 'POST', uploadId: 'u-1' } });
    assert.equal((got?.params.requestedSchema as { properties: { imageFile: { type: string } } }).properties.imageFile.type, 'file');
    assert.equal(got?.token, 'up-1');
    assert.equal(got?.hasProgress, true);
    assert.deepEqual(JSON.parse(text(r)), {
      action: 'accept', content: { imageFile: { name: 'a.png', size: 20, mimeType: 'image/png', uploadId: 'u-1' } },
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
    eraCache: cache, inputRequired: { maxRounds: 3 },
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
    assert.deepEqual(fileSchemaOf(seen[0]), { accept: ['image/png'], maxSize: 1000 });
    assert.match(text(r), /data:image\/png;base64,iVBORw0KGgo=/);
  });

  test('a server that keeps asking for input is cut off after the configured number of rounds', async () => {
    await assert.rejects(c.callTool('ask_forever', {}),
      (e: unknown) => e instanceof ServerRequestError && /the server kept asking for input \(3 rounds\)/.test(e.message));
  });

  test('reports progress', async () => {
    const progress: number[] = [];
    await c.callTool('slow', { steps: 3, delayMs: 20 }, { onProgress: (p) => progress.push(p.progress) });
    assert.ok(progress.length >= 1);
  });

  test('the negotiated era is remembered and the next connect skips the probe', async () => {
    const prior = cache.get([...(cache as unknown as { entries: Map<string, unknown> }).entries.keys()][0]);
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
    assert.deepEqual(cache.get(eraCacheKey(server)), { kind: 'legacy' });
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
    const resource = await c.readResource(c.resources[0].uri);
    assert.equal(resource.contents[0].uri, c.resources[0].uri);
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

test('a command that does not exist gives "command not found" and the error state', async () => {
  const { c } = connection({ name: 'x', transport: 'stdio', command: 'npx-that-is-not-installed', args: [], env: { PATH: '/nonexistent' } });
  await assert.rejects(c.start(), (e: unknown) => e instanceof ServerStartError
    && e.message === 'command not found: npx-that-is-not-installed — give the absolute path in mcp.json');
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
    await assert.rejects(c.callTool('crash', {}),
      (e: unknown) => e instanceof ServerCrashedError && e.exitCode === 3 && /tool "crash" failed: the server exited \(exit code 3\)/.test(e.message));
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
  const pid = (c as unknown as { transport: { pid: number } }).transport.pid;
  assert.ok(isAlive(pid));
  await c.stop();
  assert.deepEqual(c.state, { kind: 'stopped' });
  assert.equal(c.tools.length, 0);
  assert.equal(isAlive(pid), false);
});

test('a server that ignores stdin closing is stopped with SIGTERM after the grace period', async () => {
  const stubborn = 'process.stdin.on("end",()=>{}); process.stdin.resume(); const rl=require("readline").createInterface({input:process.stdin});'
    + 'rl.on("line",l=>{const m=JSON.parse(l); if(m.method==="initialize") process.stdout.write(JSON.stringify({jsonrpc:"2.0",id:m.id,result:{protocolVersion:"2025-11-25",capabilities:{},serverInfo:{name:"s",version:"1"}}})+"\\n"); else if(m.id!==undefined) process.stdout.write(JSON.stringify({jsonrpc:"2.0",id:m.id,error:{code:-32601,message:"nope"}})+"\\n");});'
    + 'setInterval(()=>{},1000);';
  const { c, lines } = connection({ name: 's', transport: 'stdio', command: process.execPath, args: ['-e', stubborn], env: {}, cwd: repoRoot }, { stopGraceMs: 200 });
  await c.start();
  const pid = (c as unknown as { transport: { pid: number } }).transport.pid;
  await c.stop();
  assert.equal(isAlive(pid), false);
  assert.ok(lines.some((l) => l.includes('sending SIGTERM')));
});

test('protocol traffic is logged at trace level with data URIs redacted', async () => {
  const { lines, log } = recordingLog('trace');
  const c = new ServerConnection(stdioFixture('era2025-server.ts'), {
    log, elicitation: async () => ({ action: 'accept', content: { photo: `data:image/png;base64,${'A'.repeat(4000)}` } }),
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
    const r = await c.callTool('ask_file', {}).catch((e: Error) => e);
    // sdk 1.32.2 servers refuse to send what the client did not declare; either way nothing was accepted.
    assert.ok(r instanceof Error || !/"accept"/.test(text(r)));
    const initialize = lines.find((l) => l.includes('"method":"initialize"')) ?? '';
    assert.match(initialize, /"capabilities":\{\}/);
  } finally {
    await c.stop();
  }
});
