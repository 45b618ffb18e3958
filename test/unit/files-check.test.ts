import { after, test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp, mkdtempSync, writeFileSync, symlinkSync, mkdirSync, openSync, ftruncateSync, closeSync, utimesSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  checkDataUriValue,
  checkFile,
  checkTotalSize,
  decideType,
  encodeDataUri,
  fileInputValue,
  findFileOutputs,
  findFileSlots,
  formatBytes,
  inlineLimitsFor,
  readCheckedFile,
  setAtPath,
  type CheckedFile,
  type FileSlot,
} from '../../src/core/files';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNkYGBgAAAABQABWaDDsAAAAABJRU5ErkJggg==', 'base64');
const HEIC = Buffer.concat([Buffer.from('0000001866747970686569630000000068656963', 'hex'), Buffer.alloc(64)]);
const PDF = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n', 'latin1');
const ZIP = Buffer.concat([Buffer.from('504b0304140000000800', 'hex'), Buffer.alloc(40)]);
const GIF = Buffer.concat([
  Buffer.from('GIF89a', 'latin1'),
  Buffer.from('0100010080000000000000ffffff21f90401000000002c00000000010001000002024401003b', 'hex'),
]);

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
  assert.match(
    reason,
    /^blob: huge\.bin is 100 GiB \(107,374,182,400 bytes\); at most 7 MiB \(7,340,032 bytes\) can be sent inline to a stdio server \(the MCP SDK's stdio transport drops messages over 10 MiB\)$/,
  );
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

test('text that starts like a bitmap, an MP3 or a GIF keeps the type its name gives', async () => {
  const textSlot = slot({ label: 'doc', accept: ['text/*'] });
  for (const [name, text, type] of [
    ['cars.txt', 'BMW sales rose 4% in March\n', 'text/plain'],
    ['tags.csv', 'ID3,title,artist\n1,Song,Band\n', 'text/csv'],
    ['history.md', 'GIF87a is the older of the two GIF versions.\n', 'text/markdown'],
  ]) {
    const { file: f, warnings } = await checked(file(name!, text!), textSlot);
    assert.deepEqual([f.mediaType, f.contentType, warnings], [type, undefined, []], name);
  }
  assert.equal(decideType('NOTES', Buffer.from('BM is what the notes start with')).mediaType, 'application/octet-stream');
});

test('real binary signatures still win over a text name, with a warning; a text-born PDF is still a PDF', async () => {
  const { file: gif, warnings } = await checked(file('pixel.txt', GIF), slot({ label: 'doc' }));
  assert.equal(gif.mediaType, 'image/gif');
  assert.deepEqual(warnings, ['doc: pixel.txt is named like text/plain but its content is image/gif; sending it as image/gif']);
  assert.equal(decideType('scan.txt', Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\n')).mediaType, 'application/pdf');
  assert.equal(decideType('dot.txt', PNG).mediaType, 'image/png');
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

test('a file whose content changed type after the check, with the same size and time, is refused at read time', async () => {
  const p = file('shot.png', PNG);
  const when = 1_700_000_000;
  utimesSync(p, when, when);
  const s = slot({ accept: ['image/png', 'application/pdf'] });
  const { file: f } = await checked(p, s);
  writeFileSync(p, Buffer.concat([PDF, Buffer.alloc(PNG.length - PDF.length, 0x20)]));
  utimesSync(p, when, when);
  await assert.rejects(readCheckedFile(f, s, stdio), {
    message: 'image: shot.png changed after it was checked (it was image/png, its content is now application/pdf); choose it again',
  });
});

test('a file whose first bytes changed after the check, with the same size, time and type, is refused at read time', async () => {
  const p = file('other-shot.png', PNG);
  const when = 1_700_000_000;
  utimesSync(p, when, when);
  const s = slot({ label: 'image', accept: ['image/png'] });
  const { file: f } = await checked(p, s);
  const edited = Buffer.from(PNG);
  edited[PNG.length - 1]! ^= 0xff;
  writeFileSync(p, edited);
  utimesSync(p, when, when);
  await assert.rejects(readCheckedFile(f, s, stdio), { message: 'image: other-shot.png changed after it was checked; choose it again' });
  writeFileSync(p, PNG);
  utimesSync(p, when, when);
  assert.match(await readCheckedFile(f, s, stdio), /^data:image\/png;base64,/, 'the original bytes read again');
});

// Digest §9.3, last row
test('array items with maxSize 1000: a 900-byte file passes and the 1100-byte one is refused, by name', async () => {
  const schema = { type: 'object', properties: { images: { type: 'array', items: { type: 'string', format: 'uri', 'x-mcp-file': { maxSize: 1000 } } } } };
  const [images] = findFileSlots({ name: 'g', inputSchema: schema }).slots;
  assert.ok((await checkFile(file('small.bin', Buffer.alloc(900)), images!, stdio)).ok);
  assert.equal(
    await refusedReason(file('large.bin', Buffer.alloc(1100)), images!),
    'images: large.bin is 1.1 KiB (1,100 bytes); this tool accepts at most 1000 bytes',
  );
  // What a server checks per item.
  const uri = (n: number) => encodeDataUri(Buffer.alloc(n), 'application/octet-stream');
  assert.ok(checkDataUriValue('images[0]', uri(900), { maxSize: 1000 }).ok);
  const refused = checkDataUriValue('images[1]', uri(1100), { maxSize: 1000 });
  assert.equal(refused.ok ? '' : refused.reason, "Argument 'images[1]' exceeds maxSize: received 1100 bytes, limit is 1000.");
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
  await assert.rejects(
    fileInputValue(fin, s, { mode: 'path', workspaceRoots: [workspace], serverIsLocalStdio: false }),
    /upload: a file path can only be given to a server running on this machine over stdio/,
  );
  const { file: flink } = await checked(link, s);
  await assert.rejects(
    fileInputValue(flink, s, { mode: 'path', workspaceRoots: [workspace], serverIsLocalStdio: true }),
    /upload: link\.txt resolves to a place outside the workspace folders/,
  );
  await assert.rejects(
    fileInputValue(fin, s, { mode: 's3', workspaceRoots: [workspace], serverIsLocalStdio: true }),
    /S3 source needs a presigned URL.*cannot be filled from a local file/,
  );
  await assert.rejects(
    fileInputValue(fin, s, { mode: 'content', workspaceRoots: [workspace], serverIsLocalStdio: true }),
    /does not accept a file content \(it offers path\)/,
  );
});

test('FileOutput objects are found in structured content with their source and size', () => {
  const outputs = findFileOutputs({
    report: { content: 'aGVsbG8=', filename: 'r.csv', mime_type: 'text/csv', size_bytes: '5' },
    more: [
      { path: '/srv/out.bin', filename: 'out.bin', size_bytes: 9 },
      { s3: { presigned_url: 'https://s3/x' }, filename: 'x' },
    ],
    unrelated: { filename: 'no source here' },
  });
  assert.deepEqual(outputs, [
    { path: ['report'], filename: 'r.csv', mimeType: 'text/csv', sizeBytes: 5, source: { kind: 'content', base64: 'aGVsbG8=', size: 5 } },
    { path: ['more', '0'], filename: 'out.bin', sizeBytes: 9, source: { kind: 'path', path: '/srv/out.bin' } },
    { path: ['more', '1'], filename: 'x', source: { kind: 's3', url: 'https://s3/x' } },
  ]);
});

test('a search hit with a filename and a path is not a FileOutput; one with the full FileOutput shape is', () => {
  assert.deepEqual(findFileOutputs({ matches: [{ filename: 'a.ts', path: 'src/a.ts' }] }), []);
  assert.deepEqual(findFileOutputs({ matches: [{ filename: 'a.ts', path: 'src/a.ts', line: 3, mime_type: 'text/x-typescript' }] }), []);
  assert.deepEqual(findFileOutputs({ both: { filename: 'b.bin', path: '/srv/b.bin', content: 'AAAA', size_bytes: 3 } }), []);
  assert.deepEqual(findFileOutputs({ out: { filename: 'a.csv', path: '/srv/a.csv', mime_type: 'text/csv', content: null, s3: null } }), [
    { path: ['out'], filename: 'a.csv', mimeType: 'text/csv', source: { kind: 'path', path: '/srv/a.csv' } },
  ]);
});

test('with an outputSchema that uses the x-mcp-file-mode marker, exactly the marked objects are FileOutputs', () => {
  const schema = {
    type: 'object',
    $defs: { out: { type: 'object', 'x-mcp-file-mode': 'output' } },
    properties: {
      report: { type: 'object', 'x-mcp-file-mode': 'output', properties: { filename: { type: 'string' }, path: { type: 'string' } } },
      hits: { type: 'array', items: { type: 'object', properties: { filename: { type: 'string' }, path: { type: 'string' }, mime_type: { type: 'string' } } } },
      more: { type: 'array', items: { $ref: '#/$defs/out' } },
    },
  };
  const structured = {
    report: { filename: 'r.csv', path: '/srv/r.csv' },
    hits: [{ filename: 'a.csv', path: '/srv/a.csv', mime_type: 'text/csv' }],
    more: [{ filename: 'x.bin', s3: { presigned_url: 'https://s3/x' } }],
  };
  assert.deepEqual(
    findFileOutputs(structured, schema).map((o) => o.path),
    [['report'], ['more', '0']],
  );
  // Without the schema the shape decides: the report lacks mime_type and size_bytes, the hit has one.
  assert.deepEqual(
    findFileOutputs(structured).map((o) => o.path),
    [
      ['hits', '0'],
      ['more', '0'],
    ],
  );
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
    'image: 2 files (part-a.bin, part-b.bin) add up to 1.2 KiB (1,200 bytes); at most 1000 bytes can be sent inline to a stdio server in one call (the configured stdio limit)',
  );
});

test('a total over the ceiling names each argument; files passed by path put no bytes in the message and do not count', async () => {
  const limits = inlineLimitsFor('stdio', { stdioMaxBytes: 1000 });
  const ok = async (path: string, s: FileSlot): Promise<CheckedFile> => {
    const c = await checkFile(path, s, limits);
    assert.ok(c.ok, c.ok ? '' : c.reason);
    return c.file;
  };
  const photo = await ok(file('photo.bin', Buffer.alloc(600)), slot({ label: 'photo', path: ['photo'] }));
  const doc = await ok(file('doc.bin', Buffer.alloc(600)), slot({ label: 'doc.attachment', path: ['doc', 'attachment'] }));
  assert.equal(
    checkTotalSize([photo, doc], limits),
    'photo, doc.attachment: 2 files (photo: photo.bin; doc.attachment: doc.bin) add up to 1.2 KiB (1,200 bytes); at most 1000 bytes can be sent inline to a stdio server in one call (the configured stdio limit)',
  );
  // Over the ceiling on its own, yet fine: only its path is sent.
  const byPath = await ok(file('by-path.bin', Buffer.alloc(5000)), objectSlot(['path']));
  assert.equal(byPath.inline, false);
  assert.equal(checkTotalSize([photo, byPath], limits), undefined);
  const byContent = await ok(file('by-content.bin', Buffer.alloc(600)), objectSlot(['content', 'path']));
  assert.match(checkTotalSize([photo, byContent], limits) ?? '', /^photo, upload: 2 files \(photo: photo\.bin; upload: by-content\.bin\) add up to/);
});
