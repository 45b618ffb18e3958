// `mcp-host call ... --elicit`, run as the built CLI against real servers, and the terminal prompts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { createCliElicitationHandler } from '../../src/cli/elicit';
import { InputRefusedError } from '../../src/core/errors';
import { Logger } from '../../src/core/log';
import { fixturePath, repoRoot } from '../fixtures/servers';

const cli = join(repoRoot, 'dist', 'cli.js');
const everything = ['--', process.execPath, join(repoRoot, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'];
const era2026 = ['--', process.execPath, '--import', 'tsx', fixturePath('elicit-era2026-server.ts')];
const dir = mkdtempSync(join(tmpdir(), 'mcp-cli-elicit-'));
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNkYGBgAAAABQABWaDDsAAAAABJRU5ErkJggg==', 'base64');
writeFileSync(join(dir, 'dot.png'), PNG);
writeFileSync(join(dir, 'big.png'), Buffer.concat([PNG, Buffer.alloc(5000)]));
const log = new Logger(() => undefined, 'error');

function answers(name: string, value: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return `@${file}`;
}

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { cwd: repoRoot, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

test('--elicit @answers.json: content is merged over the defaults and sent', async () => {
  const r = await run(['call', 'trigger-elicitation-request', '--elicit', answers('ok.json', { action: 'accept', content: { name: 'Ada', check: true } }), ...everything]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Name: Ada/);
  assert.match(r.stdout, /"integer": 42/, 'defaults are included');
  assert.match(r.stdout, /"check": true/);
});

test('--elicit with a value outside the schema exits 1 with the reason, and sends none of it', async () => {
  const r = await run(['call', 'trigger-elicitation-request', '--elicit', answers('bad.json', { action: 'accept', content: { name: 'Ada', integer: 500 } }), ...everything]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /Integer: Must be at most 100/);
  assert.doesNotMatch(r.stdout, /500/);
});

test('--elicit decline answers every question with decline', async () => {
  const r = await run(['call', 'trigger-elicitation-request', '--elicit', 'decline', ...everything]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /declined/);
});

test('--elicit files: a local PNG fills the x-mcp-file field of a 2026-era server as a data URI', async () => {
  const spec = answers('file.json', { action: 'accept', content: { name: 'Ada' }, files: { photo: 'dot.png' } });
  const r = await run(['call', 'profile', '--elicit', spec, ...era2026]);
  assert.equal(r.code, 0, r.stderr);
  const answer = JSON.parse(r.stdout);
  assert.equal(answer.content.photo, `data:image/png;base64,${PNG.toString('base64')}`);
  assert.equal(answer.content.age, 30);
});

test('--elicit files: a file over its field limit exits 1, naming the file and the limit', async () => {
  const spec = answers('bigfile.json', { action: 'accept', content: { name: 'Ada' }, files: { photo: ['big.png'] } });
  const r = await run(['call', 'profile', '--elicit', spec, ...era2026]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /big\.png is 5 KiB \(5,070 bytes\); this tool accepts at most 4 KiB/);
  assert.equal(r.stdout, '');
});

test('URL mode in the CLI: the URL and its domain are printed, nothing is opened, accept is consent', async () => {
  const r = await run(['call', 'open_site', '--elicit', answers('url.json', { action: 'accept' }), ...era2026]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { action: 'accept' });
  assert.match(r.stderr, /URL: {4}https:\/\/xn--80ak6aa92e\.com\/login/);
  assert.match(r.stderr, /Domain: xn--80ak6aa92e\.com \(displays as "аррӏе\.com"\)/);
  assert.match(r.stderr, /does not open URLs/);
});

test('a malformed answers file is refused before anything runs', () => {
  const context = { interactive: false, transport: 'stdio' as const, log };
  assert.throws(() => createCliElicitationHandler(answers('broken.json', '{"action":'), context), (e: Error) => e instanceof InputRefusedError && /not valid JSON/.test(e.message));
  assert.throws(() => createCliElicitationHandler(answers('act.json', { action: 'yes' }), context), /"action" must be "accept", "decline" or "cancel"/);
  assert.throws(() => createCliElicitationHandler(answers('uri.json', { action: 'accept', files: { a: 'data:image/png;base64,AAAA' } }), context), /not data URIs/);
  assert.throws(() => createCliElicitationHandler('maybe', context), /--elicit must be decline, cancel or @answers.json/);
});

test('on a terminal without --elicit, each field is prompted with its title, type and default', async () => {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (c: Buffer) => { shown += c.toString(); });
  const handler = createCliElicitationHandler(undefined, { interactive: true, transport: 'stdio', log, input, output });
  const pending = handler({
    message: 'Order \u001b[2Jpizza',
    requestedSchema: {
      type: 'object',
      properties: {
        who: { type: 'string', title: 'Your name' },
        count: { type: 'integer', title: 'How many', minimum: 1, default: 2 },
        size: { type: 'string', title: 'Size', oneOf: [{ const: 's', title: 'Small' }, { const: 'l', title: 'Large' }] },
        photo: { type: 'string', format: 'uri', title: 'Photo', 'x-mcp-file': { accept: ['image/png'] } },
      },
    },
  }, { server: 'pizzeria', signal: new AbortController().signal });
  const lines = ['a', 'Ada', '', '2', 'data:image/png;base64,AAAA', join(dir, 'dot.png'), 'y'];
  input.write(lines.map((l) => `${l}\n`).join('')); // pasted at once: no line may be lost
  const result = await pending;
  assert.deepEqual(result, { action: 'accept', content: { who: 'Ada', count: 2, size: 'l', photo: `data:image/png;base64,${PNG.toString('base64')}` } });
  assert.match(shown, /pizzeria asks: Order \\x1b\[2Jpizza/, 'escape sequences from the server are shown, not obeyed');
  assert.match(shown, /How many \(integer, 1\.\.\)/);
  assert.match(shown, /\[2\]/, 'the default is shown');
  assert.match(shown, /1\. Small\n {2}2\. Large/);
  assert.match(shown, /not a data URI/);
});
