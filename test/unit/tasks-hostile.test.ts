// Tasks from servers that misbehave, through the CLI and core, on both wires (2025-11-25 tasks:
// test/fixtures/hostile-tasks-server.ts; the 2026-07-28 Tasks extension: tasks-era2026-server.ts): a task that
// stays `working` for ever is given up at the call's time limit and cancelled; an answer about another task
// is a protocol error naming the server, and that other task's result is never fetched or printed.
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { CallTimeoutError, ServerConnection, ServerRequestError } from '../../src/core/connection';
import { Logger } from '../../src/core/log';
import { callToolAsTask, TASK_CANCEL_WAIT_MS } from '../../src/core/tasks';
import { runCli } from '../fixtures/cli';
import { repoRoot, stdioFixture, fixtureArgv } from '../fixtures/servers';

const dir = mkdtempSync(join(tmpdir(), 'tasks-hostile-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let runs = 0;

interface Recorded {
  method: string;
  name?: string;
  taskId?: string;
  at: number;
}

/** Runs the CLI against a fixture that records what it received; returns the run, the record and the time it took. */
async function cliAgainst(fixture: 'hostile-tasks-server.ts' | 'tasks-era2026-server.ts', argv: string[]) {
  const record = join(dir, `record-${++runs}.jsonl`);
  const env = { HOSTILE_TASKS_RECORD: record, TASKS_FIXTURE_RECORD: record };
  const run = await runCli([...argv, '--', process.execPath, ...fixtureArgv(fixture)], env, repoRoot);
  const ended = Date.now();
  const received = existsSync(record)
    ? readFileSync(record, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Recorded)
    : [];
  return { ...run, received, ended };
}

// The time limit is 3 s; on a loaded machine the host may be late by this much (it is never early).
const LIMIT_MS = 3000;
const SLACK_MS = 3000;

for (const [wire, fixture, tool] of [
  ['2025-11-25 tasks', 'hostile-tasks-server.ts', 'stuck'],
  ['2026-07-28 Tasks extension', 'tasks-era2026-server.ts', 'forever'],
] as const) {
  test(`${wire}: a task that stays working for ever ends at --timeout with tasks/cancel, and the CLI exits`, async () => {
    const r = await cliAgainst(fixture, ['call', tool, '--timeout', String(LIMIT_MS)]);
    assert.equal(r.code, 4, r.err);
    assert.match(r.err, /did not finish within 3000 ms \(the call's time limit\); it was cancelled/);
    assert.equal(r.out, '');
    const call = r.received.find((x) => x.method === 'tools/call');
    const cancels = r.received.filter((x) => x.method === 'tasks/cancel');
    assert.ok(call, JSON.stringify(r.received));
    assert.equal(cancels.length, 1, 'the server was told to cancel the task once');
    const waited = cancels[0]!.at - call.at;
    assert.ok(waited >= LIMIT_MS - 100 && waited < LIMIT_MS + SLACK_MS, `tasks/cancel came ${waited} ms after the call`);
    assert.ok(r.ended - call.at < LIMIT_MS + SLACK_MS + 2000, `the CLI ended ${r.ended - call.at} ms after the call`);
    const polls = r.received.filter((x) => x.method === 'tasks/get').length;
    assert.ok(polls >= 3 && polls <= LIMIT_MS / 200 + 1, `${polls} polls within the limit (never faster than every 200 ms)`);
  });
}

test('2025-11-25 tasks: a server that never answers tasks/cancel does not hold the CLI past the limit and the cancel wait', async () => {
  const r = await cliAgainst('hostile-tasks-server.ts', ['call', 'stuck_cancel', '--timeout', String(LIMIT_MS)]);
  assert.equal(r.code, 4, r.err);
  assert.match(r.err, /task stuck_cancel-\d+ of "[^"]+" did not finish within 3000 ms/);
  const call = r.received.find((x) => x.method === 'tools/call')!;
  assert.equal(r.received.filter((x) => x.method === 'tasks/cancel').length, 1);
  assert.ok(r.ended - call.at < LIMIT_MS + TASK_CANCEL_WAIT_MS + SLACK_MS + 2000, `the CLI ended ${r.ended - call.at} ms after the call`);
});

for (const [wire, fixture, tool] of [
  ['2025-11-25 tasks', 'hostile-tasks-server.ts', 'impostor'],
  ['2026-07-28 Tasks extension', 'tasks-era2026-server.ts', 'impostor'],
] as const) {
  test(`${wire}: tasks/get answered about another task is a protocol error naming the server; the other task's result is not used`, async () => {
    const r = await cliAgainst(fixture, ['call', tool]);
    assert.equal(r.code, 5, r.err);
    assert.match(r.err, /"[^"]+" broke the protocol: asked tasks\/get for task "[^"]+", it answered about task "[^"]+"; the answer was not used/);
    assert.doesNotMatch(r.out + r.err, /someone else's result/);
    const asked = r.received.find((x) => x.method === 'tasks/get')!.taskId;
    assert.ok(
      r.received.filter((x) => x.method.startsWith('tasks/')).every((x) => x.taskId === asked),
      `every tasks/* request was about the task the call created: ${JSON.stringify(r.received)}`,
    );
    assert.equal(r.received.filter((x) => x.method === 'tasks/result').length, 0, 'no result was fetched');
    assert.equal(r.received.filter((x) => x.method === 'tasks/cancel').length, 1, 'the host gave the task up and cancelled it');
  });
}

test('2025-11-25 tasks: tasks/result whose related-task is another task is a protocol error', async () => {
  const r = await cliAgainst('hostile-tasks-server.ts', ['call', 'misfiled']);
  assert.equal(r.code, 5, r.err);
  assert.match(r.err, /broke the protocol: asked tasks\/result for task "misfiled-\d+", it answered about task "someone-else-\d+"/);
  assert.doesNotMatch(r.out, /someone else's result/);
});

test('core: waitMs bounds the whole wait on a task with no ttl; the caller gets CallTimeoutError naming the server', async () => {
  const record = join(dir, 'core.jsonl');
  const server = stdioFixture('hostile-tasks-server.ts', [], 'hostile-tasks');
  server.env = { ...server.env, HOSTILE_TASKS_RECORD: record };
  const c = new ServerConnection(server, { log: new Logger(() => undefined, 'error'), stopGraceMs: 1000 });
  await c.start();
  try {
    const statuses: string[] = [];
    await assert.rejects(
      callToolAsTask(c, 'stuck', {}, { waitMs: 1000, onStatus: (t) => statuses.push(t.status) }),
      (e: Error) => e instanceof CallTimeoutError && /^task stuck-\d+ of "hostile-tasks" did not finish within 1000 ms/.test(e.message),
    );
    assert.deepEqual(statuses, ['working']);
    await assert.rejects(
      callToolAsTask(c, 'impostor', {}),
      (e: Error) => e instanceof ServerRequestError && /^"hostile-tasks" broke the protocol/.test(e.message),
    );
  } finally {
    await c.stop();
  }
  const received = readFileSync(record, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Recorded);
  assert.deepEqual(
    received.filter((x) => x.method === 'tasks/cancel').map((x) => x.taskId?.replace(/\d+$/, 'N')),
    ['stuck-N', 'impostor-N'],
  );
});
