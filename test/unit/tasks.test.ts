// Task-augmented tool calls (2025-11-25 tasks) against server-everything's simulate-research-query.
import { strict as assert } from 'node:assert';
import { getEventListeners } from 'node:events';
import { after, before, describe, test } from 'node:test';
import { CallCancelledError, CallTimeoutError, ServerConnection, ServerRequestError, type ElicitRequestParamsLoose } from '../../src/core/connection';
import { Logger } from '../../src/core/log';
import { callsAsTask, callToolAsTask, cancelTask, getTask, taskResult, taskSupportOf, type TaskInfo } from '../../src/core/tasks';
import { everythingStdio, stdioFixture } from '../fixtures/servers';

const text = (r: { content?: unknown[] } | undefined) => (r?.content ?? []).map((b) => (b as { text?: string }).text ?? '').join('');

describe('tasks (server-everything)', () => {
  const asked: ElicitRequestParamsLoose[] = [];
  const c = new ServerConnection(everythingStdio(), {
    log: new Logger(() => undefined, 'error'),
    stopGraceMs: 1000,
    elicitation: async (p) => {
      asked.push(p);
      return { action: 'accept', content: { interpretation: 'Python programming language' } };
    },
  });
  before(async () => {
    await c.start();
    for (let i = 0; i < 50 && !c.tools.some((t) => t.name === 'simulate-research-query'); i++) await new Promise((r) => setTimeout(r, 100));
  });
  after(() => c.stop());

  test('simulate-research-query requires a task, and the server runs tools as tasks', () => {
    const tool = c.tools.find((t) => t.name === 'simulate-research-query');
    assert.equal(taskSupportOf(tool), 'required');
    assert.equal(callsAsTask(c, tool), true);
    assert.equal(
      callsAsTask(
        c,
        c.tools.find((t) => t.name === 'echo'),
      ),
      false,
    );
  });

  test('runs to completion with status updates and returns the report', async () => {
    const statuses: TaskInfo[] = [];
    const caller = new AbortController();
    const out = await callToolAsTask(c, 'simulate-research-query', { topic: 'tides' }, { signal: caller.signal, onStatus: (t) => statuses.push(t) });
    assert.ok(out.task?.taskId);
    assert.equal(getEventListeners(caller.signal, 'abort').length, 0, 'no wait between polls left its listener on the signal');
    assert.match(text(out.result), /# Research Report: tides/);
    assert.ok(
      statuses.some((s) => /Gathering sources|Analyzing content/.test(s.statusMessage ?? '')),
      JSON.stringify(statuses),
    );
    const done = await getTask(c, out.task.taskId);
    assert.equal(done.status, 'completed');
  });

  test('input_required: the question comes through the elicitation handler, and the answer shapes the result', async () => {
    asked.length = 0;
    const statuses: string[] = [];
    const out = await callToolAsTask(c, 'simulate-research-query', { topic: 'python', ambiguous: true }, { onStatus: (t) => statuses.push(t.status) });
    assert.equal(asked.length, 1);
    assert.match(asked[0]!.message, /multiple interpretations/);
    assert.ok(statuses.includes('input_required'), statuses.join(','));
    assert.match(text(out.result), /Clarification\*\*: Python programming language/);
  });

  test('--no-wait style: the task id comes back at once; cancel ends it; an unknown id is named', async () => {
    const out = await callToolAsTask(c, 'simulate-research-query', { topic: 'waves' }, { wait: false });
    assert.equal(out.result, undefined);
    const id = out.task!.taskId;
    assert.equal((await getTask(c, id)).status, 'working');
    const cancelled = await cancelTask(c, id);
    assert.equal(cancelled.status, 'cancelled');
    await assert.rejects(getTask(c, 'no-such-task'), (e: Error) => e instanceof ServerRequestError && /has no task no-such-task/.test(e.message));
    await assert.rejects(taskResult(c, 'no-such-task', { timeoutMs: 5000 }), /no-such-task/);
  });

  test("the caller's signal cancels a running task (tasks/cancel)", async () => {
    const abort = new AbortController();
    let id = '';
    const pending = callToolAsTask(
      c,
      'simulate-research-query',
      { topic: 'storms' },
      {
        signal: abort.signal,
        onStatus: (t) => {
          id = t.taskId;
          if (t.statusMessage) abort.abort();
        },
      },
    );
    await assert.rejects(pending, (e: Error) => e instanceof CallCancelledError);
    assert.equal((await getTask(c, id)).status, 'cancelled');
  });
});

test('a task that never ends is given up after its ttl, cancelled, with a message naming the ttl', async () => {
  const c = new ServerConnection(stdioFixture('paged-server.ts'), { log: new Logger(() => undefined, 'error'), stopGraceMs: 1000 });
  await c.start();
  try {
    const started = Date.now();
    await assert.rejects(
      callToolAsTask(c, 'endless_task', {}),
      (e: Error) => e instanceof CallTimeoutError && /did not finish within its ttl \(2 s\); it was cancelled/.test(e.message),
    );
    assert.ok(Date.now() - started < 15_000);
    assert.equal((await getTask(c, 'endless-1')).status, 'cancelled');
  } finally {
    await c.stop();
  }
});
