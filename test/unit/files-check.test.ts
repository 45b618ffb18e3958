import { after, test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp, mkdtempSync, writeFileSync, symlinkSync, mkdirSync, openSync, ftruncateSync, closeSync, utimesSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  checkFile, checkTotalSize, fileInputValue, findFileOutputs, formatBytes, inlineLimitsFor, readCheckedFile, setAtPath,
  type CheckedFile, type FileSlot,
} from '../../src/core/files';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNkYGBgAAAABQABWaDDsAAAAABJRU5ErkJggg==', 'base64');
const HEIC = Buffer.concat([Buffer.from('0000001866747970686569630000000068656963', 'hex'), Buffer.alloc(64)]);
const PDF = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n', 'latin1');
const ZIP = Buffer.concat([Buffer.from('504b0304140000000800', 'hex'), Buffer.alloc(40)]);

const dir = mkdtempSync(join(tmpdir(), 'mcp-host-files-'));
after(() => rmSync(dir, { recursive: true, force: true }));
function file(name: string, bytes: Buffer | string): string {
  const p = join(dir, name);
  writeFileSync(p, bytes);
  return p;
}

function slot(extra: Partial<FileSlot> = {}): FileSlot {
  return { path: ['image'], label: 'image', multiple: false, origin: 'x-mcp-file', required: true, ...extra };
}

const stdio = inlineLimitsFor('stdio');
const imageSlot = slot({ accept: ['image/png', 'image/jpeg'], maxSize: 65536 });

async function checked(path: string, s: FileSlot = slot()): Promise<{ file: CheckedFile; warnings: string[] }> {
  const c = await checkFile(path, s, stdio);
  assert.ok(c.ok, c.ok ? '' : c.reason);
  return c;
}

async function refusedReason(path: string, s: FileSlot, limits = stdio): Promise<string> {
  const c = await checkFile(path, s, limits);
  assert.equal(c.ok, false, 'expected a refusal');
  return c.ok ? '' : c.reason;
}

test('a 70-byte PNG is checked as image/png, 70 bytes, and encodes to the exact data URI', async () => {
  const { file: f, warnings } = await checked(file('dot.png', PNG), imageSlot);
  assert.deepEqual([f.name, f.size, f.mediaType, f.contentType, f.extensionType], ['dot.png', 70, 'image/png', 'image/png', 'image/png']);
  assert.deepEqual(warnings, []);
  assert.equal(await readCheckedFile(f, imageSlot, stdio), `data:image/png;base64,${PNG.toString('base64')}`);
  assert.equal(await readCheckedFile(f, imageSlot, stdio, { legacyName: true }), `data:image/png;name=dot.png;base64,${PNG.toString('base64')}`);
});

test('refuses a 70 KB file for a 64 KB slot before opening it, naming the argument, file and limit', async () => {
  const big = file('big.png', Buffer.concat([PNG, Buffer.alloc(70 * 1024 - PNG.length)]));
  const open = mock.method(fsp, 'open');
  try {
    const reason = await refusedReason(big, imageSlot);
    assert.equal(reason, 'image: big.png is 70 KiB (71,680 bytes); this tool accepts at most 64 KiB (65,536 bytes)');
    assert.equal(open.mock.callCount(), 0, 'the file was opened');
  } finally {
    open.mock.restore();
  }
  // The spy is real: checking a small file does open it.
  const spy = mock.method(fsp, 'open');
  try {
    await checked(file('small.png', PNG), imageSlot);
    assert.ok(spy.mock.callCount() >= 1);
  } finally {
    spy.mock.restore();
  }
});

test('a 100 GiB sparse file is refused at once against the stdio ceiling, and against the HTTP one', async () => {
  const p = join(dir, 'huge.bin');
  const fd = openSync(p, 'w');
  ftruncateSync(fd, 100 * 1024 ** 3);
  closeSync(fd);
  const started = Date.now();
  const reason = await refusedReason(p, slot({ label: 'blob' }));
  assert.ok(Date.now() - started < 1000);
  assert.match(reason, /^blob: huge\.bin is 100 GiB \(107,374,182,400 bytes\); at most 7 MiB \(7,340,032 bytes\) can be sent inline to a stdio server \(the MCP SDK's stdio transport drops messages over 10 MiB\)$/);
  const http = await refusedReason(p, slot({ label: 'blob', maxSize: 200 * 1024 ** 3 }), inlineLimitsFor('http'));
  assert.match(http, /can be sent inline to an HTTP server \(HTTP servers built on the MCP SDK refuse request bodies over 4 MiB\)/);
});

test('a raised transport ceiling lets a larger file through, and maxSize still wins when smaller', async () => {
  const p = file('eight.bin', Buffer.alloc(8 * 1024 * 1024));
  const raised = inlineLimitsFor('stdio', { stdioMaxBytes: 9 * 1024 * 1024 });
  assert.ok((await checkFile(p, slot(), raised)).ok);
  assert.match(await refusedReason(p, slot({ maxSize: 1024 }), raised), /this tool accepts at most 1 KiB/);
});

test('a HEIC photo is refused by a PNG/JPEG slot with the message users see', async () => {
  assert.equal(await refusedReason(file('photo.heic', HEIC), imageSlot), 'image: photo.heic is image/heic; this tool accepts image/png, image/jpeg');
});

test('a PDF renamed to .png is refused by its content, not its name', async () => {
  assert.equal(await refusedReason(file('picture.png', PDF), imageSlot), 'image: picture.png is application/pdf; this tool accepts image/png, image/jpeg');
});

test('a PNG named .jpg is sent as image/png with a warning that name and content disagree', async () => {
  const { file: f, warnings } = await checked(file('cat.jpg', PNG), imageSlot);
  assert.equal(f.mediaType, 'image/png');
  assert.equal(f.extensionType, 'image/jpeg');
  assert.deepEqual(warnings, ['image: cat.jpg is named like image/jpeg but its content is image/png; sending it as image/png']);
});

test('a PNG saved as .bin is sent as image/png without a warning', async () => {
  const { file: f, warnings } = await checked(file('capture.bin', PNG), imageSlot);
  assert.equal(f.mediaType, 'image/png');
  assert.deepEqual(warnings, []);
});

test('container formats keep their specific type: a .docx (zip inside) is a Word document, no warning', async () => {
  const { file: f, warnings } = await checked(file('letter.docx', ZIP));
  assert.equal(f.mediaType, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
  assert.deepEqual(warnings, []);
});

test('text files take their type from the extension; unknown files are application/octet-stream', async () => {
  assert.equal((await checked(file('notes.md', '# hi\n'))).file.mediaType, 'text/markdown');
  assert.equal((await checked(file('blob.unknownext', 'xyz'))).file.mediaType, 'application/octet-stream');
});

test('an extensions-only accept list filters by extension', async () => {
  const pdfOnly = slot({ label: 'doc', accept: ['.pdf'] });
  assert.ok((await checkFile(file('scan.pdf', PDF), pdfOnly, stdio)).ok);
  assert.equal(await refusedReason(file('scan.txt', 'text'), pdfOnly), 'doc: scan.txt is text/plain; this tool accepts .pdf');
});

test('with no maxSize, a file above the warning threshold passes with a warning', async () => {
  const limits = inlineLimitsFor('stdio', { warnAboveBytes: 100 });
  const c = await checkFile(file('medium.txt', 'x'.repeat(200)), slot({ label: 'doc' }), limits);
  assert.ok(c.ok);
  assert.deepEqual(c.ok && c.warnings, ['doc: medium.txt is 200 bytes; the tool declares no size limit, so the server may refuse it']);
});

test('missing files and folders are refused by name', async () => {
  assert.equal(await refusedReason(join(dir, 'nope.png'), imageSlot), 'image: nope.png does not exist');
  mkdirSync(join(dir, 'folder.png'), { recursive: true });
  assert.equal(await refusedReason(join(dir, 'folder.png'), imageSlot), 'image: folder.png is not a regular file (it is a folder)');
});

test('a file that changed after the check is refused at read time', async () => {
  const p = file('moving.txt', 'first version');
  const { file: f } = await checked(p, slot({ label: 'doc' }));
  writeFileSync(p, 'second, longer version');
  await assert.rejects(readCheckedFile(f, slot({ label: 'doc' }), stdio), /doc: moving\.txt changed after it was checked/);
  const q = file('touched.txt', 'same size');
  const { file: g } = await checked(q, slot({ label: 'doc' }));
  writeFileSync(q, 'SAME SIZE');
  utimesSync(q, new Date(), new Date(Date.now() + 5000));
  await assert.rejects(readCheckedFile(g, slot({ label: 'doc' }), stdio), /changed after it was checked/);
});

const objectSlot = (modes: FileSlot['objectModes']): FileSlot => slot({ label: 'upload', path: ['upload'], origin: 'file-input-object', objectModes: modes });

test('a FileInput object is filled with base64 content, filename and mime_type', async () => {
  const { file: f } = await checked(file('dot2.png', PNG));
  const value = await fileInputValue(f, objectSlot(['content', 'path', 's3']), { mode: 'content', workspaceRoots: [dir], serverIsLocalStdio: false });
  assert.deepEqual(value, { content: PNG.toString('base64'), filename: 'dot2.png', mime_type: 'image/png' });
});

test('a FileInput path is given only to a local stdio server and only inside the workspace, symlinks resolved', async () => {
  const workspace = join(dir, 'ws');
  mkdirSync(workspace, { recursive: true });
  const inside = join(workspace, 'in.txt');
  writeFileSync(inside, 'inside');
  const outside = file('outside.txt', 'secret');
  const link = join(workspace, 'link.txt');
  symlinkSync(outside, link);
  const s = objectSlot(['path']);
  const { file: fin } = await checked(inside, s);
  const value = await fileInputValue(fin, s, { mode: 'path', workspaceRoots: [workspace], serverIsLocalStdio: true });
  assert.equal(value.path, await fsp.realpath(inside));
  await assert.rejects(fileInputValue(fin, s, { mode: 'path', workspaceRoots: [workspace], serverIsLocalStdio: false }), /upload: a file path can only be given to a server running on this machine over stdio/);
  const { file: flink } = await checked(link, s);
  await assert.rejects(fileInputValue(flink, s, { mode: 'path', workspaceRoots: [workspace], serverIsLocalStdio: true }), /upload: link\.txt resolves to a place outside the workspace folders/);
  await assert.rejects(fileInputValue(fin, s, { mode: 's3', workspaceRoots: [workspace], serverIsLocalStdio: true }), /S3 source needs a presigned URL.*cannot be filled from a local file/);
  await assert.rejects(fileInputValue(fin, s, { mode: 'content', workspaceRoots: [workspace], serverIsLocalStdio: true }), /does not accept a file content \(it offers path\)/);
});

test('FileOutput objects are found in structured content with their source and size', () => {
  const outputs = findFileOutputs({
    report: { content: 'aGVsbG8=', filename: 'r.csv', mime_type: 'text/csv', size_bytes: '5' },
    more: [{ path: '/srv/out.bin', filename: 'out.bin' }, { s3: { presigned_url: 'https://s3/x' }, filename: 'x' }],
    unrelated: { filename: 'no source here' },
  });
  assert.deepEqual(outputs, [
    { path: ['report'], filename: 'r.csv', mimeType: 'text/csv', sizeBytes: 5, source: { kind: 'content', base64: 'aGVsbG8=', size: 5 } },
    { path: ['more', '0'], filename: 'out.bin', source: { kind: 'path', path: '/srv/out.bin' } },
    { path: ['more', '1'], filename: 'x', source: { kind: 's3', url: 'https://s3/x' } },
  ]);
});

test('setAtPath creates nested objects and refuses prototype keys', () => {
  const args: Record<string, unknown> = { doc: { title: 't' } };
  setAtPath(args, ['doc', 'attachment'], 'data:,x');
  setAtPath(args, ['a', 'b', 'c'], 1);
  assert.deepEqual(args, { doc: { title: 't', attachment: 'data:,x' }, a: { b: { c: 1 } } });
  assert.throws(() => setAtPath(args, ['__proto__', 'x'], 1), /refusing/);
});

test('transport defaults: 7 MiB on stdio, just under 4 MiB of base64 on HTTP; sizes read naturally', () => {
  assert.equal(inlineLimitsFor('stdio').ceilingBytes, 7 * 1024 * 1024);
  const http = inlineLimitsFor('http').ceilingBytes;
  assert.ok(Math.ceil(http / 3) * 4 + 16 * 1024 < 4 * 1024 * 1024);
  assert.equal(inlineLimitsFor('sse').ceilingBytes, http);
  assert.equal(inlineLimitsFor('http', { httpMaxBytes: 32 * 1024 * 1024 }).ceilingBytes, 32 * 1024 * 1024);
  assert.deepEqual([formatBytes(70), formatBytes(65536), formatBytes(1536), formatBytes(7 * 1024 * 1024)], ['70 bytes', '64 KiB', '1.5 KiB', '7 MiB']);
});

test('files that fit one by one but not together are refused against the transport ceiling', async () => {
  const limits = inlineLimitsFor('stdio', { stdioMaxBytes: 1000 });
  const a = await checkFile(file('part-a.bin', Buffer.alloc(600)), slot(), limits);
  const b = await checkFile(file('part-b.bin', Buffer.alloc(600)), slot(), limits);
  assert.ok(a.ok && b.ok);
  assert.equal(checkTotalSize([a.file], limits), undefined);
  assert.equal(
    checkTotalSize([a.file, b.file], limits),
    '2 files (part-a.bin, part-b.bin) add up to 1.2 KiB (1,200 bytes); at most 1000 bytes can be sent inline to a stdio server in one call (the configured stdio limit)',
  );
});
