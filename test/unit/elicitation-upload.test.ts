// SEP-1306 binary-mode elicitation against a real server with real loopback upload endpoints.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { closeSync, openSync, utimesSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ServerConnection } from '../../src/core/connection';
import {
  createElicitationHandler,
  type ElicitationUi,
  type FileConfirmRequest,
  type FormAnswer,
  type FormElicitationRequest,
  type UploadConsentRequest,
} from '../../src/core/elicitation';
import { Logger } from '../../src/core/log';
import { httpServer, startUploadFixture } from '../fixtures/servers';
import { tempDir } from '../helpers/tempDirs';

const log = new Logger(() => undefined, 'error');
const dir = tempDir('mcp-upload-');
const pdf = join(dir, 'report "q1".pdf');
writeFileSync(pdf, Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(3000, 7)]));
const notes = join(dir, 'notes.txt');
writeFileSync(notes, 'plain notes\n');
const png = join(dir, 'image.png');
writeFileSync(png, Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNkYGBgAAAABQABWaDDsAAAAABJRU5ErkJggg==', 'base64'));
const BIG_BYTES = 48 * 1024 * 1024;
const big = join(dir, 'big.txt');
{
  const fd = openSync(big, 'w');
  const chunk = Buffer.alloc(1024 * 1024, 'a');
  for (let i = 0; i < BIG_BYTES / chunk.length; i++) writeSync(fd, chunk);
  closeSync(fd);
}
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

class UploadUi implements ElicitationUi {
  forms: FormElicitationRequest[] = [];
  consents: UploadConsentRequest[] = [];
  notices: string[] = [];
  answer: (req: FormElicitationRequest) => FormAnswer = () => ({ action: 'cancel' });
  allowOtherOrigin = false;
  /** Runs while the user is being asked about another origin: after the files' checks, before the upload. */
  whileAsked?: () => void;
  async form(req: FormElicitationRequest) {
    this.forms.push(req);
    return this.answer(req);
  }
  async url() {
    return 'cancel' as const;
  }
  async confirmUploadDestination(req: UploadConsentRequest) {
    this.consents.push(req);
    this.whileAsked?.();
    return this.allowOtherOrigin;
  }
  notify(message: string) {
    this.notices.push(message);
  }
  reset() {
    this.forms = [];
    this.consents = [];
    this.notices = [];
    this.allowOtherOrigin = false;
    this.whileAsked = undefined;
  }
}

const ui = new UploadUi();
let stopUploads: () => Promise<void>;
let conn: ServerConnection;
let ownOrigin = '';
let foreignOrigin = '';

before(async () => {
  const uploads = await startUploadFixture();
  stopUploads = uploads.stop;
  ownOrigin = uploads.origin;
  foreignOrigin = uploads.foreignOrigin;
  conn = new ServerConnection(httpServer('uploads', `${ownOrigin}/mcp`, { Authorization: 'Bearer test-token' }), {
    log,
    elicitation: createElicitationHandler(ui, { log, transport: 'http', interactive: true, binaryMaxFileSize: 64 * 1024 * 1024 }),
    capabilities: { binaryElicitation: { maxFileSize: 64 * 1024 * 1024 } },
  });
  await conn.start();
});
after(async () => {
  await conn.stop();
  await stopUploads();
});

interface Outcome {
  result: { action: string; content?: Record<string, unknown> };
  progress: { progress: number; total?: number; message?: string }[];
  upload: {
    method: string;
    authorization: string | null;
    chunks: number;
    parts: { name: string; filename: string; contentType: string; size: number; sha256: string }[];
  } | null;
}
async function upload(args: Record<string, unknown>): Promise<Outcome> {
  const r = await conn.callTool('upload', args);
  return JSON.parse((r.content[0] as { text: string }).text) as Outcome;
}

test("a file field renders beside ordinary fields, and the file is uploaded as multipart with the token to the server's own origin", async () => {
  ui.reset();
  ui.answer = (req) => ({ action: 'accept', values: { ...req.values, note: 'Q1' }, files: { document: [pdf] } });
  const out = await upload({ target: 'same' });
  const form = ui.forms[0]!;
  assert.equal(form.mode, 'binary');
  assert.deepEqual(
    form.form.fields.map((f) => [f.id, f.kind]),
    [
      ['/document', 'file'],
      ['/note', 'string'],
    ],
  );
  assert.equal(out.upload!.authorization, 'Bearer test-token');
  assert.equal(out.upload!.method, 'POST');
  assert.deepEqual(out.upload!.parts, [
    {
      name: 'file',
      filename: 'report \\"q1\\".pdf',
      contentType: 'application/pdf',
      size: 3009,
      sha256: sha(Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(3000, 7)])),
    },
  ]);
  assert.equal(out.result.action, 'accept');
  const doc = out.result.content!.document as Record<string, unknown>;
  assert.deepEqual({ ...doc, uploadId: typeof doc.uploadId }, { name: 'report "q1".pdf', size: 3009, mimeType: 'application/pdf', uploadId: 'string' });
  assert.equal(out.result.content!.note, 'Q1');
  assert.equal(ui.consents.length, 0, "the server's own origin needs no extra consent");
});

test("another origin needs the user's consent and never receives the token", async () => {
  ui.reset();
  ui.answer = (req) => ({ action: 'accept', values: req.values, files: { document: [notes] } });
  const refused = await upload({ target: 'foreign' });
  assert.equal(refused.result.action, 'cancel');
  assert.equal(refused.upload, null, 'nothing was uploaded');
  assert.equal(ui.consents[0]!.destination, foreignOrigin);
  assert.equal(ui.consents[0]!.fileName, 'notes.txt');
  assert.match(ui.notices[0]!, /not the server's own origin/);

  ui.reset();
  ui.allowOtherOrigin = true;
  ui.answer = (req) => ({ action: 'accept', values: req.values, files: { document: [notes] } });
  const allowed = await upload({ target: 'foreign' });
  assert.equal(allowed.result.action, 'accept');
  assert.equal(allowed.upload!.authorization, null, 'the MCP token stays with the MCP server');
  assert.equal(allowed.upload!.parts[0]!.contentType, 'text/plain');
});

test('a 48 MB file is streamed from disk with byte progress, without being held in memory', async (t) => {
  ui.reset();
  ui.answer = (req) => ({ action: 'accept', values: req.values, files: { document: [big] } });
  // Live memory, sampled after a full collection, so garbage awaiting collection does not count.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  const base = process.memoryUsage();
  let peak = 0;
  const sampler = setInterval(() => {
    gc();
    const m = process.memoryUsage();
    peak = Math.max(peak, m.heapUsed + m.arrayBuffers - base.heapUsed - base.arrayBuffers);
  }, 100);
  let out: Outcome;
  try {
    out = await upload({ target: 'same' });
  } finally {
    clearInterval(sampler);
  }
  assert.equal(out.result.action, 'accept');
  assert.equal(out.upload!.parts[0]!.size, BIG_BYTES);
  assert.ok(out.upload!.chunks > 10, 'the body arrived in many chunks');
  assert.ok(peak < 16 * 1024 * 1024, `live memory grew by ${Math.round(peak / 1048576)} MB while uploading 48 MB`);
  t.diagnostic(`live memory growth while uploading 48 MB: ${(peak / 1048576).toFixed(2)} MB`);
  const progress = out.progress;
  assert.ok(progress.length >= 1, 'progress was reported');
  assert.ok(
    progress.every((p, i) => i === 0 || p.progress > progress[i - 1]!.progress),
    'progress only grows',
  );
  assert.ok(progress.every((p) => p.total === BIG_BYTES));
  assert.match(progress[0]!.message!, /Uploading big\.txt/);
});

test('a failed upload cancels the elicitation with a clear error', async () => {
  ui.reset();
  ui.answer = (req) => ({ action: 'accept', values: req.values, files: { document: [notes] } });
  const out = await upload({ target: 'fail' });
  assert.equal(out.result.action, 'cancel');
  assert.match(ui.notices[0]!, /Upload for "document" to uploads failed: the upload endpoint http:\/\/127\.0\.0\.1:\d+ answered HTTP 500/);
});

test('a file rewritten after its check (same size and time) is refused and none of it is uploaded', async () => {
  ui.reset();
  const edited = join(dir, 'edited.txt');
  const when = 1_700_000_000;
  writeFileSync(edited, 'first draft\n');
  utimesSync(edited, when, when);
  ui.allowOtherOrigin = true;
  ui.whileAsked = () => {
    writeFileSync(edited, 'final draft\n');
    utimesSync(edited, when, when);
  };
  ui.answer = (req) => ({ action: 'accept', values: req.values, files: { document: [edited] } });
  const out = await upload({ target: 'foreign' });
  assert.equal(out.result.action, 'cancel');
  assert.equal(out.upload, null, 'the endpoint received no upload');
  assert.match(ui.notices[0]!, /Upload for "document" to uploads failed: edited\.txt changed after it was checked; choose it again/);
});

test('an endpoint that is neither HTTPS nor this machine is refused before asking anything', async () => {
  ui.reset();
  ui.allowOtherOrigin = true;
  ui.answer = (req) => ({ action: 'accept', values: req.values, files: { document: [notes] } });
  const out = await upload({ target: 'insecure' });
  assert.equal(out.result.action, 'cancel');
  assert.equal(ui.consents.length, 0);
  assert.match(ui.notices[0]!, /http:\/\/upload\.example\.com is not HTTPS/);
});

test('accept, maxSize and "multiple" are checked before any upload, and the user is asked again', async () => {
  ui.reset();
  ui.answer = (req) =>
    req.attempt === 1
      ? { action: 'accept', values: req.values, files: { document: [png] } }
      : req.attempt === 2
        ? { action: 'accept', values: req.values, files: { document: [pdf] } }
        : req.attempt === 3
          ? { action: 'accept', values: req.values, files: { document: [notes, notes] } }
          : { action: 'decline' };
  const out = await upload({ target: 'same', maxSize: 1000 });
  assert.equal(out.result.action, 'decline');
  assert.equal(out.upload, null);
  assert.match(ui.forms[1]!.errors!['/document']!, /image\.png is image\/png; this tool accepts application\/pdf, text\/plain/);
  assert.match(ui.forms[2]!.errors!['/document']!, /is 2\.9 KiB \(3,009 bytes\); this tool accepts at most 1000 bytes/);
  assert.equal(ui.forms[3]!.errors!['/document'], 'Only one file is allowed.');
});

test('several files for a "multiple" field go up as one part each and come back as a list', async () => {
  ui.reset();
  ui.answer = (req) => ({ action: 'accept', values: req.values, files: { document: [notes, pdf] } });
  const out = await upload({ target: 'same', multiple: true });
  assert.deepEqual(
    out.upload!.parts.map((p) => [p.filename, p.contentType]),
    [
      ['notes.txt', 'text/plain'],
      ['report \\"q1\\".pdf', 'application/pdf'],
    ],
  );
  const docs = out.result.content!.document as { name: string; uploadId: string }[];
  assert.deepEqual(
    docs.map((d) => d.name),
    ['notes.txt', 'report "q1".pdf'],
  );
  assert.equal(docs[0]!.uploadId, docs[1]!.uploadId);
});

test("a file over the host's own upload limit (the declared maxFileSize) is refused naming that limit", async () => {
  const handler = createElicitationHandler(ui, { log, transport: 'http', interactive: false, binaryMaxFileSize: 1000 });
  ui.reset();
  ui.answer = (req) => ({ action: 'accept', values: req.values, files: { document: [pdf] } });
  const params = {
    mode: 'binary',
    message: 'Upload',
    requestedSchema: { type: 'object', properties: { document: { type: 'file', accept: ['application/pdf'], maxSize: 100 * 1024 * 1024 } } },
    uploadEndpoints: { document: { url: `${ownOrigin}/upload/x`, method: 'POST', uploadId: 'x' } },
  };
  await assert.rejects(handler(params, { server: 'uploads', signal: new AbortController().signal }), (e: Error) => {
    assert.match(
      e.message,
      /document: report "q1"\.pdf is 2\.9 KiB \(3,009 bytes\); the host uploads at most 1000 bytes per file \(its binary-upload limit, maxFileSize\)/,
    );
    assert.doesNotMatch(e.message, /inline/);
    assert.doesNotMatch(e.message, /document: document:/, 'the field is named once');
    return true;
  });
});

test('with a file confirmation: one question names another origin plainly, and its Cancel returns to the form with values and files kept', async () => {
  const confirmations: FileConfirmRequest[] = [];
  let confirmAnswers = [false, true];
  const withConfirm = Object.assign(Object.create(ui) as UploadUi, {
    async confirmFiles(req: FileConfirmRequest) {
      confirmations.push(req);
      return confirmAnswers.shift() ?? false;
    },
  });
  ui.reset();
  const handler = createElicitationHandler(withConfirm, { log, transport: 'http', interactive: true, binaryMaxFileSize: 64 * 1024 * 1024 });
  const c = new ServerConnection(httpServer('uploads-confirmed', `${ownOrigin}/mcp`, { Authorization: 'Bearer test-token' }), {
    log,
    elicitation: handler,
    capabilities: { binaryElicitation: { maxFileSize: 64 * 1024 * 1024 } },
  });
  await c.start();
  try {
    ui.answer = (req) =>
      req.files
        ? { action: 'accept', values: req.values, files: req.files } // the user sends again what the form kept
        : { action: 'accept', values: { ...req.values, note: 'kept' }, files: { document: [notes] } };
    const r = await c.callTool('upload', { target: 'foreign' });
    const out = JSON.parse((r.content[0] as { text: string }).text) as Outcome;
    assert.equal(out.result.action, 'accept');
    assert.equal(out.upload!.authorization, null, 'the MCP token stays with the MCP server');
    assert.equal(ui.forms.length, 2, 'Cancel in the confirmation asked the question again');
    assert.equal(ui.forms[1]!.values.note, 'kept');
    assert.deepEqual(ui.forms[1]!.files, { document: [notes] });
    assert.equal(confirmations.length, 2);
    assert.deepEqual(
      confirmations[1]!.files.map((f) => [f.name, f.destination, f.otherOrigin]),
      [['notes.txt', foreignOrigin, true]],
    );
    assert.equal(ui.consents.length, 0, 'no second question about the origin');

    ui.reset();
    confirmAnswers = [true];
    confirmations.length = 0;
    ui.answer = (req) => ({ action: 'accept', values: req.values, files: { document: [notes] } });
    await c.callTool('upload', { target: 'same' });
    assert.equal(confirmations[0]!.files[0]!.otherOrigin, undefined, "the server's own origin is not flagged");
  } finally {
    await c.stop();
  }
});
