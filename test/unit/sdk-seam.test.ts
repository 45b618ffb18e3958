// The SDK's private members the host uses (src/core/connection/sdkSeam.ts), one test each: every test fails if
// the SDK stops calling or keeping the member, before users would see a silent change of behaviour.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClientContext, JSONRPCRequest, Result } from '@modelcontextprotocol/client';
import { HostClient, PINNED_SDK_VERSION, sdkSeamProblem } from '../../src/core/connection/sdkSeam';
import { StdioProcessTransport } from '../../src/core/connection/stdioTransport';
import { Logger } from '../../src/core/log';
import { repoRoot, stdioFixture } from '../fixtures/servers';

test('the seam was checked against the SDK version package.json pins, and that SDK has every member', () => {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  assert.equal(pkg.dependencies['@modelcontextprotocol/client'], PINNED_SDK_VERSION);
  assert.equal(sdkSeamProblem(), undefined);
});

test('_wrapHandler: the SDK passes every registered request handler through it, elicitation/create included', () => {
  const wrapped: string[] = [];
  class Spy extends HostClient {
    protected override _wrapHandler(method: string, handler: (request: JSONRPCRequest, ctx: ClientContext) => Promise<Result>) {
      wrapped.push(method);
      return super._wrapHandler(method, handler);
    }
  }
  const client = new Spy({ name: 't', version: '0' }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler('elicitation/create', async () => ({ action: 'decline' }));
  assert.ok(wrapped.includes('elicitation/create'), `wrapped: ${wrapped.join(', ')}`);
});

test('_outboundMetaEnvelope: the SDK stamps every outbound message of a modern-era connection with it', async () => {
  const stamped: string[] = [];
  class Spy extends HostClient {
    protected override _outboundMetaEnvelope() {
      const envelope = super._outboundMetaEnvelope();
      if (envelope) stamped.push(Object.keys(envelope).join(','));
      return envelope;
    }
  }
  const client = new Spy({ name: 't', version: '0' }, { versionNegotiation: { mode: 'auto' } });
  const transport = new StdioProcessTransport(stdioFixture('era2026-server.ts'), new Logger(() => undefined), 1000);
  await client.connect(transport);
  try {
    const before = stamped.length;
    await client.listTools();
    assert.ok(stamped.length > before, 'tools/list went out without asking for the envelope');
  } finally {
    await client.close();
  }
});

test('_onresponse: progress read together with its result reaches the caller before the result', async () => {
  const client = new HostClient({ name: 't', version: '0' });
  await client.connect(new StdioProcessTransport(stdioFixture('raw-stdio-server.ts', ['progress-burst']), new Logger(() => undefined), 1000));
  try {
    const seen: string[] = [];
    await client.callTool({ name: 'echo', arguments: {} }, { onprogress: (p) => seen.push(`progress ${p.progress}`) }).then(() => seen.push('result'));
    assert.deepEqual(seen, ['progress 1', 'progress 2', 'progress 3', 'result']);
  } finally {
    await client.close();
  }
});

async function withSlowServer(body: (client: HostClient) => Promise<void>): Promise<void> {
  const client = new HostClient({ name: 't', version: '0' });
  const transport = new StdioProcessTransport(stdioFixture('era2025-server.ts'), new Logger(() => undefined), 1000);
  await client.connect(transport);
  try {
    await body(client);
  } finally {
    await client.close();
  }
}

/** Starts the fixture's slow tool and waits until the SDK has set up the request's timer. */
async function startSlow(client: HostClient, delayMs: number, timeout: number) {
  const call = client.callTool({ name: 'slow', arguments: { steps: 1, delayMs } }, { timeout });
  call.catch(() => undefined); // awaited below; this only keeps an early rejection from counting as unhandled
  const timers = (client as unknown as { _timeoutInfo: Map<number, unknown> })._timeoutInfo;
  for (let i = 0; timers.size === 0; i++) {
    assert.ok(i < 200, 'the request never got a timer');
    await new Promise((r) => setTimeout(r, 5));
  }
  return { call };
}

test('_timeoutInfo: pausing stops the timer of a request in flight (a 1.5 s tool outlives its 600 ms timeout)', async () => {
  await withSlowServer(async (client) => {
    const { call } = await startSlow(client, 1500, 600);
    client.pauseRequestTimeouts();
    await new Promise((r) => setTimeout(r, 1400));
    client.resumeRequestTimeouts();
    const result = await call;
    assert.notEqual(result.isError, true);
  });
});

test('_resetTimeout: resuming re-arms the timer in full (a 10 s tool times out 400 ms after the resume)', async () => {
  await withSlowServer(async (client) => {
    const { call } = await startSlow(client, 10_000, 400);
    client.pauseRequestTimeouts();
    await new Promise((r) => setTimeout(r, 600));
    const resumedAt = Date.now();
    client.resumeRequestTimeouts();
    await assert.rejects(call, /timed out|timeout/i);
    const after = Date.now() - resumedAt;
    assert.ok(after >= 300 && after < 5000, `timed out ${after} ms after the resume`);
  });
});
