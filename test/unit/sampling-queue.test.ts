// Sampling requests take turns (src/core/sampling/queue.ts): a server that sends many at once gets a few answered
// at a time, a bounded number waiting, and the rest refused with a reason. The CLI's --sampling-command is
// counted by a recording command; VS Code's queue (one panel per server) is the same core, tested here in Node.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { samplingResult, type SamplingRequest, type SamplingResult } from '../../src/core/sampling';
import { queuedSamplingHandler, SAMPLING_QUEUE_LIMITS, SamplingQueue, SamplingQueueFullError } from '../../src/core/sampling/queue';
import { runCli } from '../fixtures/cli';
import { repoRoot, fixtureArgv } from '../fixtures/servers';

const dir = mkdtempSync(join(tmpdir(), 'sampling-queue-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The most lines of `+` not yet matched by a `-`, in the order the processes appended them. */
function mostAtOnce(log: string): number {
  let now = 0;
  let most = 0;
  for (const line of log.split('\n')) {
    if (line === '+') most = Math.max(most, ++now);
    if (line === '-') now--;
  }
  return most;
}

test('CLI: 1,000 sampling requests at once run --sampling-command 4 at a time, 50 wait, the rest are refused with the reason', async () => {
  const record = join(dir, 'running.log');
  const refusedLog = join(dir, 'refused.log');
  const script = join(dir, 'sampler.sh');
  const { running, waiting } = SAMPLING_QUEUE_LIMITS.cli;
  // Each command first waits (15 s at most, once) until the requests beyond the limits have been refused: on a busy
  // machine the 1,000 requests reach the host over a while, and a command ending before the last of them arrived
  // would make room for one more.
  writeFileSync(
    script,
    [
      'i=0',
      'while [ ! -e "$SAMPLER_REFUSED.gave-up" ] && [ "$(cat "$SAMPLER_REFUSED" 2>/dev/null | wc -l)" -lt "$SAMPLER_REFUSALS" ]; do',
      '  i=$((i + 1)); if [ $i -ge 150 ]; then touch "$SAMPLER_REFUSED.gave-up"; fi; sleep 0.1',
      'done',
      'echo + >> "$SAMPLER_RECORD"',
      'cat > /dev/null',
      'sleep 0.2',
      'echo - >> "$SAMPLER_RECORD"',
      'echo \'{"role":"assistant","content":{"type":"text","text":"ok"},"model":"recorder"}\'',
    ].join('\n'),
  );
  const params = JSON.stringify({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 10 });
  const r = await runCli(
    [
      'call',
      'sample_many',
      '--args',
      JSON.stringify({ params, count: 1000, refusedLog }),
      '--sampling-command',
      `sh ${script}`,
      '--',
      process.execPath,
      ...fixtureArgv('sampling-server.ts'),
    ],
    { SAMPLER_RECORD: record, SAMPLER_REFUSED: refusedLog, SAMPLER_REFUSALS: String(1000 - running - waiting) },
    repoRoot,
  );
  assert.equal(r.code, 0, r.err);
  const counted = JSON.parse(r.out) as Record<string, number>;
  assert.equal(counted.answered, running + waiting, r.out);
  const refusals = Object.entries(counted).filter(([k]) => k !== 'answered');
  assert.equal(
    refusals.reduce((n, [, v]) => n + v, 0),
    1000 - running - waiting,
  );
  for (const [message] of refusals) {
    assert.match(
      message,
      /Sampling request refused by the host: "[^"]+" already has 4 sampling requests being answered and 50 waiting, the most the host holds \(4 at a time, 50 waiting\)/,
    );
  }
  const log = readFileSync(record, 'utf8');
  assert.equal(log.split('\n').filter((l) => l === '+').length, running + waiting, 'one command per answered request');
  assert.equal(mostAtOnce(log), running, 'never more than 4 commands at once');
});

const request: SamplingRequest = { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 10 };

/** A handler that answers when told to, counting how many it answers at once. */
function heldHandler() {
  let now = 0;
  const state = { most: 0, started: [] as string[], release: [] as (() => void)[] };
  const handler = async (_r: SamplingRequest, ctx: { server: string; signal: AbortSignal }): Promise<SamplingResult> => {
    state.most = Math.max(state.most, ++now);
    state.started.push(ctx.server);
    await new Promise<void>((resolve) => state.release.push(resolve));
    now--;
    return samplingResult({ text: 'ok', toolUses: [], model: 'm' });
  };
  return { handler, state };
}

const settle = () => new Promise((r) => setImmediate(r));

test("VS Code's queue: one request of a server at a time, 20 waiting in order, the rest refused; another server is not held up", async () => {
  const { handler, state } = heldHandler();
  const { running, waiting } = SAMPLING_QUEUE_LIMITS.panel;
  assert.equal(running, 1, 'one approval panel per server at a time');
  const first = queuedSamplingHandler(handler, SAMPLING_QUEUE_LIMITS.panel);
  const second = queuedSamplingHandler(handler, SAMPLING_QUEUE_LIMITS.panel);
  const signal = () => new AbortController().signal;
  const outcomes = Array.from({ length: 30 }, (_, i) =>
    first(request, { server: `a${i}`, signal: signal() }).then(
      () => 'answered',
      (e: Error) => e,
    ),
  );
  const other = second(request, { server: 'b', signal: signal() });
  await settle();
  assert.deepEqual(state.started, ['a0', 'b'], 'one request of each server runs');
  for (let i = 0; i < 30 && state.release.length; i++) {
    state.release.shift()!();
    await settle();
  }
  await other;
  const settled = await Promise.all(outcomes);
  assert.equal(settled.filter((o) => o === 'answered').length, running + waiting);
  const refused = settled.filter((o): o is Error => o instanceof Error);
  assert.equal(refused.length, 30 - running - waiting);
  assert.ok(
    refused.every((e) => e instanceof SamplingQueueFullError && /^"a\d+" already has 1 sampling request being answered and 20 waiting/.test(e.message)),
  );
  assert.deepEqual(
    state.started.filter((s) => s !== 'b'),
    Array.from({ length: 21 }, (_, i) => `a${i}`),
    'in the order they came',
  );
  assert.equal(state.most, 2, 'the two servers at once, never two of one');
});

test('a request whose server cancels it while it waits leaves the queue at once; the queue empties', async () => {
  const queue = new SamplingQueue({ running: 1, waiting: 2 });
  let release: (() => void) | undefined;
  const running = queue.run(
    's',
    new AbortController().signal,
    () =>
      new Promise<string>((r) => {
        release = () => r('first');
      }),
  );
  const cancel = new AbortController();
  const cancelled = queue.run('s', cancel.signal, async () => 'never');
  const third = queue.run('s', new AbortController().signal, async () => 'third');
  assert.deepEqual(queue.counts, { running: 1, waiting: 2 });
  cancel.abort();
  await assert.rejects(cancelled, /the server cancelled the request while it waited its turn/);
  assert.deepEqual(queue.counts, { running: 1, waiting: 1 });
  await settle();
  release!();
  assert.equal(await running, 'first');
  assert.equal(await third, 'third');
  assert.deepEqual(queue.counts, { running: 0, waiting: 0 });
  await assert.rejects(
    queue.run('s', AbortSignal.abort(), async () => 'x'),
    /the server cancelled the request/,
  );
  assert.deepEqual(queue.counts, { running: 0, waiting: 0 });
});
