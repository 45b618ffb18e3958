// ServerConnection over loopback HTTP: Streamable HTTP and legacy SSE, both eras, and server-everything.
import { strict as assert } from 'node:assert';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { ServerConnection, ServerStartError, type ConnectionOptions, type ElicitRequestParamsLoose } from '../../src/core/connection';
import { Logger } from '../../src/core/log';
import { freePort, httpServer, startEverythingHttp, startHttpFixture, type RunningHttpServer } from '../fixtures/servers';
import { resultText } from '../helpers/results';

function connect(url: string, options: Partial<ConnectionOptions> = {}, transport: 'http' | 'sse' = 'http', headers: Record<string, string> = {}) {
  const lines: string[] = [];
  const log = new Logger((l, m) => lines.push(`[${l}] ${m}`), 'debug');
  return { c: new ServerConnection(httpServer('h', url, headers, transport), { log, ...options }), lines };
}

const photoKeyword = (p: ElicitRequestParamsLoose) => (p.requestedSchema as { properties: { photo: Record<string, unknown> } }).properties.photo['x-mcp-file'];

function recordingElicitation() {
  const seen: ElicitRequestParamsLoose[] = [];
  return {
    seen,
    handler: async (p: ElicitRequestParamsLoose) => {
      seen.push(p);
      return { action: 'accept' as const, content: { photo: 'data:image/png;base64,iVBORw0KGgo=' } };
    },
  };
}

describe('2025-era fixture over Streamable HTTP', () => {
  let server: RunningHttpServer;
  before(async () => {
    server = await startHttpFixture('era2025-server.ts', '--http');
  });
  after(() => server.stop());

  test('lists, calls, and keeps x-mcp-file in an elicitation', async () => {
    const { seen, handler } = recordingElicitation();
    const { c } = connect(server.url, { elicitation: handler });
    await c.start();
    try {
      assert.equal(c.transportInUse, 'http');
      assert.equal(c.state.kind === 'running' && c.state.era, 'legacy');
      assert.equal(resultText(await c.callTool('echo', { text: 'over http' })), 'over http');
      await c.callTool('ask_file', {});
      assert.deepEqual(photoKeyword(seen[0]!), { accept: ['image/png'], maxSize: 1000 });
    } finally {
      await c.stop();
    }
  });

  test('each JSON-RPC message is traced once at trace level', async () => {
    const lines: string[] = [];
    const c = new ServerConnection(httpServer('h', server.url), { log: new Logger((l, m) => lines.push(m), 'trace') });
    await c.start();
    try {
      await c.callTool('echo', { text: 'traced' });
    } finally {
      await c.stop();
    }
    const sent = lines.filter((l) => l.startsWith('[host -> server]') && l.includes('"tools/call"'));
    const received = lines.filter((l) => l.startsWith('[server -> host]') && l.includes('traced'));
    assert.equal(sent.length, 1);
    assert.equal(received.length, 1);
  });

  test('a binary-mode handler learns the server origin and the configured Authorization header', async () => {
    let origin: string | undefined;
    let auth: string | undefined;
    const { c } = connect(
      server.url,
      {
        capabilities: { binaryElicitation: {} },
        elicitation: async (_p, ctx) => {
          origin = ctx.serverOrigin;
          auth = ctx.authHeader;
          return { action: 'decline' };
        },
      },
      'http',
      { Authorization: 'Bearer t0ken' },
    );
    await c.start();
    try {
      assert.deepEqual(JSON.parse(resultText(await c.callTool('ask_binary', {}))), { action: 'decline' });
      assert.equal(origin, `http://127.0.0.1:${server.port}`);
      assert.equal(auth, 'Bearer t0ken');
    } finally {
      await c.stop();
    }
  });
});

describe('2025-era fixture that only speaks legacy HTTP+SSE', () => {
  let server: RunningHttpServer;
  before(async () => {
    server = await startHttpFixture('era2025-server.ts', '--sse');
  });
  after(() => server.stop());

  test('falls back from Streamable HTTP to SSE on a 405 and works', async () => {
    const { c, lines } = connect(server.url);
    await c.start();
    try {
      assert.equal(c.transportInUse, 'sse');
      assert.ok(lines.some((l) => l.includes('Streamable HTTP answered 405')));
      assert.equal(resultText(await c.callTool('echo', { text: 'via sse' })), 'via sse');
    } finally {
      await c.stop();
    }
  });
});

describe('2026-era fixture over Streamable HTTP', () => {
  let server: RunningHttpServer;
  before(async () => {
    server = await startHttpFixture('era2026-server.ts', '--http');
  });
  after(() => server.stop());

  test('speaks the modern era and keeps x-mcp-file in an input_required elicitation', async () => {
    const { seen, handler } = recordingElicitation();
    const { c } = connect(server.url, { elicitation: handler });
    await c.start();
    try {
      assert.deepEqual(c.state, { kind: 'running', era: 'modern', protocolVersion: '2026-07-28' });
      assert.equal(resultText(await c.callTool('echo', { text: 'modern http' })), 'modern http');
      assert.match(resultText(await c.callTool('ask_file', {})), /accept/);
      assert.deepEqual(photoKeyword(seen[0]!), { accept: ['image/png'], maxSize: 1000 });
    } finally {
      await c.stop();
    }
  });
});

describe('server-everything over HTTP', () => {
  test('streamableHttp mode: lists and calls', async () => {
    const server = await startEverythingHttp('streamableHttp');
    const { c } = connect(server.url);
    try {
      await c.start();
      assert.equal(c.transportInUse, 'http');
      assert.ok(c.tools.some((t) => t.name === 'echo'));
      assert.equal(resultText(await c.callTool('echo', { message: 'x' })), 'Echo: x');
      assert.ok((await c.callTool('get-structured-content', { location: 'Chicago' })).structuredContent);
    } finally {
      await c.stop();
      await server.stop();
    }
  });

  test('sse mode: a url ending in /sse goes straight to SSE', async () => {
    const server = await startEverythingHttp('sse');
    const { c, lines } = connect(server.url, {}, 'sse');
    try {
      await c.start();
      assert.equal(c.transportInUse, 'sse');
      assert.ok(!lines.some((l) => l.includes('Streamable HTTP answered')));
      assert.equal(resultText(await c.callTool('echo', { message: 'y' })), 'Echo: y');
    } finally {
      await c.stop();
      await server.stop();
    }
  });
});

test('configured headers are sent, and a 401 is reported without falling back to SSE', async () => {
  const seen: IncomingHttpHeaders[] = [];
  const http = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const port = (http.address() as { port: number }).port;
  const { c } = connect(`http://127.0.0.1:${port}/mcp`, {}, 'http', { Authorization: 'Bearer s3cret', 'X-Team': 'blue' });
  try {
    await assert.rejects(c.start(), (e: unknown) => e instanceof ServerStartError && /HTTP 401/.test(e.message));
    assert.equal(c.state.kind, 'error');
    assert.ok(seen.length > 0);
    assert.ok(seen.every((h) => h.authorization === 'Bearer s3cret' && h['x-team'] === 'blue'));
    assert.ok(
      seen.every((h) => h.accept !== 'text/event-stream'),
      'no SSE fallback after a 401',
    );
  } finally {
    http.close();
  }
});

test('nothing listening at the URL gives a clear error state, over Streamable HTTP and SSE', async () => {
  const port = await freePort();
  for (const [path, transport] of [
    ['/mcp', 'http'],
    ['/sse', 'sse'],
  ] as const) {
    const url = `http://127.0.0.1:${port}${path}`;
    const { c } = connect(url, { connectTimeoutMs: 5000 }, transport);
    await assert.rejects(c.start(), ServerStartError);
    assert.deepEqual(c.state, { kind: 'error', reason: `nothing is listening at ${url}` });
  }
});
