// `mcp-host` and the client features: lists read to their last page, --log-level, the current directory as root.
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { run, type CliIo } from '../../src/cli/main';
import { fixturePath, repoRoot } from '../fixtures/servers';

const PAGED = ['--', process.execPath, '--import', 'tsx', fixturePath('paged-server.ts')];
export const EVERYTHING = ['--', process.execPath, join(repoRoot, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'];

export async function cli(argv: string[], cwd = repoRoot, env: NodeJS.ProcessEnv = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => { out += d; });
  stderr.on('data', (d) => { err += d; });
  const io: CliIo = { stdout, stderr, env: { ...process.env, ...env }, cwd, interactive: false };
  const code = await run(argv, io);
  return { code, out, err };
}

test('tools lists all 1,000 tools of a server that pages them 100 at a time', async () => {
  const r = await cli(['tools', ...PAGED]);
  assert.equal(r.code, 0, r.err);
  const lines = r.out.trim().split('\n');
  assert.equal(lines.length, 1000);
  assert.match(lines[999], /^tool_0999/);
});

test('--log-level prints the server\'s messages from that level up to stderr, with the logger name; a bad level is refused', async () => {
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

test('the current directory is the root server-everything\'s get-roots-list reports', async () => {
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
