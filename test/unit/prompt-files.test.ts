// Prompts whose arguments are files: the marks survive the SDK's parsing of prompts/list, become file slots
// (the same scan, checks and encoding as a tool's), and the bytes reach a real validating server intact —
// through the core run pipeline (the panel's path) and through `mcp-host prompt --file` end to end.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServerConnection } from '../../src/core/connection';
import { findFileSlots, inlineLimitsFor, restorePromptFileArguments, shieldPromptFileArguments } from '../../src/core/files';
import { buildForm, promptArgumentsSchema, promptAsTool } from '../../src/core/forms';
import { ArgumentsRefusedError } from '../../src/core/errors';
import { Logger } from '../../src/core/log';
import { FileChoices, runPrompt } from '../../src/core/run';
import { bundleServer } from '../helpers/bundle';

const root = join(__dirname, '../..');
const cli = join(root, 'dist/cli.js');
const work = mkdtempSync(join(tmpdir(), 'mcp-host-prompt-files-'));
const serverJs = join(work, 'prompt-files-server.js');
const recordFile = join(work, 'gets.jsonl');

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNkYGBgAAAABQABWaDDsAAAAABJRU5ErkJggg==', 'base64');
// Every byte value, NULs and invalid UTF-8 included: what a text-only path would corrupt.
const BINARY = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), randomBytes(8192)]);
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function file(name: string, bytes: Buffer | string): string {
  const p = join(work, name);
  writeFileSync(p, bytes);
  return p;
}
const png = file('dot.png', PNG);
const bin = file('blob.bin', BINARY);
const text = file('notes.txt', 'hello\n');
const big = file('big.png', Buffer.concat([PNG, Buffer.alloc(70 * 1024)]));

interface Recorded {
  prompt: string;
  arguments: Record<string, { mediaType: string; size: number; sha256: string } | string>;
}
function recorded(): Recorded[] {
  if (!existsSync(recordFile)) return [];
  return readFileSync(recordFile, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Recorded);
}

before(() => bundleServer('test/fixtures/prompt-files-server.ts', serverJs));
after(() => rmSync(work, { recursive: true, force: true }));

describe('prompt file arguments: shapes', () => {
  test('the file marks are set aside before parsing and put back, _meta as the server sent it', () => {
    const listed = {
      prompts: [
        { name: 'a', _meta: { own: 1 }, arguments: [{ name: 'f', 'x-mcp-file': { accept: ['image/png'] } }, { name: 'g' }] },
        { name: 'b', arguments: [{ name: 'x' }] },
      ],
    };
    shieldPromptFileArguments(listed);
    // What the SDK keeps of an argument: name, description, required.
    const parsed = listed.prompts.map((p) => ({ ...p, arguments: p.arguments.map((a) => ({ name: a.name })) }));
    const restored = parsed.map(restorePromptFileArguments);
    assert.deepEqual(restored[0], { name: 'a', _meta: { own: 1 }, arguments: [{ name: 'f', 'x-mcp-file': { accept: ['image/png'] } }, { name: 'g' }] });
    assert.deepEqual(restored[1], { name: 'b', arguments: [{ name: 'x' }] });
    assert.equal('_meta' in restored[1]!, false);
    // A server writing the key itself sets nothing but file fields.
    const forged = restorePromptFileArguments({
      name: 'c',
      arguments: [{ name: 'x' }],
      _meta: { 'mcp-host/promptFileArguments': { x: { name: 'y', required: true, 'x-mcp-file': {} } } },
    });
    assert.deepEqual(forged.arguments, [{ name: 'x', 'x-mcp-file': {} }]);
  });

  test('x-mcp-file on the argument or on its uri schema is a file slot, inline only; misplaced on a plain string it is text', () => {
    const schema = promptArgumentsSchema([
      { name: 'image', required: true, 'x-mcp-file': { accept: ['image/png'], maxSize: 100, transferModes: ['upload'] } },
      { name: 'doc', schema: { type: 'string', format: 'uri', 'x-mcp-file': { maxSize: 5 } } },
      { name: 'notes', schema: { type: 'string', 'x-mcp-file': {} } },
      { name: 'plain', description: 'words' },
    ]);
    assert.deepEqual((schema.properties as Record<string, unknown>).image, {
      type: 'string',
      format: 'uri',
      'x-mcp-file': { accept: ['image/png'], maxSize: 100, transferModes: ['inline'] },
    });
    const scan = findFileSlots({ name: 'p', inputSchema: schema });
    assert.deepEqual(
      scan.slots.map((s) => [s.label, s.required, s.maxSize, s.transferModes]),
      [
        ['image', true, 100, ['inline']],
        ['doc', false, 5, ['inline']],
      ],
    );
    assert.ok(
      scan.warnings.some((w) => /notes/.test(w)),
      scan.warnings.join('\n'),
    );
    const form = buildForm(schema, scan.slots);
    assert.deepEqual(
      form.fields.map((f) => [f.label, f.kind]),
      [
        ['image', 'file'],
        ['doc', 'file'],
        ['notes', 'string'],
        ['plain', 'string'],
      ],
    );
  });
});

describe('prompt file arguments against the validating server', () => {
  let connection: ServerConnection;
  const lines: string[] = [];
  const log = new Logger((_level, m) => lines.push(m), 'trace');

  before(async () => {
    connection = new ServerConnection(
      {
        name: 'prompts',
        transport: 'stdio',
        command: process.execPath,
        args: [serverJs],
        env: { ...process.env, PROMPT_FIXTURE_RECORD: recordFile } as Record<string, string>,
      },
      { log },
    );
    await connection.start();
  });
  after(async () => {
    await connection.stop();
    connection.dispose();
  });

  const choicesFor = async (name: string, picks: Record<string, string[]>) => {
    const prompt = connection.prompts.find((p) => p.name === name)!;
    const tool = promptAsTool(prompt);
    const { slots } = findFileSlots(tool);
    const files = new FileChoices(slots, () => inlineLimitsFor('stdio'));
    const outcomes = await Promise.all(Object.entries(picks).map(([field, paths]) => files.add(`/${field}`, paths)));
    return { tool, slots, files, outcomes };
  };

  test('the listed prompts keep their file marks', () => {
    const review = connection.prompts.find((p) => p.name === 'review_image')!;
    assert.deepEqual((review.arguments?.[0] as Record<string, unknown>)['x-mcp-file'], { accept: ['image/png', 'image/jpeg'], maxSize: 65536 });
    assert.equal(review._meta, undefined);
    assert.deepEqual(findFileSlots(promptAsTool(connection.prompts.find((p) => p.name === 'summarize_document')!)).slots[0]?.filenameCompanion, ['file_name']);
  });

  test('a PNG and a binary file arrive byte for byte (sha-256 at the server), the file name filled from the same pick', async () => {
    const before = recorded().length;
    const image = await choicesFor('review_image', { image: [png] });
    assert.ok(image.outcomes[0]!.ok);
    const form = buildForm(image.tool.inputSchema, image.slots);
    const out = await runPrompt(connection, 'review_image', { form, values: { focus: 'edges' } }, { files: image.files });
    assert.match(out.view.items[0]!.kind === 'text' ? out.view.items[0]!.text : '', new RegExp(`image: image/png, 70 bytes, sha-256 ${sha(PNG)}`));

    const doc = await choicesFor('summarize_document', { document: [bin] });
    assert.ok(doc.outcomes[0]!.ok, JSON.stringify(doc.outcomes[0]));
    await runPrompt(connection, 'summarize_document', { form: buildForm(doc.tool.inputSchema, doc.slots), values: {} }, { files: doc.files });
    const gets = recorded().slice(before);
    assert.deepEqual(gets[0], { prompt: 'review_image', arguments: { image: { mediaType: 'image/png', size: 70, sha256: sha(PNG) }, focus: 'edges' } });
    assert.deepEqual(gets[1], {
      prompt: 'summarize_document',
      arguments: { document: { mediaType: 'application/octet-stream', size: BINARY.length, sha256: sha(BINARY) }, file_name: 'blob.bin' },
    });
    // Traced traffic names the files, never their bytes.
    const logged = lines.join('\n');
    assert.match(logged, /"image":"data:image\/png;base64,\[70 bytes\]"/);
    assert.ok(!logged.includes(PNG.toString('base64').slice(0, 24)) && !logged.includes(BINARY.toString('base64').slice(0, 24)), 'file bytes in the log');
  });

  test('a required file argument with no file is refused before anything is sent; a wrong type or size is refused when chosen', async () => {
    const before = recorded().length;
    const image = await choicesFor('review_image', {});
    await assert.rejects(
      runPrompt(connection, 'review_image', { form: buildForm(image.tool.inputSchema, image.slots), values: {} }, { files: image.files }),
      (e: unknown) => e instanceof ArgumentsRefusedError && /image/.test(JSON.stringify(e.errors)),
    );
    const wrong = await choicesFor('review_image', { image: [text] });
    assert.equal(wrong.outcomes[0]!.ok, false);
    assert.match((wrong.outcomes[0] as { reason: string }).reason, /image: notes\.txt is text\/plain; .*accepts image\/png, image\/jpeg/);
    const large = await choicesFor('review_image', { image: [big] });
    assert.match((large.outcomes[0] as { reason: string }).reason, /64 KiB/);
    assert.equal(recorded().length, before);
  });
});

function runCli(args: string[], env: NodeJS.ProcessEnv = {}): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cli, ...args, '--', process.execPath, serverJs], {
    encoding: 'utf8',
    timeout: 30000,
    cwd: work,
    env: { ...process.env, PROMPT_FIXTURE_RECORD: recordFile, ...env },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('mcp-host prompt --file', () => {
  before(() => assert.ok(existsSync(cli), 'dist/cli.js is missing: run node scripts/build.mjs'));

  test("a binary file arrives intact (the server's sha-256), with the other arguments from --args", () => {
    const before = recorded().length;
    const r = runCli(['prompt', 'summarize_document', '--file', `document=${bin}`, '--args', '{"file_name":"given.bin"}', '--verbose'], {
      MCP_HOST_LOG_LEVEL: 'trace',
    });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`document: application/octet-stream, ${BINARY.length} bytes, sha-256 ${sha(BINARY)}`));
    assert.match(r.stdout, /file_name=given\.bin/);
    assert.deepEqual(recorded().slice(before), [
      {
        prompt: 'summarize_document',
        arguments: { document: { mediaType: 'application/octet-stream', size: BINARY.length, sha256: sha(BINARY) }, file_name: 'given.bin' },
      },
    ]);
    assert.match(r.stderr, /"document":"data:application\/octet-stream;base64,\[\d+ bytes\]"/);
    assert.ok(!r.stderr.includes(BINARY.toString('base64').slice(0, 24)), 'file bytes in the verbose log');
  });

  test('refusals name the argument and the limit, and nothing is sent', () => {
    const before = recorded().length;
    const missing = runCli(['prompt', 'review_image']);
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /image: this prompt needs a file \(image\/png, image\/jpeg\); pass --file image=PATH/);
    const wrongType = runCli(['prompt', 'review_image', '--file', `image=${text}`]);
    assert.equal(wrongType.status, 1);
    assert.match(wrongType.stderr, /image: notes\.txt is text\/plain/);
    const tooBig = runCli(['prompt', 'review_image', '--file', `image=${big}`]);
    assert.equal(tooBig.status, 1);
    assert.match(tooBig.stderr, /image: big\.png .*64 KiB/);
    const notAFile = runCli(['prompt', 'greet', '--file', `name=${png}`]);
    assert.equal(notAFile.status, 1);
    assert.match(notAFile.stderr, /'name' is not a file argument of this prompt \(file arguments: none\)/);
    const path = runCli(['prompt', 'review_image', '--args', JSON.stringify({ image: '/etc/passwd' })]);
    assert.equal(path.status, 1);
    assert.match(path.stderr, /image: --args gives "\/etc\/passwd", but a file argument takes a data: URI/);
    assert.equal(recorded().length, before);
  });

  test('a PNG by --file; a prompt without files works as before', () => {
    const r = runCli(['prompt', 'review_image', '--file', `image=${png}`]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`image: image/png, 70 bytes, sha-256 ${sha(PNG)}`));
    const g = runCli(['prompt', 'greet', '--args', '{"name":"Ada"}']);
    assert.equal(g.status, 0, g.stderr);
    assert.match(g.stdout, /name=Ada/);
  });
});
