// `mcp-host` and MCP Apps: `tools` marks app tools and hides app-only ones, `call --json` carries the tool's
// `_meta.ui`, `resource read` prints a ui:// app or writes its bytes to a new file.
import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../fixtures/cli';
import { repoRoot, fixtureArgv } from '../fixtures/servers';
import { tempDir } from '../helpers/tempDirs';

const VANILLA = ['--', process.execPath, join(repoRoot, 'node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js'), '--stdio'];
const APPS = ['--', process.execPath, ...fixtureArgv('apps-server.ts')];

const cli = (argv: string[]) => runCli(argv);

test('tools marks app tools with their resource and leaves app-only tools out (--json keeps them)', async () => {
  const vanilla = await cli(['tools', ...VANILLA]);
  assert.equal(vanilla.code, 0, vanilla.err);
  assert.match(vanilla.out, /^get-time .*\[app ui:\/\/get-time\/mcp-app\.html\]$/m);
  const fixture = await cli(['tools', ...APPS]);
  assert.equal(fixture.code, 0, fixture.err);
  assert.match(fixture.out, /^legacy_key .*\[app ui:\/\/silent\/app\.html\]$/m);
  assert.match(fixture.out, /^model_only /m);
  assert.doesNotMatch(fixture.out, /^report /m);
  const json = await cli(['tools', '--json', ...APPS]);
  assert.ok((JSON.parse(json.out) as { name: string }[]).some((t) => t.name === 'report'));
});

test("call --json includes the tool's _meta.ui so a script finds the app; resource read prints it", async () => {
  const call = await cli(['call', 'get-time', '--json', ...VANILLA]);
  assert.equal(call.code, 0, call.err);
  const result = JSON.parse(call.out) as { _meta?: { ui?: { resourceUri?: string } }; structuredContent?: { time?: string } };
  assert.equal(result._meta?.ui?.resourceUri, 'ui://get-time/mcp-app.html');
  assert.match(String(result.structuredContent?.time), /^\d{4}-/);
  const read = await cli(['resource', 'read', result._meta!.ui!.resourceUri!, ...VANILLA]);
  assert.equal(read.code, 0, read.err);
  assert.match(read.out, /<!DOCTYPE html>/i);
  assert.match(read.out, /Get Server Time/);
});

test('resource read --out writes the bytes to a new file and never overwrites one', async () => {
  const dir = tempDir('mcp-apps-cli-');
  const out = join(dir, 'app.html');
  const first = await cli(['resource', 'read', 'ui://silent/app.html', '--out', out, ...APPS]);
  assert.equal(first.code, 0, first.err);
  assert.equal(readFileSync(out, 'utf8'), '<!doctype html><html><body><p>This app never says hello.</p></body></html>');
  assert.match(first.err, /wrote \d+ bytes to /);
  writeFileSync(out, 'mine');
  const again = await cli(['resource', 'read', 'ui://silent/app.html', '--out', out, ...APPS]);
  assert.equal(again.code, 1);
  assert.match(again.err, /exists; give a new file/);
  assert.equal(readFileSync(out, 'utf8'), 'mine');
});

test("resource usage errors name what is missing; an unknown resource is the server's error (exit 5)", async () => {
  assert.equal((await cli(['resource', ...APPS])).code, 1);
  const noUri = await cli(['resource', 'read', ...APPS]);
  assert.equal(noUri.code, 1);
  assert.match(noUri.err, /needs the URI/);
  const wrongVerb = await cli(['resource', 'list', ...APPS]);
  assert.match(wrongVerb.err, /unknown resource command "list"/);
  const missing = await cli(['resource', 'read', 'ui://nope', ...APPS]);
  assert.equal(missing.code, 5, missing.err);
  assert.match(missing.err, /no resource ui:\/\/nope/);
});
