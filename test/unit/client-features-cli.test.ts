// `mcp-host` and the client features: lists read to their last page, --log-level, the current directory as root.
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { runCli } from '../fixtures/cli';
import { repoRoot, fixtureArgv } from '../fixtures/servers';

const PAGED = ['--', process.execPath, ...fixtureArgv('paged-server.ts')];
export const EVERYTHING = ['--', process.execPath, join(repoRoot, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'];

export const cli = (argv: string[], cwd = repoRoot, env: NodeJS.ProcessEnv = {}) => runCli(argv, env, cwd);

test('tools lists all 1,000 tools of a server that pages them 100 at a time', async () => {
  const r = await cli(['tools', ...PAGED]);
  assert.equal(r.code, 0, r.err);
  const lines = r.out.trim().split('\n');
  assert.equal(lines.length, 1000);
  assert.match(lines[999]!, /^tool_0999/);
});

test("--log-level prints the server's messages from that level up to stderr, with the logger name; a bad level is refused", async () => {
  const r = await cli(['call', 'log', '--log-level', 'error', ...PAGED]);
  assert.equal(r.code, 0, r.err);
  assert.equal(r.out, 'logged\n');
  assert.match(r.err, /^\[error\] \[server:fixture\] an? error message$/m);
  assert.match(r.err, /^\[emergency\] \[server:fixture\] an? emergency message$/m);
  assert.doesNotMatch(r.err, /warning message|debug message/, 'the server was asked for error and up only');
  const quiet = await cli(['call', 'log', ...PAGED]);
  assert.equal(quiet.err, '', 'without --log-level nothing is printed');
  const bad = await cli(['call', 'log', '--log-level', 'loud', ...PAGED]);
  assert.equal(bad.code, 1);
  assert.match(bad.err, /--log-level must be one of debug, info, notice, warning, error, critical, alert, emergency \(got "loud"\)/);
});

test("the current directory is the root server-everything's get-roots-list reports", async () => {
  const cwd = join(repoRoot, 'examples');
  // server-everything fetches the roots 350 ms after initialization; the CLI call may come first.
  let r = await cli(['call', 'get-roots-list', ...EVERYTHING], cwd);
  for (let i = 0; i < 5 && !r.out.includes(pathToFileURL(cwd).href); i++) r = await cli(['call', 'get-roots-list', ...EVERYTHING], cwd);
  assert.equal(r.code, 0, r.err);
  assert.ok(r.out.includes(pathToFileURL(cwd).href), r.out);
});

test('complete: server-everything suggests departments, then names for the department given as context', async () => {
  const dept = await cli(['complete', '--prompt', 'completable-prompt', 'department', 'E', ...EVERYTHING]);
  assert.equal(dept.code, 0, dept.err);
  assert.equal(dept.out, 'Engineering\n');
  const name = await cli(['complete', '--prompt', 'completable-prompt', 'name', '', '--args', '{"department":"Sales"}', ...EVERYTHING]);
  assert.equal(name.out, 'David\nEve\nFrank\n');
  const template = await cli(['complete', '--resource-template', 'demo://resource/dynamic/text/{resourceId}', 'resourceId', '7', '--json', ...EVERYTHING]);
  assert.deepEqual(JSON.parse(template.out).values, ['7']);
});

test('complete: an answer of 10,000 values shows the first 100 and says so; usage errors name what is missing', async () => {
  const r = await cli(['complete', '--prompt', 'many', 'word', 'w', '--args', '{"other":"x"}', ...PAGED]);
  assert.equal(r.code, 0, r.err);
  const lines = r.out.trim().split('\n');
  assert.equal(lines.length, 100);
  assert.equal(lines[0], 'w0 {"other":"x"}', 'the filled arguments went as context');
  assert.match(r.err, /the server sent 10000 suggestions; the first 100 are shown/);
  const neither = await cli(['complete', 'word', 'w', ...PAGED]);
  assert.equal(neither.code, 1);
  assert.match(neither.err, /complete needs --prompt NAME or --resource-template URI/);
  const noValue = await cli(['complete', '--prompt', 'many', 'word', ...PAGED]);
  assert.match(noValue.err, /complete needs the argument's name and the value typed so far/);
  const nonString = await cli(['complete', '--prompt', 'many', 'word', 'w', '--args', '{"n":1}', ...PAGED]);
  assert.equal(nonString.code, 1);
  assert.match(nonString.err, /"n" is 1/);
});

test('call follows a required task to its end with status lines on stderr; --no-wait prints the id', async () => {
  const r = await cli(['call', 'simulate-research-query', '--args', '{"topic":"tides"}', ...EVERYTHING]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /# Research Report: tides/);
  assert.match(r.err, /^task [\w-]+: working — Gathering sources/m);
  const noWait = await cli(['call', 'simulate-research-query', '--args', '{"topic":"tides"}', '--no-wait', ...EVERYTHING]);
  assert.equal(noWait.code, 0, noWait.err);
  assert.match(noWait.out, /^[\w-]+\n$/);
  const notTask = await cli(['call', 'echo', '--args', '{"message":"x"}', '--no-wait', ...EVERYTHING]);
  assert.equal(notTask.code, 1);
  assert.match(notTask.err, /--no-wait: "echo" does not run as a task/);
});

test('task get|cancel ID; an unknown id is named; bad usage exits 1', async () => {
  const get = await cli(['task', 'get', 'endless-1', ...PAGED]);
  assert.equal(get.code, 0, get.err);
  assert.equal(get.out, 'task endless-1: working — still going\n');
  const cancel = await cli(['task', 'cancel', 'endless-1', '--json', ...PAGED]);
  assert.equal(JSON.parse(cancel.out).status, 'cancelled');
  const unknown = await cli(['task', 'get', 'nope', ...PAGED]);
  assert.equal(unknown.code, 5);
  assert.match(unknown.err, /has no task nope \(unknown, or expired after its ttl\)/);
  const bad = await cli(['task', 'frob', 'x', ...PAGED]);
  assert.equal(bad.code, 1);
  assert.match(bad.err, /task needs get, result or cancel, then the task id/);
});

test('sampling: declared only with --sampling-command, which answers; the host refuses bad requests', async () => {
  // Without a command to answer it, sampling is not declared: server-everything does not offer its sampling tool.
  const undeclared = await cli(['call', 'trigger-sampling-request', '--args', '{"prompt":"hi"}', ...EVERYTHING]);
  assert.equal(undeclared.code, 1);
  assert.match(undeclared.err, /has no tool "trigger-sampling-request"/);
  const script =
    "node -e \"let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const r=JSON.parse(s);console.log(JSON.stringify({role:'assistant',model:'echo',content:{type:'text',text:'saw '+r.messages[0].content.text}}))})\"";
  const answered = await cli(['call', 'trigger-sampling-request', '--args', '{"prompt":"hi"}', '--sampling-command', script, ...EVERYTHING]);
  assert.equal(answered.code, 0, answered.err);
  assert.match(answered.out, /saw Resource trigger-sampling-request context: hi/);
  const huge = await cli(['call', 'trigger-sampling-request', '--args', '{"prompt":"hi","maxTokens":1000000000}', '--sampling-command', script, ...EVERYTHING]);
  assert.notEqual(huge.code, 0);
  assert.match(huge.out + huge.err, /maxTokens 1000000000 is outside what the host allows \(1 to 1000000\)/);
  const big = await cli([
    'call',
    'trigger-sampling-request',
    '--args',
    JSON.stringify({ prompt: 'x'.repeat(6 * 1024 * 1024) }),
    '--sampling-command',
    script,
    ...EVERYTHING,
  ]);
  assert.notEqual(big.code, 0);
  assert.match(big.out + big.err, /the sampling request's messages are \d+ bytes; the host accepts at most 4194304/);
});
