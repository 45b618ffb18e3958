// Task-augmented tool calls of a 2026-07-28 server through the Tasks extension `io.modelcontextprotocol/tasks`
// (test/fixtures/tasks-era2026-server.ts): the same host-side model and tests as the 2025-11-25 tasks.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CallCancelledError, CallTimeoutError, ServerConnection, ServerRequestError, type ElicitRequestParamsLoose } from '../../src/core/connection';
import { Logger } from '../../src/core/log';
import { findElicitationFileFields } from '../../src/core/files';
import { callsAsTask, callToolAsTask, cancelTask, getTask, needsTasksExtension, taskResult, taskWireOf, type TaskInfo } from '../../src/core/tasks';
import { stdioFixture } from '../fixtures/servers';

const text = (r: { content?: unknown[] } | undefined) => (r?.content ?? []).map((b) => (b as { text?: string }).text ?? '').join('');
const PNG = `data:image/png;base64,${Buffer.from('\x89PNG\r\n\x1a\n0123456789').toString('base64')}`;

describe('tasks (2026-07-28 Tasks extension)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tasks-ext-'));
  const recordFile = join(dir, 'record.jsonl');
  const asked: ElicitRequestParamsLoose[] = [];
  const server = stdioFixture('tasks-era2026-server.ts');
  server.env = { ...server.env, TASKS_FIXTURE_RECORD: recordFile, TASKS_FIXTURE_STEP_MS: '300' };
  const c = new ServerConnection(server, {
    log: new Logger(() => undefined, 'error'),
    stopGraceMs: 1000,
    elicitation: async (p) => {
      asked.push(p);
      return { action: 'accept', content: { photo: PNG } };
    },
  });
  const recorded = () =>
    readFileSync(recordFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  before(() => c.start());
  after(async () => {
    await c.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the extension is negotiated: every call may be a task unless plain calls are asked for', () => {
    assert.equal(c.state.kind === 'running' && c.state.era, 'modern');
    assert.equal(taskWireOf(c), 'extension');
    const tool = c.tools.find((t) => t.name === 'research');
    assert.equal(callsAsTask(c, tool), true);
    assert.equal(callsAsTask(c, tool, false), false);
  });

  test('runs to completion with status updates and returns the report', async () => {
    const statuses: TaskInfo[] = [];
    const out = await callToolAsTask(c, 'research', { topic: 'tides' }, { onStatus: (t) => statuses.push(t) });
    assert.ok(out.task?.taskId);
    assert.equal(out.task.ttl, 60_000);
    assert.equal(out.task.pollInterval, 100);
    assert.match(text(out.result), /# Research Report: tides/);
    assert.ok(
      statuses.some((s) => /Analyzing content \(2\/3\)/.test(s.statusMessage ?? '')),
      JSON.stringify(statuses),
    );
    assert.equal((await getTask(c, out.task.taskId)).status, 'completed');
    assert.equal(recorded().find((r) => r.name === 'research')?.offersTasks, true);
  });

  test('a server may answer a task-offering call at once', async () => {
    const out = await callToolAsTask(c, 'quick', {});
    assert.equal(out.task, undefined);
    assert.equal(text(out.result), 'quick answer');
  });

  test('input_required: the file field reaches the elicitation handler once, and tasks/update carries the answer', async () => {
    asked.length = 0;
    const statuses: string[] = [];
    const out = await callToolAsTask(c, 'ask_photo', {}, { onStatus: (t) => statuses.push(t.status) });
    assert.equal(asked.length, 1, 'asked once although polls repeat the question');
    assert.equal(asked[0]!.message, 'Pick a photo for the task');
    const fields = findElicitationFileFields(asked[0]!.requestedSchema);
    assert.deepEqual(
      fields.slots.map((s) => [s.label, s.accept, s.maxSize]),
      [['photo', ['image/png'], 1000]],
    );
    assert.ok(statuses.includes('input_required'), statuses.join(','));
    assert.match(text(out.result), new RegExp(`^got data:image/png;base64, ${PNG.length} chars$`));
    assert.deepEqual(
      recorded()
        .filter((r) => r.method === 'tasks/update:responses')
        .map((r) => r.responses),
      [{ photo: 'accept' }],
    );
  });

  test("a plain call withdraws the offer, and the server's refusal says a task is needed", async () => {
    await assert.rejects(c.callTool('research', { topic: 'x' }), (e: Error) => needsTasksExtension(e) && /Missing required client capability/.test(e.message));
    assert.equal(
      recorded()
        .filter((r) => r.name === 'research')
        .at(-1)?.offersTasks,
      false,
    );
    assert.equal(text(await c.callTool('quick', {})), 'quick answer');
  });

  test("a failed task is an error carrying the server's JSON-RPC error", async () => {
    await assert.rejects(
      callToolAsTask(c, 'broken', {}),
      (e: Error) => e instanceof ServerRequestError && e.code === -32603 && /failed: API rate limit exceeded/.test(e.message),
    );
  });

  test('--no-wait style: the id comes back at once; cancel ends it; result waits; an unknown id is named', async () => {
    const out = await callToolAsTask(c, 'research', { topic: 'waves' }, { wait: false });
    assert.equal(out.result, undefined);
    const id = out.task!.taskId;
    assert.equal((await getTask(c, id)).status, 'working');
    assert.equal((await cancelTask(c, id)).status, 'cancelled');
    await assert.rejects(taskResult(c, id, { timeoutMs: 5000 }), (e: Error) => e instanceof CallCancelledError && /cancelled by the client/.test(e.message));

    const next = await callToolAsTask(c, 'research', { topic: 'reefs' }, { wait: false });
    assert.match(text(await taskResult(c, next.task!.taskId, { timeoutMs: 10_000 })), /Research Report: reefs/);

    await assert.rejects(getTask(c, 'no-such-task'), (e: Error) => e instanceof ServerRequestError && /has no task no-such-task/.test(e.message));
    await assert.rejects(cancelTask(c, 'no-such-task'), /has no task no-such-task/);
    await assert.rejects(taskResult(c, 'no-such-task', { timeoutMs: 5000 }), /has no task no-such-task/);
  });

  test("the caller's signal cancels a running task (tasks/cancel)", async () => {
    const abort = new AbortController();
    let id = '';
    const pending = callToolAsTask(
      c,
      'research',
      { topic: 'storms' },
      {
        signal: abort.signal,
        onStatus: (t) => {
          id = t.taskId;
          if (t.statusMessage?.includes('Analyzing')) abort.abort();
        },
      },
    );
    await assert.rejects(pending, (e: Error) => e instanceof CallCancelledError);
    assert.equal((await getTask(c, id)).status, 'cancelled');
  });

  test('a task that never ends is given up after its ttl, cancelled, with a message naming the ttl', async () => {
    const started = Date.now();
    let id = '';
    await assert.rejects(
      callToolAsTask(
        c,
        'endless',
        {},
        {
          onStatus: (t) => {
            id = t.taskId;
          },
        },
      ),
      (e: Error) => e instanceof CallTimeoutError && /did not finish within its ttl \(2 s\); it was cancelled/.test(e.message),
    );
    assert.ok(Date.now() - started < 15_000);
    assert.equal((await getTask(c, id)).status, 'cancelled');
  });
});
