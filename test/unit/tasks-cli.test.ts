// `mcp-host` and tasks of both shapes: optional tools as tasks or not (--no-optional-tasks), and the 2026-07-28
// Tasks extension through call, --no-wait and task get|result|cancel.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runCli } from '../fixtures/cli';
import { repoRoot, fixtureArgv } from '../fixtures/servers';

const PAGED = ['--', process.execPath, ...fixtureArgv('paged-server.ts')];
const TASKS_2026 = ['--', process.execPath, ...fixtureArgv('tasks-era2026-server.ts')];
const dir = mkdtempSync(join(tmpdir(), 'tasks-cli-'));
const recordFile = join(dir, 'record.jsonl');
const cli = (argv: string[]) => runCli(argv, { TASKS_FIXTURE_RECORD: recordFile, TASKS_FIXTURE_STEP_MS: '200' }, repoRoot);
const calls = () =>
  readFileSync(recordFile, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((r) => r.method === 'tools/call');
after(() => rmSync(dir, { recursive: true, force: true }));

test('a tool whose taskSupport is optional runs as a task by default; --no-optional-tasks calls it plainly', async () => {
  const asTask = await cli(['call', 'maybe_task', ...PAGED]);
  assert.equal(asTask.code, 0, asTask.err);
  assert.equal(asTask.out, 'maybe_task as a task\n');
  assert.match(asTask.err, /^task maybe-1: completed$/m);
  const plain = await cli(['call', 'maybe_task', '--no-optional-tasks', ...PAGED]);
  assert.equal(plain.code, 0, plain.err);
  assert.equal(plain.out, 'maybe_task plainly\n');
  assert.doesNotMatch(plain.err, /task maybe-1/);
});

test('2026-07-28 Tasks extension: call follows the task with status lines; a plain call refused without a task is made again as one', async () => {
  const r = await cli(['call', 'research', '--args', '{"topic":"tides"}', ...TASKS_2026]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /# Research Report: tides/);
  assert.match(r.err, /^task [\w-]+: working — Analyzing content \(2\/3\)$/m);
  const before = calls().length;
  const plain = await cli(['call', 'research', '--args', '{"topic":"reefs"}', '--no-optional-tasks', ...TASKS_2026]);
  assert.equal(plain.code, 0, plain.err);
  assert.match(plain.out, /# Research Report: reefs/);
  assert.deepEqual(
    calls()
      .slice(before)
      .map((c) => c.offersTasks),
    [false, true],
    'plain first, then as a task',
  );
  const quick = await cli(['call', 'quick', '--no-optional-tasks', ...TASKS_2026]);
  assert.equal(quick.out, 'quick answer\n');
  assert.equal(calls().at(-1)?.offersTasks, false);
});

test('2026-07-28 Tasks extension: --no-wait prints the id; task get, result and cancel; a failed task exits non-zero with its error', async () => {
  // Each CLI run is a new connection; the stdio fixture keeps its tasks per process, so one call shows the id only.
  const noWait = await cli(['call', 'research', '--args', '{"topic":"waves"}', '--no-wait', ...TASKS_2026]);
  assert.equal(noWait.code, 0, noWait.err);
  assert.match(noWait.out, /^[\w-]{36}\n$/);
  const unknown = await cli(['task', 'get', 'nope', ...TASKS_2026]);
  assert.equal(unknown.code, 5);
  assert.match(unknown.err, /has no task nope \(unknown, or expired after its ttl\)/);
  const result = await cli(['task', 'result', 'nope', ...TASKS_2026]);
  assert.notEqual(result.code, 0);
  assert.match(result.err, /has no task nope/);
  const cancel = await cli(['task', 'cancel', 'nope', ...TASKS_2026]);
  assert.match(cancel.err, /has no task nope/);
  const broken = await cli(['call', 'broken', ...TASKS_2026]);
  assert.notEqual(broken.code, 0);
  assert.match(broken.err, /failed: API rate limit exceeded/);
});
