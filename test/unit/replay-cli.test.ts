// `mcp-host call --record` and `mcp-host run` against real servers: server-everything (its get-env answer
// changes when the mcp.json gives the server another environment) and the demo server (a file argument, refused
// once the file changed since it was recorded). JUnit output is parsed by a strict XML parser.
import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync, mkdirSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseSavedCalls } from '../../src/core/replay';
import { runCli } from '../fixtures/cli';
import { demoServerArgv, fixtureArgv, repoRoot } from '../fixtures/servers';
import { tempDir } from '../helpers/tempDirs';

// A strict XML parser (installed with the packaging tools): a report it cannot parse is not well-formed.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { parseStringPromise } = require('xml2js') as { parseStringPromise(xml: string, o: { strict: boolean }): Promise<unknown> };

const workspace = tempDir('mcp-replay-cli-');
const vscodeDir = join(workspace, '.vscode');
mkdirSync(vscodeDir, { recursive: true });
const config = join(vscodeDir, 'mcp.json');
const calls = join(vscodeDir, 'mcp-calls.json');
const everything = join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

function writeConfig(greeting: string): void {
  writeFileSync(
    config,
    JSON.stringify({
      servers: {
        everything: { command: process.execPath, args: [everything, 'stdio'], env: { GREETING: greeting } },
        demo: { command: process.execPath, args: demoServerArgv(), cwd: repoRoot },
      },
    }),
  );
}

test("a recorded call runs again and passes; after the server's answer changes it fails with the difference", { timeout: 120_000 }, async () => {
  writeConfig('hello');
  const rec = await runCli(['call', 'get-env', '--server', 'everything', '--record', calls, '--expect-current'], {}, workspace);
  assert.equal(rec.code, 0, rec.err);
  assert.match(rec.err, /recorded "get-env" in .*mcp-calls\.json/);
  const sum = await runCli(
    ['call', 'get-structured-content', '--server', 'everything', '--args', '{"location":"Chicago"}', '--record', calls, '--expect-current'],
    {},
    workspace,
  );
  assert.equal(sum.code, 0, sum.err);
  const saved = parseSavedCalls(readFileSync(calls, 'utf8'), calls);
  assert.deepEqual(
    saved.calls.map((c) => c.name),
    ['get-env', 'get-structured-content'],
  );
  assert.equal(
    saved.calls[1]!.expect?.structuredContent?.equals && (saved.calls[1]!.expect.structuredContent.equals as { temperature: number }).temperature,
    36,
  );

  const junit = join(workspace, 'report.xml');
  const pass = await runCli(['run', calls, '--junit', junit, '--parallel', '2'], {}, workspace);
  assert.equal(pass.code, 0, pass.out + pass.err);
  assert.match(pass.out, /^pass  get-env  \(everything\/get-env, \d+ ms\)$/m);
  assert.match(pass.out, /2 passed, 0 failed, 0 could not run/);
  const passed = (await parseStringPromise(readFileSync(junit, 'utf8'), { strict: true })) as { testsuites: { $: Record<string, string> } };
  assert.equal(passed.testsuites.$.tests, '2');
  assert.equal(passed.testsuites.$.failures, '0');

  // The server now runs with another environment: its answer changed.
  writeConfig('bonjour');
  const fail = await runCli(['run', calls, '--junit', junit], {}, workspace);
  assert.equal(fail.code, 5, fail.out + fail.err);
  assert.match(fail.out, /^FAIL  get-env  /m);
  assert.match(
    fail.out,
    /text: line \d+ of the expected text, " *\\"GREETING\\": \\"hello\\",?", is not in the result; the text's line \d+ is " *\\"GREETING\\": \\"bonjour\\",?"/,
  );
  assert.match(fail.out, /^pass  get-structured-content/m);
  assert.match(fail.out, /1 passed, 1 failed/);
  const failed = (await parseStringPromise(readFileSync(junit, 'utf8'), { strict: true })) as {
    testsuites: { testsuite: Array<{ testcase: Array<{ $: { name: string }; failure?: Array<{ $: { message: string } }> }> }> };
  };
  const cases = failed.testsuites.testsuite[0]!.testcase;
  assert.match(cases.find((c) => c.$.name === 'get-env')!.failure![0]!.$.message, /GREETING.*hello/);

  // --only and --json
  const only = await runCli(['run', calls, '--only', 'get-structured-content', '--json'], {}, workspace);
  assert.equal(only.code, 0, only.err);
  const json = JSON.parse(only.out) as { calls: Array<{ name: string; status: string }>; passed: number };
  assert.deepEqual(
    json.calls.map((c) => [c.name, c.status]),
    [['get-structured-content', 'passed']],
  );
  const unknown = await runCli(['run', calls, '--only', 'nope'], {}, workspace);
  assert.equal(unknown.code, 1);
  assert.match(unknown.err, /--only nope: .* has no call of that name \(calls: get-env, get-structured-content\)/);
});

test('a file changed since the call was recorded is refused, naming it; the unchanged file passes', { timeout: 120_000 }, async () => {
  writeConfig('hello');
  const file = join(workspace, 'photo.png');
  copyFileSync(join(repoRoot, 'examples', 'workspace', 'photo.png'), file);
  const fileCalls = join(workspace, 'files.mcp-calls.json');
  writeFileSync(join(workspace, 'mcp.json'), readFileSync(config));
  const rec = await runCli(
    ['call', 'describe_file', '--server', 'demo', '--config', config, '--file', `file=${file}`, '--record', fileCalls, '--expect-current'],
    {},
    workspace,
  );
  assert.equal(rec.code, 0, rec.err);
  const saved = parseSavedCalls(readFileSync(fileCalls, 'utf8'), fileCalls).calls[0]!;
  assert.equal((saved.files!.file as { path: string }).path, 'photo.png');
  assert.equal(saved.arguments, undefined, 'no file bytes in the arguments');
  assert.doesNotMatch(readFileSync(fileCalls, 'utf8'), /data:/);
  const pass = await runCli(['run', fileCalls], {}, workspace);
  assert.equal(pass.code, 0, pass.out + pass.err);

  const bytes = readFileSync(file);
  bytes[bytes.length - 20] = bytes[bytes.length - 20]! ^ 0xff;
  writeFileSync(file, bytes);
  const refused = await runCli(['run', fileCalls], {}, workspace);
  assert.equal(refused.code, 4, refused.out + refused.err);
  assert.match(refused.out, /^ERROR describe_file .*\n +file: photo\.png changed since it was recorded: sha-256 .{12}… then, .{12}… now; not sent/m);
});

test('a bad saved-calls file is refused naming the problem; --secret keeps the value out of the file', { timeout: 120_000 }, async () => {
  writeConfig('hello');
  const bad = join(workspace, 'bad.json');
  writeFileSync(bad, '{"calls": [{"name": "x", "server": "everything"}]}');
  const r = await runCli(['run', bad], {}, workspace);
  assert.equal(r.code, 1);
  assert.match(r.err, /bad\.json is not a valid saved-calls file:\n +\/calls\/0\/tool: Required/);
  const secretCalls = join(workspace, 'secret.json');
  writeFileSync(join(workspace, 'mcp.json'), readFileSync(config));
  const rec = await runCli(
    ['call', 'echo', '--server', 'everything', '--config', config, '--secret', 'message=env:REPLAY_SECRET', '--record', secretCalls],
    { REPLAY_SECRET: 'sup3r-s3cret' },
    workspace,
  );
  assert.equal(rec.code, 0, rec.err);
  const text = readFileSync(secretCalls, 'utf8');
  assert.doesNotMatch(text, /sup3r-s3cret/);
  assert.deepEqual(parseSavedCalls(text, secretCalls).calls[0]!.secrets, { message: 'env:MCP_SECRET_MESSAGE' });
  const again = await runCli(['run', secretCalls], { MCP_SECRET_MESSAGE: 'another' }, workspace);
  assert.equal(again.code, 0, again.out + again.err);
  const unset = await runCli(['run', secretCalls], { MCP_SECRET_MESSAGE: '' }, workspace);
  assert.match(unset.out, /ERROR echo .*\n +secrets\.message: the environment variable MCP_SECRET_MESSAGE is not set/);
  // Options that would record nothing are refused before the server starts.
  const alone = await runCli(['call', 'echo', '--server', 'everything', '--config', config, '--expect-current'], {}, workspace);
  assert.equal(alone.code, 1);
  assert.match(alone.err, /--expect-current goes with --record FILE/);
  const noWait = await runCli(['call', 'echo', '--server', 'everything', '--config', config, '--record', secretCalls, '--no-wait'], {}, workspace);
  assert.equal(noWait.code, 1);
  assert.match(noWait.err, /--record records a call when it ends; with --no-wait it is not waited for/);
});

test(
  'a saved call of a tool that requires a task runs as a task, as call runs it; --timeout bounds the whole wait, then the task is cancelled',
  { timeout: 120_000 },
  async () => {
    const dir = join(workspace, 'tasks');
    mkdirSync(dir, { recursive: true });
    const hostileRecord = join(dir, 'hostile.jsonl');
    const tasksRecord = join(dir, 'tasks2026.jsonl');
    writeFileSync(
      join(dir, 'mcp.json'),
      JSON.stringify({
        servers: {
          // simulate-research-query: taskSupport "required" (2025-11-25 tasks), four stages of a second
          everything: { command: process.execPath, args: [everything, 'stdio'] },
          // every call a task of the 2026-07-28 Tasks extension; a plain call is refused (-32021)
          tasks2026: {
            command: process.execPath,
            args: fixtureArgv('tasks-era2026-server.ts'),
            cwd: repoRoot,
            env: { TASKS_FIXTURE_STEP_MS: '200', TASKS_FIXTURE_RECORD: tasksRecord },
          },
          // stuck: taskSupport "required", stays `working` with no ttl (only the host's bound ends the wait)
          hostile: { command: process.execPath, args: fixtureArgv('hostile-tasks-server.ts'), cwd: repoRoot, env: { HOSTILE_TASKS_RECORD: hostileRecord } },
        },
      }),
    );
    const file = join(dir, 'tasks.mcp-calls.json');
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        calls: [
          {
            name: 'research',
            server: 'everything',
            tool: 'simulate-research-query',
            arguments: { topic: 'tides' },
            expect: { outcome: 'success', text: { contains: 'tides' } },
          },
          {
            name: 'research-2026',
            server: 'tasks2026',
            tool: 'research',
            arguments: { topic: 'reefs' },
            expect: { text: { matches: '^# Research Report: reefs' } },
          },
          { name: 'stuck', server: 'hostile', tool: 'stuck' },
          { name: 'stuck-too', server: 'hostile', tool: 'stuck' },
        ],
      }),
    );
    const done = await runCli(['run', file, '--only', 'research', '--only', 'research-2026', '--parallel', '2', '--timeout', '60000'], {}, workspace);
    assert.equal(done.code, 0, done.out + done.err);
    assert.match(done.out, /^pass  research  \(everything\/simulate-research-query, \d+ ms\)$/m);
    assert.match(done.out, /^pass  research-2026  \(tasks2026\/research, \d+ ms\)$/m);
    // Each call's task statuses on stderr, named by the call (calls run in parallel).
    assert.match(done.err, /^mcp-host: research: task [\w-]+: working — Gathering sources\.\.\.$/m);
    assert.match(done.err, /^mcp-host: research-2026: task [\w-]+: working — /m);
    const offered = readFileSync(tasksRecord, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { method: string; offersTasks?: boolean })
      .filter((r) => r.method === 'tools/call');
    assert.deepEqual(
      offered.map((r) => r.offersTasks),
      [true],
      'one call, offering the Tasks extension',
    );

    // Two tasks that never end, with no ttl: only --timeout ends each wait. With --parallel 2 they run at once (each
    // on its own server): both calls reach their servers before either task is given up.
    const started = performance.now();
    const stuck = await runCli(['run', file, '--only', 'stuck', '--only', 'stuck-too', '--parallel', '2', '--timeout', '4000', '--json'], {}, workspace);
    const took = performance.now() - started;
    assert.equal(stuck.code, 4, stuck.out + stuck.err);
    const report = JSON.parse(stuck.out) as { calls: Array<{ name: string; status: string; error?: string }> };
    assert.deepEqual(
      report.calls.map((c) => [c.name, c.status]),
      [
        ['stuck', 'error'],
        ['stuck-too', 'error'],
      ],
    );
    for (const c of report.calls)
      assert.match(c.error!, /task stuck-\d+ of "hostile" did not finish within 4000 ms \(the call's time limit\); it was cancelled/);
    assert.ok(took < 30_000, `the stuck tasks were given up after --timeout (took ${Math.round(took)} ms)`);
    const asked = readFileSync(hostileRecord, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { method: string; taskId?: string });
    assert.deepEqual([...new Set(asked.map((r) => r.method))], ['tools/call', 'tasks/get', 'tasks/cancel']);
    assert.equal(asked.filter((r) => r.method === 'tasks/cancel').length, 2, 'each task cancelled');
    const firstCancel = asked.findIndex((r) => r.method === 'tasks/cancel');
    assert.equal(asked.slice(0, firstCancel).filter((r) => r.method === 'tools/call').length, 2, 'both calls made before either task was given up');
  },
);

test(
  "run sends a tool's secure values from the mcp.json (never from the saved call); --junit names a folder that is not there before any call runs",
  { timeout: 120_000 },
  async () => {
    const dir = join(workspace, 'secure');
    mkdirSync(dir, { recursive: true });
    const secureRecord = join(dir, 'secure.jsonl');
    const entry = { command: process.execPath, args: fixtureArgv('secure-era2025-server.ts'), cwd: repoRoot, env: { SECURE_FIXTURE_RECORD: secureRecord } };
    writeFileSync(
      join(dir, 'mcp.json'),
      JSON.stringify({
        servers: {
          secure: { ...entry, secureArguments: { tenant: 'tenant-9d1', api_key: '${env:REPLAY_API_KEY}' } },
          unset: entry,
        },
      }),
    );
    const file = join(dir, 'secure.mcp-calls.json');
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        calls: [
          { name: 'query', server: 'secure', tool: 'query', arguments: { sql: 'select 1' }, expect: { text: { contains: 'ran select 1 for' } } },
          { name: 'query-unset', server: 'unset', tool: 'query', arguments: { sql: 'select 2' } },
        ],
      }),
    );
    const r = await runCli(['run', file, '--json'], { REPLAY_API_KEY: 'sk-fixture-good' }, workspace);
    assert.equal(r.code, 4, r.out + r.err);
    const report = JSON.parse(r.out) as { calls: Array<{ name: string; status: string; error?: string; differences: string[] }> };
    assert.deepEqual(
      report.calls.map((c) => [c.name, c.status]),
      [
        ['query', 'passed'],
        ['query-unset', 'error'],
      ],
    );
    assert.match(report.calls[1]!.error!, /tool "query" needs the secure values tenant, api_key/);
    const sent = readFileSync(secureRecord, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { secureArguments?: unknown });
    assert.deepEqual(
      sent.map((c) => c.secureArguments),
      [{ tenant: 'tenant-9d1', api_key: 'sk-fixture-good' }],
      'the values went as secureArguments; the unset call sent nothing',
    );

    const before = sent.length;
    const missing = await runCli(['run', file, '--junit', join(dir, 'no-such-folder', 'report.xml')], {}, workspace);
    assert.equal(missing.code, 1);
    assert.match(missing.err, /--junit .*report\.xml: the folder .*no-such-folder does not exist/);
    assert.equal(readFileSync(secureRecord, 'utf8').trim().split('\n').length, before, 'no call was made');
    const folder = await runCli(['run', file, '--junit', dir], {}, workspace);
    assert.equal(folder.code, 1);
    assert.match(folder.err, /--junit .* is a folder; give the report's file/);
  },
);
