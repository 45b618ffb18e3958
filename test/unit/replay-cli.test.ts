// `mcp-host call --record` and `mcp-host run` against real servers: server-everything (its get-env answer
// changes when the mcp.json gives the server another environment) and the demo server (a file argument, refused
// once the file changed since it was recorded). JUnit output is parsed by a strict XML parser.
import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync, mkdirSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseSavedCalls } from '../../src/core/replay';
import { runCli } from '../fixtures/cli';
import { demoServerArgv, repoRoot } from '../fixtures/servers';
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
  writeFileSync(config, JSON.stringify({
    servers: {
      everything: { command: process.execPath, args: [everything, 'stdio'], env: { GREETING: greeting } },
      demo: { command: process.execPath, args: demoServerArgv(), cwd: repoRoot },
    },
  }));
}

test('a recorded call runs again and passes; after the server\'s answer changes it fails with the difference', { timeout: 120_000 }, async () => {
  writeConfig('hello');
  const rec = await runCli(['call', 'get-env', '--server', 'everything', '--record', calls, '--expect-current'], {}, workspace);
  assert.equal(rec.code, 0, rec.err);
  assert.match(rec.err, /recorded "get-env" in .*mcp-calls\.json/);
  const sum = await runCli(['call', 'get-structured-content', '--server', 'everything', '--args', '{"location":"Chicago"}', '--record', calls, '--expect-current'], {}, workspace);
  assert.equal(sum.code, 0, sum.err);
  const saved = parseSavedCalls(readFileSync(calls, 'utf8'), calls);
  assert.deepEqual(saved.calls.map((c) => c.name), ['get-env', 'get-structured-content']);
  assert.equal(saved.calls[1]!.expect?.structuredContent?.equals && (saved.calls[1]!.expect.structuredContent.equals as { temperature: number }).temperature, 36);

  const junit = join(workspace, 'report.xml');
  const pass = await runCli(['run', calls, '--junit', junit, '--parallel', '2'], {}, workspace);
  assert.equal(pass.code, 0, pass.out + pass.err);
  assert.match(pass.out, /^pass  get-env  \(everything\/get-env, \d+ ms\)$/m);
  assert.match(pass.out, /2 passed, 0 failed, 0 could not run/);
  const passed = await parseStringPromise(readFileSync(junit, 'utf8'), { strict: true }) as { testsuites: { $: Record<string, string> } };
  assert.equal(passed.testsuites.$.tests, '2');
  assert.equal(passed.testsuites.$.failures, '0');

  // The server now runs with another environment: its answer changed.
  writeConfig('bonjour');
  const fail = await runCli(['run', calls, '--junit', junit], {}, workspace);
  assert.equal(fail.code, 5, fail.out + fail.err);
  assert.match(fail.out, /^FAIL  get-env  /m);
  assert.match(fail.out, /text: line \d+ of the expected text, " *\\"GREETING\\": \\"hello\\",?", is not in the result; the text's line \d+ is " *\\"GREETING\\": \\"bonjour\\",?"/);
  assert.match(fail.out, /^pass  get-structured-content/m);
  assert.match(fail.out, /1 passed, 1 failed/);
  const failed = await parseStringPromise(readFileSync(junit, 'utf8'), { strict: true }) as { testsuites: { testsuite: Array<{ testcase: Array<{ $: { name: string }; failure?: Array<{ $: { message: string } }> }> }> } };
  const cases = failed.testsuites.testsuite[0]!.testcase;
  assert.match(cases.find((c) => c.$.name === 'get-env')!.failure![0]!.$.message, /GREETING.*hello/);

  // --only and --json
  const only = await runCli(['run', calls, '--only', 'get-structured-content', '--json'], {}, workspace);
  assert.equal(only.code, 0, only.err);
  const json = JSON.parse(only.out) as { calls: Array<{ name: string; status: string }>; passed: number };
  assert.deepEqual(json.calls.map((c) => [c.name, c.status]), [['get-structured-content', 'passed']]);
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
  const rec = await runCli(['call', 'describe_file', '--server', 'demo', '--config', config, '--file', `file=${file}`, '--record', fileCalls, '--expect-current'], {}, workspace);
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
  const rec = await runCli(['call', 'echo', '--server', 'everything', '--config', config, '--secret', 'message=env:REPLAY_SECRET', '--record', secretCalls],
    { REPLAY_SECRET: 'sup3r-s3cret' }, workspace);
  assert.equal(rec.code, 0, rec.err);
  const text = readFileSync(secretCalls, 'utf8');
  assert.doesNotMatch(text, /sup3r-s3cret/);
  assert.deepEqual(parseSavedCalls(text, secretCalls).calls[0]!.secrets, { message: 'env:MCP_SECRET_MESSAGE' });
  const again = await runCli(['run', secretCalls], { MCP_SECRET_MESSAGE: 'another' }, workspace);
  assert.equal(again.code, 0, again.out + again.err);
  const unset = await runCli(['run', secretCalls], { MCP_SECRET_MESSAGE: '' }, workspace);
  assert.match(unset.out, /ERROR echo .*\n +secrets\.message: the environment variable MCP_SECRET_MESSAGE is not set/);
});
