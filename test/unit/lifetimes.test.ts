// Owned lifetimes (src/core/events.ts): children disposed newest first and once, a late child disposed at once,
// listener counts that tests can trust, live counts per class. A connection's session: a stop ends every request
// of the server being answered (sent plainly or as a task), its received tasks and the calls that offered tasks.
// `dispose()` is synchronous and ends what it owns on its own (a server process, a listening port, a sign-in);
// `stop()` is the teardown to await.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getEventListeners, setMaxListeners } from 'node:events';
import { connect } from 'node:net';
import { z } from 'zod';
import { Disposable, DisposableStore, Emitter, linkAbort, liveCount, onAbort, toDisposable } from '../../src/core/events';
import { CallCancelledError, NotRunningError, ServerConnection } from '../../src/core/connection';
import { SHUTDOWN_GRACE_MS } from '../../src/core/connection/stdioTransport';
import { HostOAuthClientProvider, LoopbackRedirectReceiver, MemoryTokenStore } from '../../src/core/auth';
import { SignInCancelledError } from '../../src/core/auth/types';
import { Logger } from '../../src/core/log';
import { callToolAsTask } from '../../src/core/tasks';
import { everythingStdio, isAlive, stdioFixture, stdioPidOf } from '../fixtures/servers';

class Owner extends Disposable {
  constructor(
    readonly log: string[],
    readonly emitter: Emitter<number>,
  ) {
    super();
    this.register(toDisposable(() => log.push('first')));
    this.register(emitter.event((n) => log.push(`heard ${n}`)));
    this.register(toDisposable(() => log.push('last')));
  }
  adopt(name: string): void {
    this.register(toDisposable(() => this.log.push(name)));
  }
}

test('an owner disposes its children newest first, once, and a child given to it afterwards at once', () => {
  const log: string[] = [];
  const emitter = new Emitter<number>();
  const owner = new Owner(log, emitter);
  emitter.fire(1);
  assert.equal(emitter.listenerCount, 1);
  owner.dispose();
  owner.dispose();
  assert.deepEqual(log, ['heard 1', 'last', 'first']);
  assert.equal(emitter.listenerCount, 0, 'its listener is gone');
  emitter.fire(2);
  owner.adopt('late');
  assert.deepEqual(log, ['heard 1', 'last', 'first', 'late']);
});

test('live counts follow construction and dispose, per class', () => {
  const before = liveCount(Owner);
  const owners = Array.from({ length: 5 }, () => new Owner([], new Emitter()));
  assert.equal(liveCount(Owner), before + 5);
  for (const o of owners) o.dispose();
  owners[0]!.dispose();
  assert.equal(liveCount(Owner), before);
});

test('the same listener subscribed twice is two subscriptions, each ended by its own handle', () => {
  const emitter = new Emitter<void>();
  let heard = 0;
  const listener = () => {
    heard++;
  };
  const a = emitter.event(listener);
  const b = emitter.event(listener);
  emitter.fire();
  assert.equal(heard, 2);
  a.dispose();
  a.dispose();
  assert.equal(emitter.listenerCount, 1);
  emitter.fire();
  assert.equal(heard, 3);
  b.dispose();
  assert.equal(emitter.listenerCount, 0);
});

test('a store disposes the rest when one child throws, and `delete` disposes one child now', () => {
  const store = new DisposableStore();
  const log: string[] = [];
  const one = store.add(toDisposable(() => log.push('one')));
  store.add({
    dispose: () => {
      throw new Error('boom');
    },
  });
  store.add(toDisposable(() => log.push('three')));
  store.delete(one);
  assert.deepEqual(log, ['one']);
  store.dispose();
  assert.deepEqual(log, ['one', 'three']);
  assert.equal(store.size, 0);
});

test('an owner takes no child whose dispose() returns a promise (it would be disposed without being awaited)', () => {
  class AsyncTeardown {
    async dispose(): Promise<void> {}
  }
  const store = new DisposableStore();
  // @ts-expect-error dispose() returns a promise
  store.add(new AsyncTeardown());
  // @ts-expect-error dispose() returns a promise
  store.add({ dispose: async () => undefined });
  store.add({ dispose: (): void => undefined });
  store.add({ dispose: (): number => 1 });
  store.dispose();
});

test('a linked signal follows its outer one and takes its listener off it when disposed or aborted', () => {
  const outer = new AbortController();
  setMaxListeners(0, outer.signal); // a hundred links on purpose
  const links = Array.from({ length: 100 }, () => linkAbort(outer.signal, (o) => `outer: ${String(o.reason)}`));
  assert.equal(getEventListeners(outer.signal, 'abort').length, 100);
  for (const link of links.slice(0, 60)) link.dispose();
  for (const link of links.slice(60, 90)) link.abort('inner');
  assert.equal(getEventListeners(outer.signal, 'abort').length, 10, 'only the links still open listen');
  assert.deepEqual(
    links.slice(60, 90).map((l) => l.signal.reason),
    Array(30).fill('inner'),
  );
  outer.abort('stop');
  assert.deepEqual(
    links.slice(90).map((l) => l.signal.reason),
    Array(10).fill('outer: stop'),
  );
  assert.equal(
    links.slice(0, 60).some((l) => l.signal.aborted),
    false,
    'a disposed link no longer follows',
  );
  assert.equal(getEventListeners(outer.signal, 'abort').length, 0);
  const late = linkAbort(outer.signal);
  assert.equal(late.signal.aborted, true, 'an outer signal aborted already aborts at once');
  assert.equal(linkAbort(undefined).signal.aborted, false);
  let heard = 0;
  const listener = onAbort(new AbortController().signal, () => heard++);
  listener.dispose();
  assert.equal(heard, 0);
});

async function until(what: string, check: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('a stop ends the sampling requests of the session, sent plainly and as a task, and drops its received tasks', async () => {
  const signals: AbortSignal[] = [];
  const c = new ServerConnection(everythingStdio(), {
    log: new Logger(() => undefined, 'error'),
    stopGraceMs: 1000,
    capabilities: { taskRequests: true },
    // A person who never answers: only the request's signal ends the wait.
    sampling: (_request, ctx) =>
      new Promise((_resolve, reject) => {
        signals.push(ctx.signal);
        ctx.signal.addEventListener('abort', () => reject(new Error('ended by the signal')), { once: true });
      }),
  });
  await c.start();
  try {
    const plain = c.callTool('trigger-sampling-request', { prompt: 'plain' }).catch((e: unknown) => e);
    const asTask = c.callTool('trigger-sampling-request-async', { prompt: 'as a task' }).catch((e: unknown) => e);
    await until('both sampling requests', () => signals.length === 2 && c.openWork.receivedTasks === 1);
    assert.deepEqual(c.openWork, { sessions: 1, answering: 2, receivedTasks: 1, taskOfferingCalls: 0, requests: 2 });
    await c.stop();
    // The received task is ended by the session's dispose; the plain request by the SDK as the transport closes,
    // which may come a moment after stop() returns.
    await until('both requests to be ended', () => signals.every((s) => s.aborted), 2000).catch(() => undefined);
    assert.deepEqual(
      signals.map((s) => s.aborted),
      [true, true],
      'the request sent as a task is ended like the plain one',
    );
    assert.ok((await plain) instanceof Error);
    assert.ok((await asTask) instanceof Error);
    await until('the handlers to settle', () => c.openWork.answering === 0, 2000);
    assert.deepEqual(c.openWork, { sessions: 0, answering: 0, receivedTasks: 0, taskOfferingCalls: 0, requests: 0 });
  } finally {
    await c.stop();
    c.dispose();
  }
  assert.equal(c.listenerCount, 0);
});

test('a crash ends the session as a stop does: its sampling requests, received tasks and requests in flight', async () => {
  const signals: AbortSignal[] = [];
  const c = new ServerConnection(everythingStdio(), {
    log: new Logger(() => undefined, 'error'),
    stopGraceMs: 1000,
    capabilities: { taskRequests: true },
    sampling: (_request, ctx) =>
      new Promise((_resolve, reject) => {
        signals.push(ctx.signal);
        ctx.signal.addEventListener('abort', () => reject(new Error('ended by the signal')), { once: true });
      }),
  });
  await c.start();
  try {
    const plain = c.callTool('trigger-sampling-request', { prompt: 'plain' }).catch((e: unknown) => e);
    const asTask = c.callTool('trigger-sampling-request-async', { prompt: 'as a task' }).catch((e: unknown) => e);
    await until('both sampling requests', () => signals.length === 2 && c.openWork.receivedTasks === 1);
    process.kill((c as unknown as { attempt: { transport: { pid: number } } }).attempt.transport.pid, 'SIGKILL');
    await until('the crash', () => c.state.kind === 'crashed');
    assert.ok((await plain) instanceof Error);
    assert.ok((await asTask) instanceof Error);
    assert.deepEqual(
      signals.map((s) => s.aborted),
      [true, true],
      'the request sent as a task is ended like the plain one',
    );
    await until('the handlers to settle', () => c.openWork.answering === 0, 2000);
    assert.deepEqual(c.openWork, { sessions: 0, answering: 0, receivedTasks: 0, taskOfferingCalls: 0, requests: 0 });
  } finally {
    await c.stop();
    c.dispose();
  }
});

test("requests that share a caller's signal leave no listener on it, and none is counted open once answered", async () => {
  const c = new ServerConnection(everythingStdio(), { log: new Logger(() => undefined, 'error'), stopGraceMs: 1000 });
  await c.start();
  try {
    const caller = new AbortController();
    await Promise.all(Array.from({ length: 20 }, (_, i) => c.callTool('echo', { message: `call ${i}` }, { signal: caller.signal })));
    await assert.rejects(c.request('no/such-method', {}, z.object({}), { signal: caller.signal }), /no\/such-method failed/);
    assert.equal(getEventListeners(caller.signal, 'abort').length, 0);
    assert.equal(c.openWork.requests, 0);
  } finally {
    await c.stop();
    c.dispose();
  }
});

test('a stop forgets the tool calls in flight that offered the Tasks extension (2026-07-28)', async () => {
  const c = new ServerConnection(stdioFixture('tasks-era2026-server.ts'), { log: new Logger(() => undefined, 'error'), stopGraceMs: 1000 });
  await c.start();
  try {
    const pending = callToolAsTask(c, 'never', {}).catch((e: unknown) => e);
    await until('the call to be sent', () => c.openWork.taskOfferingCalls === 1);
    assert.deepEqual(c.openWork, { sessions: 1, answering: 0, receivedTasks: 0, taskOfferingCalls: 1, requests: 1 });
    await c.stop();
    assert.ok((await pending) instanceof Error, 'the call ended with the session');
    assert.deepEqual(c.openWork, { sessions: 0, answering: 0, receivedTasks: 0, taskOfferingCalls: 0, requests: 0 });
  } finally {
    await c.stop();
    c.dispose();
  }
});

test("a stop ends a 2026-07-28 task's question being answered, and the following of the task", async () => {
  const signals: AbortSignal[] = [];
  const c = new ServerConnection(stdioFixture('tasks-era2026-server.ts'), {
    log: new Logger(() => undefined, 'error'),
    stopGraceMs: 1000,
    elicitation: (_params, ctx) =>
      new Promise((_resolve, reject) => {
        signals.push(ctx.signal);
        ctx.signal.addEventListener('abort', () => reject(new Error('ended by the signal')), { once: true });
      }),
  });
  await c.start();
  try {
    const pending = callToolAsTask(c, 'ask_photo', {}).catch((e: unknown) => e);
    await until('the question of the task', () => signals.length === 1);
    await c.stop();
    assert.equal(signals[0]!.aborted, true, 'the question ends with the session');
    const error = await pending;
    assert.ok(error instanceof NotRunningError && /stopped while its task [\w-]+ ran \(stopped\)/.test(error.message), String(error));
    assert.equal(c.listenerCount, 0, 'the following let go of the connection');
  } finally {
    await c.stop();
    c.dispose();
  }
});

/** Whether a TCP connection to the port of `url` on 127.0.0.1 is refused. */
function refusesConnections(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(Number(new URL(url).port), '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

/** `promise`, or a failure naming `what` after `ms`. */
async function within<T>(what: string, promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs `body`, then fails if a promise was rejected with nobody to handle it meanwhile (or on the next turns). */
async function withoutUnhandledRejections(body: () => Promise<void>): Promise<void> {
  const unhandled: unknown[] = [];
  const record = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', record);
  try {
    await body();
    for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
  } finally {
    process.off('unhandledRejection', record);
  }
  assert.deepEqual(unhandled.map(String), [], 'no rejection is left unhandled');
}

test('dispose() alone ends a stdio server that ignores stdin and SIGTERM, fails the calls in flight at once (with a signal of the caller or without), and drops every listener', async () => {
  await withoutUnhandledRejections(async () => {
    const c = new ServerConnection(stdioFixture('sigterm-ignoring-server.ts'), { log: new Logger(() => undefined, 'error'), stopGraceMs: 30_000 });
    await c.start();
    const pid = stdioPidOf(c);
    c.onDidChangeState(() => undefined);
    const hanging = c.callTool('hang', {}).catch((e: unknown) => e);
    const caller = new AbortController();
    const hangingWithSignal = c.callTool('hang', {}, { signal: caller.signal }).catch((e: unknown) => e);
    await until('the calls to be sent', () => c.openWork.requests === 2);
    c.dispose();
    assert.equal(c.listenerCount, 0, 'the listeners are dropped at once');
    for (const error of [await hanging, await hangingWithSignal]) {
      assert.ok(error instanceof CallCancelledError && /the server was stopped/.test(error.message), String(error));
    }
    assert.equal(getEventListeners(caller.signal, 'abort').length, 0, "the caller's signal keeps no listener of the call");
    assert.equal(isAlive(pid), true, 'the call failed without waiting for the process to end');
    // The host-going-away sequence (stdin end, SIGTERM, SIGKILL, SHUTDOWN_GRACE_MS apart), not the 30 s stop grace.
    await until('the server process to be gone', () => !isAlive(pid), 3 * SHUTDOWN_GRACE_MS + 5000);
    await until('the session to end', () => c.openWork.sessions === 0, 5000);
    assert.deepEqual(c.openWork, { sessions: 0, answering: 0, receivedTasks: 0, taskOfferingCalls: 0, requests: 0 });
    c.dispose();
    await assert.rejects(c.start(), /shutting down/, 'a disposed connection starts no server');
  });
});

test("dispose() alone ends the session's received tasks and the server's requests being answered", async () => {
  await withoutUnhandledRejections(async () => {
    const signals: AbortSignal[] = [];
    const c = new ServerConnection(everythingStdio(), {
      log: new Logger(() => undefined, 'error'),
      stopGraceMs: 1000,
      capabilities: { taskRequests: true },
      sampling: (_request, ctx) =>
        new Promise((_resolve, reject) => {
          signals.push(ctx.signal);
          ctx.signal.addEventListener('abort', () => reject(new Error('ended by the signal')), { once: true });
        }),
    });
    await c.start();
    const pid = stdioPidOf(c);
    const plain = c.callTool('trigger-sampling-request', { prompt: 'plain' }).catch((e: unknown) => e);
    const asTask = c.callTool('trigger-sampling-request-async', { prompt: 'as a task' }).catch((e: unknown) => e);
    await until('both sampling requests', () => signals.length === 2 && c.openWork.receivedTasks === 1);
    c.dispose();
    assert.equal(c.openWork.receivedTasks, 0, 'the received task is ended at once');
    assert.equal(signals[1]!.aborted, true, 'the request sent as a task is ended at once');
    assert.ok((await plain) instanceof CallCancelledError);
    assert.ok((await asTask) instanceof CallCancelledError);
    await until('the server process to be gone', () => !isAlive(pid), 3 * SHUTDOWN_GRACE_MS + 5000);
    await until('the handlers and the session to end', () => c.openWork.answering === 0 && c.openWork.sessions === 0, 5000);
    assert.equal(signals[0]!.aborted, true, 'the plain request ends with the connection');
  });
});

test('stop() resolves once the server process exited; dispose() after it does nothing more', async () => {
  await withoutUnhandledRejections(async () => {
    const lines: string[] = [];
    const c = new ServerConnection(stdioFixture('sigterm-ignoring-server.ts', ['--exit-on-sigterm']), {
      log: new Logger((_level, message) => lines.push(message), 'info'),
      stopGraceMs: 300,
    });
    await c.start();
    const pid = stdioPidOf(c);
    await c.stop();
    assert.equal(isAlive(pid), false, 'the process exited before stop() resolved');
    assert.equal(c.state.kind, 'stopped');
    const logged = lines.length;
    c.dispose();
    c.dispose();
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(lines.slice(logged), [], 'nothing was stopped again');
    assert.equal(c.state.kind, 'stopped');
  });
});

test("the loopback receiver's dispose() ends the sign-in waiting there and closes the port and the browser's connection", async () => {
  await withoutUnhandledRejections(async () => {
    const receiver = await LoopbackRedirectReceiver.start();
    const waiting = receiver.waitForRedirect('state', 60_000).catch((e: unknown) => e);
    // A browser's connection in the middle of a request: a plain close would wait for it.
    const browser = connect(Number(new URL(receiver.redirectUrl).port), '127.0.0.1');
    await new Promise((resolve) => browser.once('connect', resolve));
    browser.write('GET /callback?state=state HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const browserClosed = new Promise((resolve) => browser.once('close', resolve));
    browser.on('error', () => undefined);
    receiver.dispose();
    assert.ok((await waiting) instanceof SignInCancelledError);
    assert.equal(await refusesConnections(receiver.redirectUrl), true, 'the port no longer accepts connections');
    await within("the browser's connection to be closed", browserClosed, 5000);
    receiver.dispose();
    await receiver.stop();
  });
});

test("the loopback receiver's stop() resolves once closed, and a dispose() after it does nothing", async () => {
  const receiver = await LoopbackRedirectReceiver.start();
  await fetch(receiver.redirectUrl);
  await receiver.stop();
  assert.equal(await refusesConnections(receiver.redirectUrl), true);
  receiver.dispose();
  await receiver.stop();
});

test("the sign-in provider's dispose() gives up the sign-in under way and closes its receiver; none is started after", async () => {
  await withoutUnhandledRejections(async () => {
    const opened: URL[] = [];
    const provider = new HostOAuthClientProvider({
      server: 'notes',
      serverUrl: 'http://127.0.0.1:9/mcp',
      store: new MemoryTokenStore(),
      log: new Logger(() => undefined, 'error'),
      ui: {
        openAuthorization: async ({ authorizationUrl }) => {
          opened.push(authorizationUrl);
        },
      },
    });
    await provider.prepare();
    const redirectUrl = provider.redirectUrl!;
    assert.equal(await refusesConnections(redirectUrl), false, 'the receiver listens');
    await provider.redirectToAuthorization(new URL('http://127.0.0.1:9/authorize?response_type=code&client_id=c&state=s'));
    assert.equal(opened.length, 1);
    const signIn = provider.pendingSignIn().catch((e: unknown) => e);
    provider.dispose();
    assert.ok((await signIn) instanceof SignInCancelledError, 'the sign-in under way is given up');
    assert.equal(await refusesConnections(redirectUrl), true, 'the port no longer accepts connections');
    await provider.prepare();
    assert.notEqual(provider.redirectUrl, redirectUrl, 'no receiver is started after dispose');
    provider.dispose();
    await provider.stop();
  });
});

test("the sign-in provider's stop() resolves once its receiver is closed", async () => {
  const provider = new HostOAuthClientProvider({
    server: 'notes',
    serverUrl: 'http://127.0.0.1:9/mcp',
    store: new MemoryTokenStore(),
    log: new Logger(() => undefined, 'error'),
    ui: { openAuthorization: async () => undefined },
  });
  await provider.prepare();
  const redirectUrl = provider.redirectUrl!;
  await provider.stop();
  assert.equal(await refusesConnections(redirectUrl), true);
  provider.dispose();
});
