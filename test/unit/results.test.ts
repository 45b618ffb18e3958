import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync, symlinkSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ServerConnection } from '../../src/core/connection';
import { Logger } from '../../src/core/log';
import { downloadToFile, pathInsideWorkspace, planSave, resolveSave, toResultView, writeNewFile, RESULT_LIMITS } from '../../src/core/results';
import { stdioFixture } from '../fixtures/servers';
import { tempDir } from '../helpers/tempDirs';

const tool = { name: 'weather', outputSchema: { type: 'object', properties: { t: { type: 'number' } }, required: ['t'] } };

test('every content block becomes a display item, annotations included', () => {
  const png = Buffer.from('89504e470d0a1a0a', 'hex').toString('base64');
  const view = toResultView({
    content: [
      { type: 'text', text: '<b>hi</b>', annotations: { audience: ['user'], priority: 0.9 } },
      { type: 'image', data: png, mimeType: 'image/png' },
      { type: 'audio', data: 'AAAA', mimeType: 'audio/wav', annotations: { audience: ['assistant', 'robot'], priority: 7 } },
      { type: 'resource_link', uri: 'test://static/resource/1', name: 'Resource 1', mimeType: 'text/plain', description: 'd' },
      { type: 'resource', resource: { uri: 'test://a.txt', mimeType: 'text/plain', text: 'embedded' } },
      { type: 'resource', resource: { uri: 'test://b.bin', mimeType: 'application/octet-stream', blob: 'AQID' } },
      { type: 'mystery', x: 1 },
    ],
  });
  assert.equal(view.isError, false);
  assert.deepEqual(
    view.items.map((i) => i.kind),
    ['text', 'image', 'audio', 'resourceLink', 'resourceText', 'resourceBlob', 'unknown'],
  );
  assert.deepEqual(view.items[0], { kind: 'text', text: '<b>hi</b>', annotations: { audience: ['user'], priority: 0.9 } });
  assert.deepEqual(view.items[2]!.annotations, { audience: ['assistant'] }, 'unknown audiences and an out-of-range priority are dropped');
  const image = view.items[1]!;
  assert.ok(image.kind === 'image' && image.data === png && image.size === 8);
  const link = view.items[3]!;
  assert.ok(link.kind === 'resourceLink' && link.uri === 'test://static/resource/1' && link.name === 'Resource 1');
  assert.equal(view.saves.length, 3, 'image, audio and blob can be saved');
  assert.deepEqual(
    resolveSave(
      {
        content: [
          { type: 'x' },
          { type: 'x' },
          { type: 'x' },
          { type: 'x' },
          { type: 'x' },
          { type: 'resource', resource: { uri: 'test://b.bin', blob: 'AQID' } },
        ],
      },
      view.saves[2]!,
    ),
    { kind: 'bytes', bytes: Buffer.from([1, 2, 3]) },
  );
  assert.deepEqual(JSON.parse(JSON.stringify(view)), view, 'the view is plain JSON');
});

test('an image over the preview cap is offered for saving instead of previewed', () => {
  const big = Buffer.alloc(RESULT_LIMITS.previewBytes + 3).toString('base64');
  const result = { content: [{ type: 'image', data: big, mimeType: 'image/png' }] };
  const view = toResultView(result);
  const item = view.items[0]!;
  assert.ok(item.kind === 'image' && item.tooLargeToPreview && item.data === undefined);
  assert.equal(item.size, RESULT_LIMITS.previewBytes + 3);
  assert.match(view.warnings.join(), /too large to preview; save it/);
  const saved = resolveSave(result, item.save!);
  assert.ok(saved.kind === 'bytes' && saved.bytes.length === RESULT_LIMITS.previewBytes + 3);
});

test('structured content is checked against the output schema: valid, invalid, missing, skipped on error', () => {
  assert.equal(toResultView({ content: [], structuredContent: { t: 3 } }, tool).structured!.status, 'valid');
  const invalid = toResultView({ content: [], structuredContent: { t: 'warm' } }, tool).structured!;
  assert.equal(invalid.status, 'invalid');
  assert.deepEqual(invalid.errors, ['/t: Must be a number.']);
  assert.match(invalid.json!, /"warm"/, 'the raw value is shown with the error');
  const empty = toResultView({ content: [], structuredContent: {} }, tool).structured!;
  assert.equal(empty.status, 'invalid');
  assert.deepEqual(empty.errors, ['/t: Required.']);
  const missing = toResultView({ content: [{ type: 'text', text: '3' }] }, tool).structured!;
  assert.equal(missing.status, 'missing');
  assert.match(missing.errors![0]!, /declares an output schema but returned no structured content/);
  assert.equal(toResultView({ isError: true, content: [{ type: 'text', text: 'boom' }] }, tool).structured, undefined);
  assert.equal(toResultView({ isError: true, content: [], structuredContent: { t: 'x' } }, tool).structured!.status, 'skipped');
  assert.equal(toResultView({ content: [], structuredContent: [1, 2] }).structured!.status, 'unchecked');
  const draft7 = {
    name: 'd',
    outputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { a: { type: 'number' } }, required: ['a'] },
  };
  assert.equal(toResultView({ content: [], structuredContent: { a: 1 } }, draft7).structured!.status, 'valid');
  assert.equal(toResultView({ content: [], structuredContent: {} }, draft7).structured!.status, 'invalid');
});

test('FileOutput objects in structured content become save items (content, path, presigned URL)', () => {
  const result = {
    content: [],
    structuredContent: {
      report: { filename: 'r.pdf', mime_type: 'application/pdf', content: Buffer.from('%PDF-1').toString('base64') },
      files: [
        { filename: 'big.bin', path: '/srv/out/big.bin', size_bytes: '2048' },
        { filename: 'x.csv', s3: { presigned_url: 'https://bucket.example.com/x.csv?sig=1' } },
      ],
    },
  };
  const view = toResultView(result);
  assert.deepEqual(
    view.saves.map((s) => [s.name, s.source, s.size]),
    [
      ['r.pdf', 'inline', 6],
      ['big.bin', 'path', 2048],
      ['x.csv', 'url', undefined],
    ],
  );
  assert.deepEqual(
    view.items.map((i) => i.kind),
    ['fileOutput', 'fileOutput', 'fileOutput'],
  );
  assert.deepEqual(resolveSave(result, view.saves[0]!), { kind: 'bytes', bytes: Buffer.from('%PDF-1') });
  assert.deepEqual(resolveSave(result, view.saves[1]!), { kind: 'path', path: '/srv/out/big.bin' });
  assert.deepEqual(resolveSave(result, view.saves[2]!), { kind: 'url', url: 'https://bucket.example.com/x.csv?sig=1' });
});

test('a 30 MB text result is shown in part, kept whole for saving', () => {
  const text = 'y'.repeat(30 * 1024 * 1024);
  const view = toResultView({ content: [{ type: 'text', text }] });
  const item = view.items[0]!;
  assert.ok(item.kind === 'text' && item.text.length === RESULT_LIMITS.textChars && item.truncated?.totalChars === text.length);
  assert.ok(JSON.stringify(view).length < 2 * 1024 * 1024);
  const saved = resolveSave({ content: [{ type: 'text', text }] }, item.save!);
  assert.ok(saved.kind === 'bytes' && saved.bytes.length === text.length);
});

test('saving never overwrites: a taken name gets a free one, and a file that appears meanwhile is not clobbered', async () => {
  const dir = tempDir('mcp-save-');
  const item = { ref: 'content/0', name: '../../etc/passwd', source: 'inline' as const };
  const first = await planSave(item, dir);
  assert.equal(first, join(dir, 'passwd'), 'directories in a server-given name are dropped');
  await writeNewFile(first, Buffer.from('one'));
  const second = await planSave(item, dir);
  assert.equal(second, join(dir, 'passwd (1)'));
  writeFileSync(join(dir, 'a.png'), 'old');
  assert.equal(await planSave(item, dir, 'a.png'), join(dir, 'a (1).png'));
  await assert.rejects(writeNewFile(join(dir, 'a.png'), Buffer.from('new')), /EEXIST/);
  assert.equal(readFileSync(join(dir, 'a.png'), 'utf8'), 'old');
  assert.equal(await planSave(item, dir, 'CON'), join(dir, 'output_CON'));
});

test('a path counts as inside the workspace only by its real path', async () => {
  const root = tempDir('mcp-ws-');
  const outside = tempDir('mcp-out-');
  mkdirSync(join(root, 'sub'));
  writeFileSync(join(outside, 'secret'), 's');
  symlinkSync(outside, join(root, 'link'));
  assert.equal(await pathInsideWorkspace(join(root, 'sub', 'new.txt'), [root]), true);
  assert.equal(await pathInsideWorkspace(join(root, 'sub', '..', '..', 'x'), [root]), false);
  assert.equal(await pathInsideWorkspace(join(root, 'link', 'secret'), [root]), false, 'a symlink out of the workspace is outside');
  assert.equal(await pathInsideWorkspace('relative/path', [root]), false);
  assert.equal(await pathInsideWorkspace(join(outside, 'secret'), [root, outside]), true);
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; base: string }> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

test('a presigned URL is downloaded only with consent, over HTTPS (or this machine), within the size limit', async () => {
  let hits = 0;
  const { server, base } = await serve((req, res) => {
    hits++;
    if (req.url === '/ok') {
      res.end('hello');
      return;
    }
    if (req.url === '/redirect') {
      res.writeHead(302, { location: 'http://example.com/' }).end();
      return;
    }
    // No Content-Length: the limit must be enforced while streaming.
    res.writeHead(200, { 'transfer-encoding': 'chunked' });
    let sent = 0;
    const timer = setInterval(() => {
      res.write(Buffer.alloc(64 * 1024));
      sent += 64 * 1024;
      if (sent > 4 * 1024 * 1024) {
        clearInterval(timer);
        res.end();
      }
    }, 1);
    res.on('close', () => clearInterval(timer));
  });
  try {
    const dir = tempDir('mcp-dl-');
    await assert.rejects(downloadToFile(`${base}/ok`, join(dir, 'a'), { consent: false, maxBytes: 100 }), /not agreed/);
    assert.equal(hits, 0, 'nothing is fetched without consent');
    await assert.rejects(downloadToFile('http://bucket.example.com/x', join(dir, 'b'), { consent: true, maxBytes: 100 }), /not HTTPS/);
    await assert.rejects(downloadToFile('file:///etc/passwd', join(dir, 'c'), { consent: true, maxBytes: 100 }), /not HTTPS/);
    assert.equal(await downloadToFile(`${base}/ok`, join(dir, 'ok.txt'), { consent: true, maxBytes: 100 }), 5);
    assert.equal(readFileSync(join(dir, 'ok.txt'), 'utf8'), 'hello');
    await assert.rejects(downloadToFile(`${base}/ok`, join(dir, 'ok.txt'), { consent: true, maxBytes: 100 }), /EEXIST/);
    await assert.rejects(downloadToFile(`${base}/big`, join(dir, 'big'), { consent: true, maxBytes: 1024 * 1024 }), /more than 1048576 bytes/);
    assert.equal(existsSync(join(dir, 'big')), false, 'a partial download is removed');
    await assert.rejects(downloadToFile(`${base}/redirect`, join(dir, 'r'), { consent: true, maxBytes: 100 }), /redirects are not followed/);
  } finally {
    server.close();
  }
});

test("a real server's broken or missing structured content reaches toResultView as sent, with validateOutput: false", async () => {
  const conn = new ServerConnection(stdioFixture('recording-server.ts'), { log: new Logger(() => undefined, 'error') });
  await conn.start();
  try {
    const toolOf = (name: string) => conn.tools.find((t) => t.name === name);
    await assert.rejects(conn.callTool('bad_structured', {}), /output schema/, 'by default the SDK refuses it');
    const invalid = toResultView(await conn.callTool('bad_structured', {}, { validateOutput: false }), toolOf('bad_structured'));
    assert.equal(invalid.structured?.status, 'invalid');
    assert.equal(invalid.structured?.json, '{\n  "sum": "not a number"\n}');
    assert.equal(invalid.structured?.errors?.length, 1);
    const missing = toResultView(await conn.callTool('no_structured', {}, { validateOutput: false }), toolOf('no_structured'));
    assert.equal(missing.structured?.status, 'missing');
    assert.deepEqual(missing.items, [{ kind: 'text', text: 'no structure here' }]);
  } finally {
    await conn.stop();
  }
});
