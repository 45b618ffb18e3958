// `mcp-host call ... --elicit`, run as the built CLI against real servers, and the terminal prompts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { createCliElicitationHandler } from '../../src/cli/elicit';
import { InputRefusedError } from '../../src/core/errors';
import { Logger } from '../../src/core/log';
import { repoRoot, startUploadFixture, fixtureArgv } from '../fixtures/servers';

const cli = join(repoRoot, 'dist', 'cli.js');
const everything = ['--', process.execPath, join(repoRoot, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'];
const era2026 = ['--', process.execPath, ...fixtureArgv('elicit-era2026-server.ts')];
const recording = ['--', process.execPath, ...fixtureArgv('recording-server.ts')];
const dir = mkdtempSync(join(tmpdir(), 'mcp-cli-elicit-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const recordFile = join(dir, 'received.jsonl');
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNkYGBgAAAABQABWaDDsAAAAABJRU5ErkJggg==', 'base64');
writeFileSync(join(dir, 'dot.png'), PNG);
writeFileSync(join(dir, 'big.png'), Buffer.concat([PNG, Buffer.alloc(5000)]));
const log = new Logger(() => undefined, 'error');

function answers(name: string, value: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return `@${file}`;
}

/** What the recording fixture received since the last call of this function. */
function received(): Record<string, unknown>[] {
  if (!existsSync(recordFile)) return [];
  const lines = readFileSync(recordFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  rmSync(recordFile);
  return lines;
}

function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const options = { cwd: repoRoot, timeout: 60_000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, RECORDING_FIXTURE_FILE: recordFile, ...env } };
    execFile(process.execPath, [cli, ...args], options, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

test('--elicit @answers.json: content is merged over the defaults and sent', async () => {
  const r = await run([
    'call',
    'trigger-elicitation-request',
    '--elicit',
    answers('ok.json', { action: 'accept', content: { name: 'Ada', check: true } }),
    ...everything,
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Name: Ada/);
  assert.match(r.stdout, /"integer": 42/, 'defaults are included');
  assert.match(r.stdout, /"check": true/);
});

test('--elicit with a value outside the schema exits 1 with the reason; the server receives only cancel', async () => {
  received();
  const r = await run(['call', 'ask_form', '--elicit', answers('bad.json', { action: 'accept', content: { name: 'Ada', integer: 500 } }), ...recording]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /Integer: Must be at most 100/);
  assert.deepEqual(received(), [
    { call: 'ask_form', arguments: {} },
    { tool: 'ask_form', answer: { action: 'cancel' } },
  ]);
});

test('--elicit cancel and decline reach the server as such', async () => {
  received();
  assert.equal((await run(['call', 'ask_form', '--elicit', 'cancel', ...recording])).code, 0);
  assert.deepEqual(received()[1], { tool: 'ask_form', answer: { action: 'cancel' } });
  assert.equal((await run(['call', 'ask_form', '--elicit', 'decline', ...recording])).code, 0);
  assert.deepEqual(received()[1], { tool: 'ask_form', answer: { action: 'decline' } });
});

test('an answers-file key that matches no field is refused (exit 1) naming it; the server receives only cancel', async () => {
  received();
  const typo = await run([
    'call',
    'ask_form',
    '--elicit',
    answers('typo.json', { action: 'accept', content: { name: 'Ada' }, files: { phtoo: 'dot.png' } }),
    ...recording,
  ]);
  assert.equal(typo.code, 1);
  assert.match(typo.stderr, /"files\.phtoo" matches no file field of .*'s question \(file fields: photo\)/);
  assert.deepEqual(received()[1], { tool: 'ask_form', answer: { action: 'cancel' } });
  const bogus = await run(['call', 'ask_form', '--elicit', answers('bogus.json', { action: 'accept', content: { name: 'Ada', bogus: 1 } }), ...recording]);
  assert.equal(bogus.code, 1);
  assert.match(bogus.stderr, /"content\.bogus" matches no field of .*'s question \(fields: name, integer\)/);
  assert.deepEqual(received()[1], { tool: 'ask_form', answer: { action: 'cancel' } });
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

test('--elicit files: a file over its field limit exits 1, naming the file and the limit; the server receives only cancel', async () => {
  received();
  const spec = answers('bigfile.json', { action: 'accept', content: { name: 'Ada' }, files: { photo: ['big.png'] } });
  const r = await run(['call', 'ask_form', '--elicit', spec, ...recording]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /big\.png is 5 KiB \(5,070 bytes\); this tool accepts at most 4 KiB/);
  assert.deepEqual(received(), [
    { call: 'ask_form', arguments: {} },
    { tool: 'ask_form', answer: { action: 'cancel' } },
  ]);
});

test('--elicit files: two files that fit stdio one by one but not together are refused (exit 1) before reading; the server receives only cancel', async () => {
  received();
  for (const name of ['six-a.png', 'six-b.png']) writeFileSync(join(dir, name), Buffer.concat([PNG, Buffer.alloc(6 * 1024 * 1024)]));
  const spec = answers('two.json', { action: 'accept', files: { first: 'six-a.png', second: 'six-b.png' } });
  const r = await run(['call', 'ask_two_files', '--elicit', spec, '--timeout', '15000', ...recording]);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /2 files \(.*six-a\.png.*six-b\.png\) add up to 12 MiB .*at most 7 MiB .*stdio server in one call/);
  assert.deepEqual(received()[1], { tool: 'ask_two_files', answer: { action: 'cancel' } });
});

test('-32042: the URL is printed; with consent the call is retried once the server reports it complete', async () => {
  received();
  const started = Date.now();
  const r = await run(['call', 'needs_login', '--elicit', answers('login.json', { action: 'accept' }), ...recording]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'signed in\n');
  assert.ok(Date.now() - started < 20_000, 'the completion notification ended the wait, not the 60 s bound');
  assert.match(r.stderr, /asks you to open a URL: Sign in \\x1b\[31mfirst\\x1b\[0m\n {2}URL: {4}https:\/\/example\.com\/login/);
  assert.deepEqual(
    received().map((e) => e.call),
    ['needs_login', 'needs_login'],
  );
});

test('-32042 with no completion notification: the CLI retries after --url-wait seconds', async () => {
  received();
  const started = Date.now();
  const r = await run(['call', 'needs_login_quietly', '--elicit', answers('quiet.json', { action: 'accept' }), '--url-wait', '1.5', ...recording]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'signed in quietly\n');
  const took = Date.now() - started;
  assert.ok(took >= 1500 && took < 20_000, `the retry came after --url-wait, not the 60 s default (took ${took} ms)`);
  assert.match(r.stderr, /Waiting up to 1\.5 s for .* to report it done, then retrying the call\./);
  assert.deepEqual(
    received().map((e) => e.call),
    ['needs_login_quietly', 'needs_login_quietly'],
  );
});

test('-32042 declined or cancelled: the call stops with a clear message, exit 5, and is not retried', async () => {
  received();
  for (const action of ['decline', 'cancel'] as const) {
    const r = await run(['call', 'needs_login', '--elicit', answers(`login-${action}.json`, { action }), ...recording]);
    assert.equal(r.code, 5);
    assert.match(
      r.stderr,
      new RegExp(`needs you to open https://example\\.com/login before "needs_login" can run; you ${action === 'decline' ? 'declined' : 'cancelled'}`),
    );
    assert.match(r.stderr, /URL: {4}https:\/\/example\.com\/login/);
    assert.equal(received().length, 1, 'one call, no retry');
  }
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
  assert.throws(
    () => createCliElicitationHandler(answers('broken.json', '{"action":'), context),
    (e: Error) => e instanceof InputRefusedError && /not valid JSON/.test(e.message),
  );
  assert.throws(() => createCliElicitationHandler(answers('act.json', { action: 'yes' }), context), /"action" must be "accept", "decline" or "cancel"/);
  assert.throws(
    () => createCliElicitationHandler(answers('uri.json', { action: 'accept', files: { a: 'data:image/png;base64,AAAA' } }), context),
    /not data URIs/,
  );
  assert.throws(() => createCliElicitationHandler('maybe', context), /--elicit must be decline, cancel or @answers.json/);
});

test('on a terminal without --elicit, each field is prompted with its title, type and default', async () => {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (c: Buffer) => {
    shown += c.toString();
  });
  const handler = createCliElicitationHandler(undefined, { interactive: true, transport: 'stdio', log, input, output });
  const pending = handler(
    {
      message: 'Order \u001b[2Jpizza',
      requestedSchema: {
        type: 'object',
        properties: {
          who: { type: 'string', title: 'Your name' },
          count: { type: 'integer', title: 'How many', minimum: 1, default: 2 },
          size: {
            type: 'string',
            title: 'Size',
            oneOf: [
              { const: 's', title: 'Small' },
              { const: 'l', title: 'Large' },
            ],
          },
          photo: { type: 'string', format: 'uri', title: 'Photo', 'x-mcp-file': { accept: ['image/png'] } },
        },
      },
    },
    { server: 'pizzeria', signal: new AbortController().signal },
  );
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

describe('SEP-1306 binary uploads from the CLI (test/fixtures/upload-server.ts)', () => {
  let stopUploads: () => Promise<void>;
  let url = '';
  let foreignOrigin = '';
  const doc = join(dir, 'notes.txt');
  writeFileSync(doc, 'plain notes\n');

  before(async () => {
    const uploads = await startUploadFixture();
    stopUploads = uploads.stop;
    url = `${uploads.origin}/mcp`;
    foreignOrigin = uploads.foreignOrigin;
  });
  after(() => stopUploads());

  const outcome = (stdout: string) =>
    JSON.parse(stdout) as {
      result: { action: string; content?: { document?: { name: string; size: number } } };
      upload: { authorization: string | null; parts: { filename: string; size: number }[] } | null;
    };

  test("binary elicitation is declared by default and the answers file's file is uploaded", async () => {
    const spec = answers('upload.json', { action: 'accept', files: { document: 'notes.txt' } });
    const r = await run(['call', 'upload', '--args', '{"target":"same"}', '--elicit', spec, '--verbose', '--url', url], { MCP_HOST_LOG_LEVEL: 'trace' });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /"elicitation":\{"form":\{\},"url":\{\},"binary":\{"maxFileSize":104857600,"supportedMimeTypes":\["\*\/\*"\]\}\}/);
    const out = outcome(r.stdout);
    assert.equal(out.result.action, 'accept');
    assert.deepEqual([out.result.content?.document?.name, out.result.content?.document?.size], ['notes.txt', 12]);
    assert.deepEqual(
      out.upload?.parts.map((p) => [p.filename, p.size]),
      [['notes.txt', 12]],
    );
  });

  test('allowUploadOrigins lets the file go to another origin (without the token); without it nothing is uploaded', async () => {
    const allowed = await run([
      'call',
      'upload',
      '--args',
      '{"target":"foreign"}',
      '--elicit',
      answers('foreign-ok.json', { action: 'accept', files: { document: 'notes.txt' }, allowUploadOrigins: [foreignOrigin] }),
      '--url',
      url,
    ]);
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.equal(outcome(allowed.stdout).result.action, 'accept');
    assert.equal(outcome(allowed.stdout).upload?.authorization, null);
    const refused = await run([
      'call',
      'upload',
      '--args',
      '{"target":"foreign"}',
      '--elicit',
      answers('foreign-no.json', { action: 'accept', files: { document: 'notes.txt' } }),
      '--url',
      url,
    ]);
    assert.equal(outcome(refused.stdout).result.action, 'cancel');
    assert.equal(outcome(refused.stdout).upload, null);
    assert.match(refused.stderr, /uploading to http:\/\/127\.0\.0\.1:\d+ \(not the server's own origin\) was not allowed/);
  });

  test("--no-binary-uploads does not declare it: the server's binary request is refused", async () => {
    const spec = answers('upload.json', { action: 'accept', files: { document: 'notes.txt' } });
    const r = await run(['call', 'upload', '--args', '{"target":"same"}', '--elicit', spec, '--no-binary-uploads', '--verbose', '--url', url], {
      MCP_HOST_LOG_LEVEL: 'trace',
    });
    assert.match(r.stderr, /"elicitation":\{"form":\{\},"url":\{\}\}/);
    assert.equal(r.code, 5, r.stderr);
  });
});
