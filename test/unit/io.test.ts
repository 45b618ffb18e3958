// The host's bounds (src/core/io): the bounded fetch's per-event cap, the stderr tail, the nesting check.
import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { boundedFetch, MessageTooLargeError } from '../../src/core/io/boundedFetch';
import { lineColumns, tooDeepAt } from '../../src/core/io/json';
import { BoundedLines } from '../../src/core/io/lineTail';
import { getOwn, setOwn } from '../../src/core/io/own';

/** A fetch answering with these chunks (as a server would send them), for boundedFetch to wrap. */
function serving(chunks: string[], contentType: string) {
  return async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (const c of chunks) controller.enqueue(new TextEncoder().encode(c));
          controller.close();
        },
      }),
      { headers: { 'content-type': contentType } },
    );
}

test('event streams pass through whole events, however the bytes are split (LF, CRLF, CR)', async () => {
  const events = 'data: one\n\ndata: two\r\n\r\ndata: three\r\rdata: four\n\n';
  for (const size of [1, 2, 3, 7, events.length]) {
    const chunks: string[] = [];
    for (let i = 0; i < events.length; i += size) chunks.push(events.slice(i, i + size));
    const fetch = boundedFetch({ maxMessageBytes: 1024, signal: new AbortController().signal }, serving(chunks, 'text/event-stream'));
    assert.equal(await (await fetch('http://x')).text(), events, `chunks of ${size}`);
  }
});

test('one event over the limit errors the stream and reports it; many small events do not', async () => {
  const reported: MessageTooLargeError[] = [];
  const bounds = {
    maxMessageBytes: 100,
    signal: new AbortController().signal,
    onTooLarge: (e: MessageTooLargeError) => {
      reported.push(e);
    },
  };
  const small = Array.from({ length: 50 }, (_, i) => `data: ${'x'.repeat(60)} ${i}\n\n`);
  assert.equal(await (await boundedFetch(bounds, serving(small, 'text/event-stream'))('http://x')).text(), small.join(''));
  assert.equal(reported.length, 0);
  const big = await boundedFetch(bounds, serving(['data: ', 'y'.repeat(60), 'y'.repeat(60), '\n\n'], 'text/event-stream'))('http://x');
  await assert.rejects(big.text(), /the server sent an event over 100 bytes, the message size limit/);
  assert.equal(reported.length, 1);
});

test('each whole message event can be checked and replaced; its id and type are kept, other events pass as they are', async () => {
  const stream = 'id: 7\nevent: message\ndata: {"id":1,\ndata: "result":null}\n\nevent: ping\ndata: x\n\ndata: keep\n\n';
  const seen: string[] = [];
  const fetch = boundedFetch(
    {
      maxMessageBytes: 1024,
      signal: new AbortController().signal,
      eventData: (lines) => {
        const data = lines.map((l) => Buffer.from(l).toString()).join('\n');
        seen.push(data);
        return data.includes('null') ? '{"fixed":true}' : undefined;
      },
    },
    serving([stream], 'text/event-stream'),
  );
  assert.equal(await (await fetch('http://x')).text(), 'id: 7\nevent: message\ndata: {"fixed":true}\n\nevent: ping\ndata: x\n\ndata: keep\n\n');
  assert.deepEqual(seen, ['{"id":1,\n"result":null}', 'keep']);
});

test('a JSON body is capped as a whole; a declared length over the limit is refused before reading', async () => {
  const bounds = { maxMessageBytes: 10, signal: new AbortController().signal };
  assert.equal(await (await boundedFetch(bounds, serving(['{"a":', '1}'], 'application/json'))('http://x')).text(), '{"a":1}');
  await assert.rejects((await boundedFetch(bounds, serving(['{"a":"', 'xxxxxxxx"}'], 'application/json'))('http://x')).text(), /an answer over 10 bytes/);
  const declared = async () => new Response('{"a":"xxxxxxxxxxxx"}', { headers: { 'content-type': 'application/json', 'content-length': '20' } });
  await assert.rejects(boundedFetch(bounds, declared)('http://x'), /an answer of 20 bytes, over 10 bytes/);
});

test('the connection signal ends a request in flight', async () => {
  const stop = new AbortController();
  const hanging = (_: unknown, init?: RequestInit) =>
    new Promise<Response>((_resolve, reject) => {
      init?.signal?.addEventListener('abort', () => reject(new Error('aborted')));
    });
  const pending = boundedFetch({ maxMessageBytes: 10, signal: stop.signal }, hanging)('http://x');
  stop.abort();
  await assert.rejects(pending, /aborted/);
});

test('stderr lines: split across chunks, CRLF trimmed; a line that never ends keeps its head and tail, in linear time', () => {
  const lines: string[] = [];
  const out = new BoundedLines((l) => lines.push(l), 16);
  out.push('one\r\ntw');
  out.push('o\nthree');
  out.end();
  assert.deepEqual(lines, ['one', 'two', 'three']);

  const long: string[] = [];
  const tail = new BoundedLines((l) => long.push(l), 8192);
  const started = Date.now();
  const chunk = 'e'.repeat(64 * 1024);
  for (let i = 0; i < 1024; i++) tail.push(chunk); // 64 MB without a newline
  tail.push('END\nnext\n');
  assert.ok(Date.now() - started < 5000, `${Date.now() - started} ms`);
  assert.equal(long.length, 2);
  assert.match(long[0]!, /^e{4096}… \[\d+ characters left out\] …e+END$/);
  assert.ok(long[0]!.length < 8300);
  assert.equal(long[1], 'next');
});

test('nesting: brackets in strings and comments do not count; the first too-deep bracket is found', () => {
  assert.equal(tooDeepAt('[[["[[[[[["]]]', 3), undefined);
  assert.equal(tooDeepAt('[[[[]]]]', 3), 3);
  assert.equal(tooDeepAt('{"a\\"[[[": [ // [[[[\n /* [[[[ */ []]}', 3, true), undefined);
  assert.equal(tooDeepAt('['.repeat(200_000), 256), 256);
  assert.deepEqual(lineColumns('ab\ncd\n\nef', [8, 0, 4]), [
    { line: 4, column: 2 },
    { line: 1, column: 1 },
    { line: 2, column: 2 },
  ]);
});

test('own keys only: inherited names read as absent, __proto__ is stored as a plain key', () => {
  const env: Record<string, string> = { PATH: '/bin' };
  for (const name of ['constructor', 'toString', 'hasOwnProperty', '__proto__']) assert.equal(getOwn(env, name), undefined);
  setOwn(env, '__proto__', 'x');
  assert.equal(Object.getPrototypeOf(env), Object.prototype);
  assert.equal(getOwn(env, '__proto__'), 'x');
  assert.deepEqual(Object.keys(env), ['PATH', '__proto__']);
});
