// Files in primitives other than tools: what an app's ui/download-file request becomes before the person is asked
// (items with names, sizes and exactly the bytes sent, or a refusal naming the item and the bound), and resources
// whose contents are files offered like file outputs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { APP_DOWNLOAD_LIMITS, appDownloadItems, describeAppDownload } from '../../src/core/apps';
import { resolveSave, resourceContentsView, toResultView } from '../../src/core/results';

const bytes = Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 13) & 0xff));

test('an embedded blob is saved as exactly its bytes, named after its uri; text as UTF-8', () => {
  const plan = appDownloadItems([
    { type: 'resource', resource: { uri: 'file:///out/chart%20v2.bin?x=1', mimeType: 'application/octet-stream', blob: bytes.toString('base64') } },
    { type: 'resource', resource: { uri: 'ui://x/', text: 'héllo' } },
  ]);
  assert.ok('items' in plan);
  const [blob, text] = plan.items;
  assert.equal(blob!.kind, 'embedded');
  if (blob!.kind !== 'embedded' || text!.kind !== 'embedded') return;
  assert.equal(blob!.name, 'chart%20v2.bin');
  assert.equal(blob!.size, 300);
  const source = resolveSave(blob!.result, blob!.save);
  assert.ok(source.kind === 'bytes' && source.bytes.equals(bytes));
  assert.equal(text!.name, 'x');
  assert.equal(text!.size, 6);
  assert.equal(describeAppDownload(blob!), 'chart%20v2.bin (300 bytes, application/octet-stream)');
});

test('a resource link keeps its uri; its name is made a file name', () => {
  const plan = appDownloadItems([{ type: 'resource_link', uri: 'files://export/a.csv', name: '../../etc/passwd', mimeType: 'text/csv' }]);
  assert.ok('items' in plan);
  assert.deepEqual(plan.items[0], { kind: 'link', uri: 'files://export/a.csv', name: 'passwd', mimeType: 'text/csv' });
  assert.equal(describeAppDownload(plan.items[0]!), 'passwd (text/csv), read from files://export/a.csv');
});

test('refusals name the item and the bound', () => {
  const refused = (c: unknown) => {
    const p = appDownloadItems(c);
    return 'refused' in p ? p.refused : 'accepted';
  };
  assert.match(refused([]), /nothing/);
  assert.match(refused(Array.from({ length: 21 }, () => ({ type: 'resource', resource: { uri: 'a', text: 'x' } }))), /21 files at once; at most 20/);
  assert.match(refused([{ type: 'resource', resource: { uri: 'a', blob: 'not base64!' } }]), /item 1: its blob is not valid base64/);
  assert.match(refused([{ type: 'resource', resource: { uri: 'a' } }]), /item 1: an embedded resource needs its text or blob/);
  assert.match(refused([{ type: 'image', data: 'AAAA', mimeType: 'image/png' }]), /item 1 is neither an embedded resource nor a resource link/);
  assert.match(refused([{ type: 'resource_link', name: 'x' }]), /item 1: a resource link needs a uri/);
  const half = Buffer.alloc(APP_DOWNLOAD_LIMITS.embeddedBytes / 2 + 1).toString('base64');
  assert.match(
    refused([
      { type: 'resource', resource: { uri: 'a', blob: half } },
      { type: 'resource', resource: { uri: 'b', blob: half } },
    ]),
    /add up to more than 16 MiB \(at item 2\); an app offers larger files as resource links/,
  );
});

test('a resource whose contents are a file (FileResourceContents) is a file item to save or open, read or embedded alike', () => {
  const contents = {
    uri: 'files://reports/q3.pdf',
    mimeType: 'application/pdf',
    content: { uri: 'mcp-file://s/f1', size: 10, digest: { algorithm: 'sha-256', value: 'abc' } },
  };
  const read = resourceContentsView({ contents: [contents] });
  const embedded = toResultView({ content: [{ type: 'resource', resource: contents }] }).items;
  for (const item of [read[0], embedded[0]]) {
    assert.equal(item?.kind, 'file');
    assert.deepEqual(item && 'save' in item ? item.save : undefined, {
      ref: 'content/0',
      name: 'q3.pdf',
      source: 'file',
      fileUri: 'mcp-file://s/f1',
      mimeType: 'application/pdf',
      size: 10,
      digest: { algorithm: 'sha-256', value: 'abc' },
    });
  }
});
