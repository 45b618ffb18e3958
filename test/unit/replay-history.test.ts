// The History's bounds and what it never holds. Filled past its count and its size, the oldest runs go and no
// record or result is over its bound; runs made through the real pipeline against real servers (a file to the
// demo server, an image and an echoed secret input from server-everything, secure values to the SEP-3221
// fixture) are kept without the file's bytes, the image's bytes, the secure values or the secret input.
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { ServerConnection } from '../../src/core/connection';
import { findFileSlots, inlineLimitsFor } from '../../src/core/files';
import { pointer } from '../../src/core/forms';
import { Logger } from '../../src/core/log';
import {
  HISTORY_LIMITS,
  isCutResult,
  jsonBytes,
  keptArguments,
  newRecord,
  RECORD_LIMITS,
  withRun,
  type HistoryState,
  type RunRecord,
} from '../../src/core/replay';
import { FileChoices, runTool, type RunHooks, type RunRecorder } from '../../src/core/run';
import type { ResolvedServer } from '../../src/core/config/types';
import { everythingStdio, repoRoot, stdioFixture } from '../fixtures/servers';
import { tempDir } from '../helpers/tempDirs';

const empty = (): HistoryState => ({ runs: [], results: {} });
const run = (n: number, extra: Partial<RunRecord> = {}) =>
  newRecord({
    at: n,
    server: 'demo',
    tool: 'describe_file',
    by: n % 2 ? 'agent' : 'person',
    arguments: { n },
    files: [],
    secrets: [],
    outcome: 'success',
    durationMs: 1,
    ...extra,
  });
const textResult = (text: string): CallToolResult => ({ content: [{ type: 'text', text }] });

/** Checks every bound of a state: runs in count and bytes, each record, results in count (the newest runs') and bytes. */
function assertBounded(state: HistoryState): void {
  assert.ok(state.runs.length <= HISTORY_LIMITS.runs, `${state.runs.length} runs`);
  assert.ok(jsonBytes(state.runs[0]) <= HISTORY_LIMITS.runsBytes);
  const total = state.runs.reduce((n, r) => n + jsonBytes(r), 0);
  assert.ok(total <= HISTORY_LIMITS.runsBytes, `${total} bytes of runs`);
  for (const r of state.runs) assert.ok(jsonBytes(r) <= RECORD_LIMITS.recordBytes, `a record of ${jsonBytes(r)} bytes`);
  const ids = Object.keys(state.results);
  assert.ok(ids.length <= HISTORY_LIMITS.results, `${ids.length} results`);
  const newest = new Set(state.runs.slice(0, HISTORY_LIMITS.results).map((r) => r.id));
  for (const id of ids) assert.ok(newest.has(id), 'a result is kept only for one of the newest runs');
  for (const text of Object.values(state.results))
    assert.ok(Buffer.byteLength(text) <= HISTORY_LIMITS.resultBytes, `a result of ${Buffer.byteLength(text)} bytes`);
}

test('past its count the History lets the oldest runs go, and keeps results for the newest only', () => {
  let state = empty();
  const added: RunRecord[] = [];
  for (let n = 0; n < HISTORY_LIMITS.runs + 50; n++) {
    const record = run(n);
    added.push(record);
    state = withRun(state, record, textResult(`answer ${n}`));
    assertBounded(state);
  }
  assert.equal(state.runs.length, HISTORY_LIMITS.runs);
  assert.deepEqual(
    state.runs.map((r) => r.id),
    added
      .slice(-HISTORY_LIMITS.runs)
      .reverse()
      .map((r) => r.id),
    'the newest first; the 50 oldest gone',
  );
  assert.deepEqual(
    Object.keys(state.results).sort(),
    added
      .slice(-HISTORY_LIMITS.results)
      .map((r) => r.id)
      .sort(),
  );
  assert.match(state.results[added.at(-1)!.id]!, /answer 249/);
  assert.deepEqual(
    state.runs.slice(0, 2).map((r) => r.by),
    ['agent', 'person'],
    'who asked is kept',
  );
});

test('past its size the History lets the oldest runs go; no record, no result is over its bound', () => {
  let state = empty();
  const added: RunRecord[] = [];
  // Arguments just under the kept bound, in a character of 3 UTF-8 bytes: bytes are counted, not characters.
  const tool = { name: 't', inputSchema: { type: 'object' as const, properties: { note: { type: 'string' } } } };
  const large = keptArguments(tool, { note: '€'.repeat(Math.floor(RECORD_LIMITS.argumentsBytes / 3) - 20) }, [], undefined, (t) => t);
  assert.ok(large.arguments, 'under argumentsBytes, the arguments are kept');
  const tooLarge = keptArguments(tool, { note: '€'.repeat(Math.ceil(RECORD_LIMITS.argumentsBytes / 3) + 1) }, [], undefined, (t) => t);
  assert.equal(tooLarge.arguments, undefined);
  assert.match(tooLarge.argumentsNote!, /over the 32 KiB kept/);
  for (let n = 0; n < 80; n++) {
    const record = run(n, { arguments: large.arguments! });
    added.push(record);
    // Results over the bound too: a long text of 2-byte characters.
    state = withRun(state, record, textResult(`${n} ${'é'.repeat(50_000)}`));
    assertBounded(state);
  }
  const kept = state.runs.length;
  assert.ok(kept > 20 && kept < 40, `${kept} runs of about 32 KiB within 1 MiB`);
  assert.deepEqual(
    state.runs.map((r) => r.id),
    added
      .slice(-kept)
      .reverse()
      .map((r) => r.id),
    'the newest kept, the oldest gone',
  );
  const result = state.results[added.at(-1)!.id]!;
  assert.ok(isCutResult(result));
  assert.match(result, /^{\n {2}"content": \[\n/);
  assert.match(result, /\(cut: the result's JSON has \d+ bytes; 65536 are kept\)$/);

  // A record too large to keep whole (thousands of files with long paths, long names) is kept as a summary that
  // cannot be run again; the newest run always stays.
  const files = Array.from({ length: 2000 }, (_, i) => ({
    argument: 'images',
    path: `/work/${'deep/'.repeat(20)}${i}.png`,
    size: 10,
    mediaType: 'image/png',
    sha256: 'x'.repeat(43),
  }));
  const huge = run(1000, { files, tool: 't'.repeat(100_000), secrets: Array.from({ length: 500 }, (_, i) => `secret_${i}`) });
  assert.ok(jsonBytes(huge) <= RECORD_LIMITS.recordBytes, `${jsonBytes(huge)} bytes`);
  assert.equal(huge.arguments, undefined);
  assert.deepEqual(huge.files, []);
  assert.match(
    huge.argumentsNote!,
    /^the run's record \(\d+ bytes of JSON, 2000 files\) is over the 48 KiB kept of a run; its arguments and files are not kept$/,
  );
  state = withRun(state, huge, textResult('ok'));
  assertBounded(state);
  assert.equal(state.runs[0]!.id, huge.id);
  // An error is cut.
  assert.equal(run(1, { outcome: 'failed', error: 'e'.repeat(5000) }).error!.length, RECORD_LIMITS.errorChars);
});

describe('runs through the real pipeline', () => {
  const dir = tempDir('mcp-replay-history-');
  const photo = join(dir, 'photo.png');
  copyFileSync(join(repoRoot, 'examples', 'workspace', 'photo.png'), photo);
  const photoBase64 = readFileSync(photo).toString('base64');
  const INPUT_SECRET = 'input-secret-5b2f81c4';
  const SECURE = { tenant: 'tenant-c09e77', api_key: 'sk-fixture-good' };
  const connect = (server: ResolvedServer) => new ServerConnection(server, { log: new Logger(() => undefined, 'error'), stopGraceMs: 1000 });
  const demo = connect({
    name: 'demo',
    transport: 'stdio',
    command: process.execPath,
    args: ['--import', 'tsx', join(repoRoot, 'examples', 'demo-server', 'server.ts')],
    env: { ...process.env } as Record<string, string>,
    cwd: repoRoot,
  });
  // A secret input of the mcp.json (a password input) is one of the connection's secrets.
  const everything = connect({ ...everythingStdio(), secrets: [INPUT_SECRET] });
  const secure = connect(stdioFixture('secure-era2025-server.ts'));
  const connections = [demo, everything, secure];
  before(() => Promise.all(connections.map((c) => c.start())));
  after(() => Promise.all(connections.map((c) => c.stop())));

  test('the History holds no file bytes, secure values or secret inputs: a file is its path, size, type and sha-256', { timeout: 60_000 }, async () => {
    let state = empty();
    const recorder = (by: RunRecorder['by']): RunRecorder => ({
      by,
      keep: (record, result) => {
        state = withRun(state, record, result);
      },
    });
    const hooks = (by: RunRecorder['by']): RunHooks => ({
      elicitation: { form: () => Promise.reject(new Error('no form expected')), url: () => Promise.reject(new Error('no URL expected')) },
      encode: { workspaceRoots: [dir], serverIsLocalStdio: true },
      timeoutMs: 30_000,
      record: recorder(by),
    });
    const toolOf = (c: ServerConnection, name: string) => c.tools.find((t) => t.name === name)!;

    // A file to the demo server: its bytes are sent as a data: URI, and kept as none of them.
    const describeFile = toolOf(demo, 'describe_file');
    const { slots } = findFileSlots(describeFile);
    const files = new FileChoices(slots, () => inlineLimitsFor('stdio'));
    assert.ok((await files.add(pointer(slots[0]!.path), [photo])).ok);
    const described = await runTool(demo, { tool: describeFile, input: { json: {} }, files }, hooks('person'));
    assert.match(JSON.stringify(described.result), /64 × 48 pixels/);
    // An image's bytes in the result, and a secret input echoed back.
    await runTool(everything, { tool: toolOf(everything, 'get-tiny-image'), input: { json: {} } }, hooks('agent'));
    const echoed = await runTool(everything, { tool: toolOf(everything, 'echo'), input: { json: { message: `token ${INPUT_SECRET}` } } }, hooks('person'));
    assert.match(JSON.stringify(echoed.result), new RegExp(INPUT_SECRET), 'the server echoed the secret input');
    // SEP-3221 secure values, sent apart from the arguments.
    const queried = await runTool(secure, { tool: toolOf(secure, 'query'), input: { json: { sql: 'select 1' } }, secureArguments: SECURE }, hooks('agent'));
    assert.match(JSON.stringify(queried.result), /for tenant-c09e77/, 'the server got the secure values (and echoed one)');

    assert.deepEqual(
      state.runs.map((r) => [r.server, r.tool, r.by, r.outcome]),
      [
        ['secure-era2025-server', 'query', 'agent', 'success'],
        ['everything', 'echo', 'person', 'success'],
        ['everything', 'get-tiny-image', 'agent', 'success'],
        ['demo', 'describe_file', 'person', 'success'],
      ],
    );
    const sha256 = createHash('sha256').update(readFileSync(photo)).digest('base64url');
    assert.deepEqual(state.runs[3]!.files, [{ argument: 'file', path: photo, size: 7214, mediaType: 'image/png', sha256 }]);
    assert.deepEqual(state.runs[3]!.arguments, {});
    assert.deepEqual(state.runs[1]!.arguments, { message: 'token ********' });
    assert.deepEqual(state.runs[0]!.arguments, { sql: 'select 1' });
    assertBounded(state);

    const stored = JSON.stringify(state);
    assert.doesNotMatch(stored, /data:image/);
    for (let at = 0; at + 64 <= photoBase64.length; at += 64) assert.ok(!stored.includes(photoBase64.slice(at, at + 64)), "no run holds the file's bytes");
    const tiny = (await everything.callTool('get-tiny-image', {})).content.find((c) => c.type === 'image') as { data: string };
    assert.ok(!stored.includes(tiny.data.slice(0, 64)), "no kept result holds the image's bytes");
    assert.match(state.results[state.runs[2]!.id]!, /"data": "\[\d+ bytes base64\]"/);
    for (const secret of [INPUT_SECRET, SECURE.tenant, SECURE.api_key]) assert.ok(!stored.includes(secret), `the History does not hold ${secret}`);
  });
});
