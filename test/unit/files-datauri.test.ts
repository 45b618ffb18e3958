import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  checkDataUriValue,
  dataUriBytes,
  describeDataUri,
  encodeDataUri,
  encodeLegacyName,
  parseDataUri,
  redactDataUris,
  redactValue,
  type ParsedDataUri,
} from '../../src/core/files';
import { Logger } from '../../src/core/log';

const PNG_URI = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNkYGBgAAAABQABWaDDsAAAAABJRU5ErkJggg==';

function ok(uri: string): ParsedDataUri {
  const parsed = parseDataUri(uri);
  assert.ok(parsed.ok, `expected ${uri} to parse: ${parsed.ok ? '' : parsed.reason}`);
  return parsed;
}

function reason(uri: string): string {
  const parsed = parseDataUri(uri);
  assert.equal(parsed.ok, false, `expected ${uri} to be refused`);
  return parsed.ok ? '' : parsed.reason;
}

// Digest §9.1
test('the 1x1 PNG data URI parses as image/png, 70 bytes, with the PNG magic', () => {
  const p = ok(PNG_URI);
  assert.equal(p.mediaType, 'image/png');
  assert.equal(p.base64, true);
  assert.equal(p.size, 70);
  assert.equal(PNG_URI.length - p.payloadStart, 96);
  const bytes = dataUriBytes(PNG_URI, p);
  assert.equal(bytes.length, 70);
  assert.equal(bytes.subarray(0, 8).toString('hex'), '89504e470d0a1a0a');
});

test('a percent-encoded data URI decodes to its text and counts decoded bytes', () => {
  const uri = 'data:text/plain,hello%20world';
  const p = ok(uri);
  assert.deepEqual([p.mediaType, p.base64, p.size], ['text/plain', false, 11]);
  assert.equal(dataUriBytes(uri, p).toString(), 'hello world');
});

test('the scheme, media type and base64 token are case-insensitive', () => {
  const p = ok('DATA:IMAGE/PNG;BASE64,iVBORw0KGgo=');
  assert.deepEqual([p.mediaType, p.base64, p.size], ['image/png', true, 8]);
});

test('media-type parameters are kept apart from the type', () => {
  const p = ok('data:text/plain;charset=utf-8,caf%C3%A9');
  assert.equal(p.mediaType, 'text/plain');
  assert.deepEqual(p.params, { charset: 'utf-8' });
  assert.equal(p.size, 5);
});

test('a legacy name= parameter is just a parameter', () => {
  const p = ok('data:image/png;name=dot.png;base64,iVBORw0KGgo=');
  assert.equal(p.mediaType, 'image/png');
  assert.equal(p.params.name, 'dot.png');
  assert.equal(p.size, 8);
});

test('an empty media type means text/plain (RFC 2397)', () => {
  const p = ok('data:,A%20brief%20note');
  assert.deepEqual([p.mediaType, p.size], ['text/plain', 12]);
});

test('application/octet-stream base64 data parses with its decoded size', () => {
  assert.equal(ok('data:application/octet-stream;base64,AAECAw==').size, 4);
});

test('base64 data outside the alphabet is refused', () => {
  assert.match(reason('data:image/png;base64,not*base64'), /base64 alphabet/);
});

test('a data URI without a comma is refused', () => {
  assert.match(reason('data:image/png;base64'), /no comma/);
});

test('unpadded base64 is refused as malformed', () => {
  assert.match(reason('data:image/png;base64,iVBORw0KGgo'), /padded/);
});

test('https: and file: URIs are refused by scheme without being fetched or read', () => {
  assert.match(reason('https://example.com/a.png'), /https: scheme; only data: URIs/);
  assert.match(reason('file:///etc/passwd'), /file: scheme; only data: URIs/);
});

test('malformed media types, parameters and percent escapes are refused', () => {
  assert.match(reason('data:image;base64,AAAA'), /malformed media type/);
  assert.match(reason('data:image/png;base64;x=y,AAAA'), /malformed parameter/);
  assert.match(reason('data:text/plain,100%'), /malformed % escape/);
  assert.match(reason('data:text/plain,two words'), /whitespace/);
  assert.match(reason('data:image/png;base64,AA=A'), /base64 alphabet/);
});

// Digest §9.3, server side
test('maxSize counts decoded bytes: a 70-byte PNG fits 70 and is refused at 69 naming the argument', () => {
  assert.ok(checkDataUriValue('image', PNG_URI, { maxSize: 70 }).ok);
  const refused = checkDataUriValue('image', PNG_URI, { maxSize: 69 });
  assert.equal(refused.ok, false);
  assert.equal(refused.ok ? '' : refused.reason, "Argument 'image' exceeds maxSize: received 70 bytes, limit is 69.");
  assert.ok(checkDataUriValue('note', 'data:text/plain,hello%20world', { maxSize: 11 }).ok);
});

test('server-side accept checks compare the media type only; extension entries impose nothing', () => {
  assert.ok(checkDataUriValue('f', 'data:application/octet-stream;base64,AAECAw==', { accept: ['.pdf'] }).ok);
  const refused = checkDataUriValue('f', PNG_URI, { accept: ['application/pdf', '.pdf'] });
  assert.equal(refused.ok ? '' : refused.reason, "Argument 'f' has media type image/png; accepted: application/pdf.");
  const scheme = checkDataUriValue('f', 'file:///etc/passwd', {});
  assert.match(scheme.ok ? '' : scheme.reason, /^Argument 'f' uses the file: scheme/);
});

// Digest §9.6
test("legacy name= values are RFC 3986 encoded, including !'()*", () => {
  assert.equal(encodeLegacyName('Report (v2); final.pdf'), 'Report%20%28v2%29%3B%20final.pdf');
  assert.equal(encodeLegacyName('a,b;c.txt'), 'a%2Cb%3Bc.txt');
  assert.equal(encodeLegacyName('naïve résumé.pdf'), 'na%C3%AFve%20r%C3%A9sum%C3%A9.pdf');
  assert.equal(encodeLegacyName("it's*.png"), 'it%27s%2A.png');
});

test('encoding puts the legacy name before ;base64 and parses back to the same name', () => {
  const uri = encodeDataUri(Buffer.from('hi'), 'text/plain', { name: 'Report (v2); final.pdf' });
  assert.equal(uri, 'data:text/plain;name=Report%20%28v2%29%3B%20final.pdf;base64,aGk=');
  assert.equal(ok(uri).params.name, 'Report (v2); final.pdf');
});

test('an unknown or malformed media type is sent as application/octet-stream', () => {
  assert.equal(encodeDataUri(Buffer.from([1, 2]), ''), 'data:application/octet-stream;base64,AQI=');
  assert.equal(encodeDataUri(Buffer.from([1, 2]), 'not a type'), 'data:application/octet-stream;base64,AQI=');
});

test('encoding then parsing round-trips any bytes and media type', () => {
  const mediaType = fc
    .tuple(fc.constantFrom('image', 'text', 'application', 'audio'), fc.stringMatching(/^[a-z0-9][a-z0-9.+-]{0,15}$/))
    .map(([a, b]) => `${a}/${b}`);
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 2048 }), mediaType, (bytes, type) => {
      const uri = encodeDataUri(Buffer.from(bytes), type);
      const p = parseDataUri(uri);
      assert.ok(p.ok);
      assert.equal(p.mediaType, type);
      assert.equal(p.size, bytes.length);
      assert.deepEqual(new Uint8Array(dataUriBytes(uri, p)), bytes);
    }),
    { numRuns: 300 },
  );
});

// Characters a careless producer leaves raw in a percent-encoded payload, beside escapes and plain ones.
const percentPayload = fc
  .array(
    fc.oneof(
      fc.constantFrom(')', "'", '"', ']', '}', '<', '>', '\\', '(', '[', '{', ',', ';', '=', '/', '?', '#', '&', ':', '*', 'data:'),
      fc.integer({ min: 0, max: 255 }).map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`),
      fc.stringMatching(/^[A-Za-z0-9._~-]$/),
    ),
    { minLength: 8, maxLength: 200 },
  )
  .map((parts) => parts.join(''));
// Parameters may hold anything but the separators, blanks included (`name=a b.png`).
const parameters = fc
  .array(
    fc.oneof(
      fc.constant('charset=utf-8'),
      fc
        .string({ maxLength: 24 })
        .filter((v) => !/[,;\r\n]/.test(v))
        .map((v) => `name=${v}`),
    ),
    { maxLength: 3 },
  )
  .map((list) => list.map((p) => `;${p}`).join(''));

test('redaction never leaves a fragment of 8 or more payload characters, whatever the encoding, parameters or JSON nesting', () => {
  fc.assert(
    fc.property(
      fc.constantFrom('image/png', 'application/pdf', 'text/plain', 'IMAGE/PNG', ''),
      parameters,
      fc.oneof(
        fc.uint8Array({ minLength: 6, maxLength: 600 }).map((bytes) => ({ base64: true, payload: Buffer.from(bytes).toString('base64'), size: bytes.length })),
        percentPayload.map((payload) => ({ base64: false, payload, size: payload.replace(/%[0-9A-F]{2}/g, '.').length })),
      ),
      fc.string({ maxLength: 40 }),
      fc.string({ maxLength: 40 }),
      (type, params, { base64, payload, size }, before, after) => {
        const uri = `data:${type}${params}${base64 ? ';base64' : ''},${payload}`;
        const shown = `data:${(type || 'text/plain').toLowerCase()}${base64 ? ';base64' : ''},[${size} bytes]`;
        const once = JSON.stringify(payload).slice(1, -1);
        const twice = JSON.stringify(once).slice(1, -1);
        // [text, the payload as written in it, whether the exact size must be shown]
        const texts: Array<[string, string, boolean]> = [
          [`${before} ${uri} ${after}`, payload, true],
          [JSON.stringify({ args: { image: uri, note: before } }), once, true],
          [JSON.stringify({ content: [{ type: 'text', text: JSON.stringify({ image: uri, after }) }] }), twice, true],
          [JSON.stringify({ note: `${before} ${uri} ${after}` }), once, false],
        ];
        for (const [text, written, exact] of texts) {
          const redacted = redactDataUris(text);
          const elsewhere = text.split(written).join(' ');
          for (let i = 0; i + 8 <= written.length; i++) {
            const fragment = written.slice(i, i + 8);
            if (!elsewhere.includes(fragment)) assert.ok(!redacted.includes(fragment), `leaked ${fragment} from ${text}`);
          }
          if (exact) assert.ok(redacted.includes(shown), `${redacted} should show ${shown}`);
          else assert.match(redacted, /data:[^,]*,\[\d+ bytes\]/);
        }
        assert.equal(redactValue({ image: uri }).image, shown);
      },
    ),
    { numRuns: 500 },
  );
});

test('a percent-encoded payload holding ) " or spaces is hidden whole, in text and in JSON', () => {
  assert.equal(redactDataUris('data:text/plain,secret)more-secret-text'), 'data:text/plain,[23 bytes]');
  assert.equal(redactDataUris(JSON.stringify({ a: 'data:text/plain,hello"quoted-secret' })), '{"a":"data:text/plain,[19 bytes]"}');
  assert.equal(redactDataUris(JSON.stringify({ a: 'data:text/plain,two secret words', b: 1 })), '{"a":"data:text/plain,[16 bytes]","b":1}');
  const nested = JSON.stringify({ text: JSON.stringify({ image: 'data:text/plain,a"b\\c', next: 'visible' }) });
  assert.equal(redactDataUris(nested), '{"text":"{\\"image\\":\\"data:text/plain,[5 bytes]\\",\\"next\\":\\"visible\\"}"}');
  assert.deepEqual(redactValue({ note: 'data:text/plain,two words' }), { note: 'data:text/plain,[9 bytes]' });
});

test('blanks in the header do not hide a data URI from redaction', () => {
  assert.equal(redactDataUris('sent data:image/png;name=x y.png;base64,iVBORw0KGgo= to it'), 'sent data:image/png;base64,[8 bytes] to it');
  assert.equal(redactDataUris('sent data: image/png;base64,iVBORw0KGgo= to it'), 'sent data:image/png;base64,[8 bytes] to it');
  assert.equal(redactDataUris('{"image":"data:;base64,iVBORw0KGgo="}'), '{"image":"data:text/plain;base64,[8 bytes]"}');
  // Prose that merely says "data:" is left alone.
  for (const prose of ['metadata: none, thanks', 'the data: 5 items, done', '{"data:":1}']) assert.equal(redactDataUris(prose), prose);
});

test('logging a call with the PNG records data:image/png;base64,[70 bytes]', () => {
  const lines: string[] = [];
  const log = new Logger((_level, message) => lines.push(message), 'trace');
  log.trace(() => JSON.stringify({ method: 'tools/call', params: { arguments: { image: PNG_URI } } }));
  assert.equal(lines.length, 1);
  assert.ok(lines[0]!.includes('data:image/png;base64,[70 bytes]'));
  assert.ok(!lines[0]!.includes('iVBORw0KGgo'));
  assert.deepEqual(redactValue({ a: [PNG_URI] }), { a: ['data:image/png;base64,[70 bytes]'] });
});

test('file bytes carried as bare base64 (FileInput content, resource blob, image data) are redacted too', () => {
  const b64 = Buffer.alloc(300, 7).toString('base64');
  const message = JSON.stringify({ upload: { content: b64, filename: 'a.bin' }, contents: [{ blob: b64 }], image: { type: 'image', data: b64 } });
  const redacted = redactDataUris(message);
  assert.ok(!redacted.includes(b64.slice(0, 16)));
  assert.equal(redacted.match(/\[300 bytes base64\]/g)?.length, 3);
  assert.ok(redacted.includes('"filename":"a.bin"'));
  // Short values are ordinary text and stay.
  assert.equal(redactDataUris('{"content":"hello"}'), '{"content":"hello"}');
  assert.deepEqual(redactValue({ content: b64, note: 'x', nested: [{ data: b64 }] }), {
    content: '[300 bytes base64]',
    note: 'x',
    nested: [{ data: '[300 bytes base64]' }],
  });
});

test('a model-supplied data URI is described by type and decoded size for approval, never by its text', () => {
  assert.equal(describeDataUri(PNG_URI), 'image/png, 70 bytes');
  assert.equal(describeDataUri('data:,x'), 'text/plain, 1 byte');
  assert.equal(describeDataUri('/home/u/a.png'), undefined);
});

test('redaction never leaves a fragment of a base64 content, blob or data field of 48 bytes or more', () => {
  fc.assert(
    fc.property(
      fc.uint8Array({ minLength: 48, maxLength: 600 }),
      fc.constantFrom('content', 'blob', 'data'),
      fc.string({ maxLength: 20 }),
      (bytes, key, note) => {
        const payload = Buffer.from(bytes).toString('base64');
        const text = JSON.stringify({ note, file: { [key]: payload, filename: 'x.bin' } });
        const redacted = redactDataUris(text);
        for (let i = 0; i + 8 <= payload.length; i++) {
          const fragment = payload.slice(i, i + 8);
          if (!note.includes(fragment)) assert.ok(!redacted.includes(fragment), `leaked ${fragment}`);
        }
        assert.ok(redacted.includes(`[${bytes.length} bytes base64]`));
      },
    ),
    { numRuns: 300 },
  );
});

test('redacting a log line carrying a 7 MiB file neither throws nor leaves bytes', () => {
  const b64 = Buffer.alloc(7 * 1024 * 1024, 0xab).toString('base64');
  const line = JSON.stringify({
    params: { arguments: { blob: `data:application/octet-stream;base64,${b64}`, upload: { content: b64, filename: 'big.bin' } } },
  });
  const redacted = redactDataUris(line);
  assert.equal(
    redacted,
    '{"params":{"arguments":{"blob":"data:application/octet-stream;base64,[7340032 bytes]","upload":{"content":"[7340032 bytes base64]","filename":"big.bin"}}}}',
  );
});
