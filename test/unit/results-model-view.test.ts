// Large results for a model: the preview stays within its budget and names every part, the handle keeps the
// whole in memory (bounded in count and bytes), and range reads return exactly the original's bytes, also where
// a range starts or ends inside a multi-byte character.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentResultParts, boundedAgentResultParts, type AgentPart } from '../../src/core/agents';
import { KeptPart, KeptResults, parseResultPartPath, readableParts, readRange, resultPartUri, toResultView, type ResultLike } from '../../src/core/results';

// 1, 2, 3 and 4 byte characters, a CRLF line and a last line without a line break.
const MIXED = 'a\u00e9\u20ac\ud83d\ude00\nline two \u00fc\u00df\r\n\ud83d\ude00\ud83d\ude00 three\n\u4e2d\u6587 four';

const part = (text: string) => new KeptPart('1', 'text', text);
const textOf = (parts: AgentPart[]) => parts.map((p) => (p.kind === 'text' ? p.text : '')).join('\n');

test('a byte range returns exactly the original bytes, moving starts and ends inside a character back to its start', () => {
  const p = part(MIXED);
  const original = Buffer.from(MIXED, 'utf8');
  for (let start = 0; start <= original.length; start++) {
    for (let end = start; end <= original.length; end++) {
      const r = readRange(p, { unit: 'bytes', start, end }, 1000);
      assert.ok(r.byteStart <= start && start - r.byteStart < 4, `start ${start} -> ${r.byteStart}`);
      assert.deepEqual(Buffer.from(r.text, 'utf8'), original.subarray(r.byteStart, r.byteEnd), `${start}-${end}`);
      assert.ok(!r.text.includes('\ufffd'), `no broken character in ${start}-${end}`);
      if (end > start) assert.ok(r.byteEnd > r.byteStart, `${start}-${end} returns at least one character`);
    }
  }
});

test('consecutive byte reads, each from the previous end, put the original together byte for byte', () => {
  const p = part(MIXED);
  for (let max = 4; max <= 9; max++) {
    const chunks: Buffer[] = [];
    for (let at = 0; at < p.bytes.length;) {
      const r = readRange(p, { unit: 'bytes', start: at }, max);
      assert.ok(r.byteEnd - r.byteStart <= max, `at most ${max} bytes`);
      chunks.push(Buffer.from(r.text, 'utf8'));
      at = r.byteEnd;
    }
    assert.deepEqual(Buffer.concat(chunks), p.bytes, `reads of ${max} bytes`);
  }
});

test('line reads return whole lines with their own line breaks, cut to the byte limit at a line end', () => {
  const p = part(MIXED);
  assert.equal(p.lines, 4);
  assert.equal(readRange(p, { unit: 'lines', start: 2, end: 3 }, 1000).text, 'line two \u00fc\u00df\r\n\ud83d\ude00\ud83d\ude00 three\n');
  assert.equal(readRange(p, { unit: 'lines', start: 4 }, 1000).text, '\u4e2d\u6587 four');
  const all = readRange(p, { unit: 'lines', start: 1 }, 1000);
  assert.equal(all.text, MIXED);
  assert.deepEqual([all.start, all.end, all.total, all.cut], [1, 4, 4, undefined]);
  const cut = readRange(p, { unit: 'lines', start: 1, end: 4 }, 30);
  assert.equal(cut.text, 'a\u00e9\u20ac\ud83d\ude00\nline two \u00fc\u00df\r\n');
  assert.equal(cut.end, 2);
  assert.match(cut.cut ?? '', /at most 30 bytes/);
  // A line longer than a read: its head, and where to go on by bytes.
  const long = part(`${'\u20ac'.repeat(100)}\nshort`);
  const head = readRange(long, { unit: 'lines', start: 1 }, 10);
  assert.equal(head.text, '\u20ac\u20ac\u20ac');
  assert.match(head.cut ?? '', /line 1 alone is longer than 10 bytes.*read on by bytes from 9/);
  assert.equal(readRange(part(''), { unit: 'lines', start: 1 }, 10).text, '');
});

test('bad ranges are refused naming the argument and the limit', () => {
  const p = part(MIXED);
  assert.throws(() => readRange(p, { unit: 'lines', start: 0 }, 100), /"startLine" must be a whole number of at least 1 \(got 0\)/);
  assert.throws(() => readRange(p, { unit: 'lines', start: 9 }, 100), /"startLine" 9 is past the end of part 1 \(4 lines\)/);
  assert.throws(() => readRange(p, { unit: 'lines', start: 3, end: 2 }, 100), /"endLine" 2 is before "startLine" 3/);
  assert.throws(() => readRange(p, { unit: 'bytes', start: 1.5 }, 100), /"startByte" must be a whole number/);
  assert.throws(() => readRange(p, { unit: 'bytes', start: 1000 }, 100), /"startByte" 1000 is past the end of part 1 \(\d+ bytes\)/);
  assert.throws(() => readRange(p, { unit: 'bytes', start: 5, end: 2 }, 100), /"endByte" 2 is before "startByte" 5/);
});

test('kept results are bounded in count and bytes, least recently used first; one too large is not kept', () => {
  const store = new KeptResults({ results: 3, bytes: 100 });
  const a = store.keep('a', [{ id: '1', kind: 'text', text: 'x'.repeat(30) }])!;
  const b = store.keep('b', [{ id: '1', kind: 'text', text: 'x'.repeat(30) }])!;
  const c = store.keep('c', [{ id: '1', kind: 'text', text: 'x'.repeat(30) }])!;
  assert.deepEqual([a.handle, b.handle, c.handle], ['r1', 'r2', 'r3']);
  store.get(a.handle);
  store.keep('d', [{ id: '1', kind: 'text', text: 'x'.repeat(30) }]);
  assert.equal(store.get(b.handle), undefined, 'the least recently used went first');
  assert.ok(store.get(a.handle) && store.get(c.handle));
  store.keep('e', [{ id: '1', kind: 'text', text: '\u20ac'.repeat(20) }]);
  assert.ok(store.totalBytes <= 100 && store.size <= 3, `${store.size} results, ${store.totalBytes} bytes`);
  assert.equal(store.keep('f', [{ id: '1', kind: 'text', text: 'x'.repeat(101) }]), undefined);
});

test('readable parts: text blocks and resource texts by position, structured content as JSON, user-only content left out', () => {
  const result: ResultLike = {
    content: [
      { type: 'text', text: 'one' },
      { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      { type: 'text', text: 'for the user', annotations: { audience: ['user'] } },
      { type: 'resource', resource: { uri: 'file:///r.json', mimeType: 'application/json', text: '{}' } },
    ],
    structuredContent: { a: 1 },
  };
  assert.deepEqual(
    readableParts(result).map((p) => [p.id, p.kind, p.text]),
    [
      ['1', 'text', 'one'],
      ['4', 'resourceText', '{}'],
      ['structured', 'structured', '{\n  "a": 1\n}'],
    ],
  );
  const store = new KeptResults();
  const kept = store.keep('t', readableParts(result))!;
  const uris = kept.parts.map((p) => resultPartUri(kept.handle, p));
  assert.deepEqual(uris, ['mcp-result:/r1/part-1.txt', 'mcp-result:/r1/part-4.json', 'mcp-result:/r1/structured.json']);
  assert.deepEqual(
    uris.map((u) => parseResultPartPath(u.slice('mcp-result:'.length))),
    [
      { handle: 'r1', part: '1' },
      { handle: 'r1', part: '4' },
      { handle: 'r1', part: 'structured' },
    ],
  );
  assert.deepEqual(parseResultPartPath('/r1/model-preview.txt'), { handle: 'r1', part: 'preview' });
  assert.equal(parseResultPartPath('/r1/../x'), undefined);
});

test('a result within the budget reaches the model as before, without a handle', () => {
  const result: ResultLike = { content: [{ type: 'text', text: 'short' }] };
  const view = toResultView(result);
  const store = new KeptResults();
  const bounded = boundedAgentResultParts(result, view, { media: false, maxChars: 2000, readTool: 'read', keep: (p) => store.keep('t', p) });
  assert.deepEqual(bounded.parts, agentResultParts(view, { media: false }));
  assert.equal(bounded.kept, undefined);
  assert.equal(store.size, 0);
});

test('a large result becomes a bounded preview naming every part, with head, tail and a handle to the whole', () => {
  const big = Array.from({ length: 20_000 }, (_, i) => `row ${i} \u20ac\ud83d\ude00`).join('\n');
  const result: ResultLike = {
    content: [
      { type: 'text', text: big },
      { type: 'image', data: Buffer.alloc(300).toString('base64'), mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'file:///log.txt', mimeType: 'text/plain', text: 'L'.repeat(50_000) } },
    ],
    structuredContent: { rows: Array.from({ length: 2000 }, (_, i) => ({ i })) },
  };
  const store = new KeptResults();
  const { parts, kept } = boundedAgentResultParts(result, toResultView(result), {
    media: false,
    maxChars: 4000,
    readTool: 'mcpHost_readResult',
    keep: (p) => store.keep('big on "s"', p),
  });
  const text = textOf(parts);
  assert.ok(text.length <= 4000, `the preview has ${text.length} characters`);
  assert.equal(kept?.handle, 'r1');
  assert.match(text, /kept as handle "r1": read any range of a part with mcpHost_readResult/);
  assert.match(text, /open it whole as mcp-result:\/r1\/part-1\.txt/);
  assert.match(text, /\[part 1: text, [\d,]+ characters, [\d.]+ KiB, 20,000 lines\]\nrow 0 /);
  assert.match(text, /\[part 2: image\] \[image: image\/png, 300 bytes; shown to the user, not passed to the model\]/);
  assert.match(text, /\[part 3: resource, text\/plain, 50,000 characters, 49 KiB, 1 line\] <file:\/\/\/log\.txt>\nLLL/);
  assert.match(text, /Structured content \(not checked: the tool declares no usable output schema\):\n\[part structured: structured content, JSON/);
  // Head and tail are the original's own, and the byte offsets of the gap read it back exactly.
  const first = parts.find((p) => p.kind === 'text' && p.text.startsWith('[part 1:'));
  assert.ok(first?.kind === 'text');
  const m = /^\[part 1:[^\n]*\n([\s\S]*)\n\[… [\d,]+ characters \(bytes (\d+)-(\d+)\) left out; read them with mcpHost_readResult [^\n]*\n([\s\S]*)$/.exec(
    first.text,
  );
  assert.ok(m, first.text.slice(0, 300));
  const [, head, from, to, tail] = m;
  assert.ok(big.startsWith(head!) && big.endsWith(tail!));
  const gap = readRange(kept!.parts[0]!, { unit: 'bytes', start: Number(from), end: Number(to) }, 10_000_000);
  assert.equal(head! + gap.text + tail!, big);
});

test('a result of thousands of parts stays within the budget and says how many parts the preview leaves out', () => {
  const result: ResultLike = { content: Array.from({ length: 5000 }, (_, i) => ({ type: 'text', text: `block ${i} `.repeat(20) })) };
  const store = new KeptResults();
  const { parts, kept } = boundedAgentResultParts(result, toResultView(result), {
    media: false,
    maxChars: 5000,
    readTool: 'read',
    keep: (p) => store.keep('t', p),
  });
  const text = textOf(parts);
  assert.ok(text.length <= 5000, `the preview has ${text.length} characters`);
  assert.equal(kept?.parts.length, 5000);
  assert.match(text, /\[part 1: text, /);
  assert.match(text, /\[\d+ more parts left out of this preview; read them by handle "r1"\.\]$/);
});

test('a result too large to keep still reaches the model as a bounded preview, saying it cannot be read in parts', () => {
  const result: ResultLike = { content: [{ type: 'text', text: 'z'.repeat(100_000) }] };
  const { parts, kept } = boundedAgentResultParts(result, toResultView(result), { media: false, maxChars: 3000, readTool: 'read', keep: () => undefined });
  assert.equal(kept, undefined);
  const text = textOf(parts);
  assert.ok(text.length <= 3000);
  assert.match(text, /too large to keep for reading in parts/);
  assert.doesNotMatch(text, /read them with/);
});
