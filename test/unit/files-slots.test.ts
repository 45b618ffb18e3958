import { test } from 'node:test';
import assert from 'node:assert/strict';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { describeAccept, findElicitationFileFields, findFileSlots, matchesAccept } from '../../src/core/files';
import { compileSchema } from '../../src/core/forms/validate';
import { Logger } from '../../src/core/log';

const uri = (extra: object = {}) => ({ type: 'string', format: 'uri', ...extra });
const tool = (properties: object, required: string[] = [], extra: object = {}) => ({
  name: 't',
  inputSchema: { type: 'object', properties, required },
  ...extra,
});

// Digest §9.2
test('accept matching follows the spec vectors', () => {
  const cases: Array<[string[] | undefined, string, boolean]> = [
    [['image/png', 'image/jpeg'], 'image/png', true],
    [['image/png'], 'IMAGE/PNG', true],
    [['Image/*'], 'image/GIF', true],
    [['image/*'], 'image/webp', true],
    [['image/*'], 'application/pdf', false],
    [['image/png'], 'image/png;name=x.png', true],
    [['text/plain'], 'text/plain;charset=utf-8', true],
    [['image/png'], 'image/pngx', false],
    [['image/svg+xml'], 'image/svg+xml', true],
    [['application/pdf', '.pdf'], 'application/pdf', true],
    [undefined, 'anything/at-all', true],
    [[], 'anything/at-all', true],
    [['*/*'], 'text/plain', true],
  ];
  for (const [accept, mediaType, expected] of cases) {
    assert.equal(matchesAccept(accept, { mediaType }), expected, `${JSON.stringify(accept)} vs ${mediaType}`);
  }
});

test('an extensions-only accept list filters by file name, case-insensitively', () => {
  assert.ok(matchesAccept(['.pdf'], { mediaType: 'application/octet-stream', fileName: 'Scan.PDF' }));
  assert.ok(!matchesAccept(['.pdf', '.txt'], { mediaType: 'application/pdf', fileName: 'scan.docx' }));
});

test('with MIME entries present, a file matching only an extension entry is refused (the server checks MIME)', () => {
  assert.ok(!matchesAccept(['image/png', '.heic'], { mediaType: 'image/heic', fileName: 'photo.heic' }));
});

test('accept lists read naturally', () => {
  assert.equal(describeAccept(['image/png', 'image/jpeg']), 'image/png, image/jpeg');
  assert.equal(describeAccept(undefined), 'any file');
  assert.equal(describeAccept(['*/*']), 'any file');
});

// Digest §9.4 and the shapes in the issue
test('x-mcp-file on a string/uri property is a file slot carrying accept and maxSize', () => {
  const { slots, warnings } = findFileSlots(tool({ image: uri({ title: 'Image', 'x-mcp-file': { accept: ['image/png'], maxSize: 5242880 } }) }, ['image']));
  assert.deepEqual(warnings, []);
  assert.deepEqual(slots, [
    {
      path: ['image'],
      label: 'image',
      required: true,
      title: 'Image',
      multiple: false,
      accept: ['image/png'],
      maxSize: 5242880,
      origin: 'x-mcp-file',
    },
  ]);
});

test('an empty descriptor means any file', () => {
  const { slots } = findFileSlots(tool({ f: uri({ 'x-mcp-file': {} }) }));
  assert.equal(slots.length, 1);
  assert.equal(slots[0]!.accept, undefined);
  assert.equal(slots[0]!.required, false);
});

test('x-mcp-file on a plain string (no format) is ignored with a warning naming the property', () => {
  const lines: string[] = [];
  const log = new Logger((level, m) => lines.push(`${level} ${m}`), 'debug');
  const { slots, warnings } = findFileSlots(tool({ notes: { type: 'string', 'x-mcp-file': { accept: ['text/plain'] } } }), log);
  assert.deepEqual(slots, []);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, /tool 't': property 'notes': x-mcp-file is only valid on \{"type": "string", "format": "uri"\}; shown as an ordinary field/);
  assert.deepEqual(lines, [`warn ${warnings[0]}`]);
});

test('x-mcp-file on a string with format email is ignored', () => {
  const { slots, warnings } = findFileSlots(tool({ e: { type: 'string', format: 'email', 'x-mcp-file': {} } }));
  assert.equal(slots.length, 0);
  assert.equal(warnings.length, 1);
});

test('x-mcp-file on array items is a multi-file slot honouring minItems and maxItems', () => {
  const { slots } = findFileSlots(
    tool({ images: { type: 'array', minItems: 2, maxItems: 4, items: uri({ 'x-mcp-file': { accept: ['image/*'], maxSize: 1000 } }) } }),
  );
  assert.equal(slots.length, 1);
  assert.deepEqual(
    { multiple: slots[0]!.multiple, minItems: slots[0]!.minItems, maxItems: slots[0]!.maxItems, maxSize: slots[0]!.maxSize, origin: slots[0]!.origin },
    { multiple: true, minItems: 2, maxItems: 4, maxSize: 1000, origin: 'x-mcp-file' },
  );
});

test('x-mcp-file on the array itself (older draft) is still recognised, with a deprecation warning', () => {
  const { slots, warnings } = findFileSlots(tool({ files: { type: 'array', maxItems: 3, 'x-mcp-file': { maxSize: 10 }, items: uri() } }));
  assert.deepEqual(warnings, [
    `tool 't': property 'files': x-mcp-file on the array itself is deprecated (an older draft's placement; the current draft puts it on "items"); still filled as a list of files.`,
  ]);
  assert.equal(slots[0]!.origin, 'x-mcp-file-on-array');
  assert.equal(slots[0]!.multiple, true);
  assert.equal(slots[0]!.maxItems, 3);
});

// Digest §9.4, last row: the keyword is unknown to a strict validator until registered.
test('strict Ajv2020 rejects x-mcp-file until the keyword is added; the host validator compiles it as is', () => {
  const schema = tool({ image: uri({ 'x-mcp-file': { accept: ['image/png'], maxSize: 70 } }) }, ['image']).inputSchema;
  const strict = () => addFormats(new Ajv2020({ strict: true }));
  assert.throws(() => strict().compile(schema), /strict mode: unknown keyword: "x-mcp-file"/);
  const ajv = strict();
  ajv.addKeyword({ keyword: 'x-mcp-file', schemaType: 'object' });
  assert.ok(ajv.compile(schema)({ image: 'data:,x' }));
  const validate = compileSchema(schema);
  assert.equal(typeof validate, 'function', String(validate));
  assert.ok(typeof validate === 'function' && validate({ image: 'data:,x' }));
});

test('the older mcpFile keyword is recognised on a string and on an array', () => {
  const { slots } = findFileSlots(tool({ a: uri({ mcpFile: { accept: ['text/plain'] } }), b: { type: 'array', items: uri(), mcpFile: {} } }));
  assert.deepEqual(
    slots.map((s) => [s.label, s.origin, s.multiple]),
    [
      ['a', 'mcpFile', false],
      ['b', 'mcpFile', true],
    ],
  );
});

test('slots nested in objects get a dotted label and are required only if every level is', () => {
  const schema = tool(
    {
      doc: {
        type: 'object',
        properties: { attachment: uri({ 'x-mcp-file': {} }), extra: { type: 'object', properties: { scan: uri({ 'x-mcp-file': {} }) } } },
        required: ['attachment'],
      },
    },
    ['doc'],
  );
  const { slots } = findFileSlots(schema);
  assert.deepEqual(
    slots.map((s) => [s.label, s.required]),
    [
      ['doc.attachment', true],
      ['doc.extra.scan', false],
    ],
  );
  assert.deepEqual(slots[0]!.path, ['doc', 'attachment']);
});

test('a slot behind a local $ref is found', () => {
  const schema = {
    name: 'r',
    inputSchema: { type: 'object', $defs: { img: uri({ 'x-mcp-file': { maxSize: 9 } }) }, properties: { pic: { $ref: '#/$defs/img' } } },
  };
  assert.equal(findFileSlots(schema).slots[0]?.maxSize, 9);
});

test('malformed descriptors are ignored with a warning: not an object, bad accept, bad maxSize', () => {
  const { slots, warnings } = findFileSlots(
    tool({
      a: uri({ 'x-mcp-file': 'yes' }),
      b: uri({ 'x-mcp-file': { accept: 'image/png' } }),
      c: uri({ 'x-mcp-file': { maxSize: -1 } }),
      d: uri({ 'x-mcp-file': { maxSize: 1.5 } }),
      e: uri({ 'x-mcp-file': [] }),
    }),
  );
  assert.deepEqual(slots, []);
  assert.equal(warnings.length, 5);
  assert.match(warnings[0]!, /property 'a': its x-mcp-file keyword is "yes", not an object/);
  assert.match(warnings[1]!, /property 'b': .*accept that is not a list of strings/);
  assert.match(warnings[2]!, /property 'c': .*maxSize that is not a whole number/);
});

test('a required property with a malformed keyword stays in the tool with a warning that says so', () => {
  const { slots, warnings } = findFileSlots(tool({ photo: { type: 'string', 'x-mcp-file': {} } }, ['photo']));
  assert.deepEqual(slots, []);
  assert.match(warnings[0]!, /property 'photo'.*It is required, so the tool may not be usable/);
});

test('a Tool.inputFiles sidecar marks string and string-array properties as file slots', () => {
  const { slots, warnings } = findFileSlots(
    tool({ report: { type: 'string' }, scans: { type: 'array', items: { type: 'string' } }, n: { type: 'number' } }, ['report'], {
      inputFiles: { report: { accept: ['application/pdf'], maxSize: 4096 }, scans: {}, n: {}, ghost: {} },
    }),
  );
  assert.deepEqual(
    slots.map((s) => [s.label, s.origin, s.multiple, s.required, s.maxSize]),
    [
      ['report', 'inputFiles', false, true, 4096],
      ['scans', 'inputFiles', true, false, undefined],
    ],
  );
  assert.equal(warnings.length, 2);
  assert.match(warnings.join('\n'), /'n'.*needs a string or an array of strings/);
  assert.match(warnings.join('\n'), /names property 'ghost', which the schema does not define/);
});

const fileInput = (modes: string[], marker: 'input' | 'output' | undefined = 'input') => ({
  type: 'object',
  ...(marker ? { 'x-mcp-file-mode': marker } : {}),
  properties: {
    ...(modes.includes('content') ? { content: { type: 'string', contentEncoding: 'base64' } } : {}),
    ...(modes.includes('path') ? { path: { type: 'string' } } : {}),
    ...(modes.includes('s3') ? { s3: { type: 'object', properties: { presigned_url: { type: 'string' } } } } : {}),
    filename: { type: 'string' },
    mime_type: { type: 'string' },
  },
  required: ['filename'],
});

test('a FileInput object (x-mcp-file-mode: input) is a slot listing the sources it offers', () => {
  const { slots } = findFileSlots(tool({ upload: fileInput(['content', 'path', 's3']), only: fileInput(['path']) }, ['upload']));
  assert.deepEqual(
    slots.map((s) => [s.label, s.origin, s.objectModes, s.required]),
    [
      ['upload', 'file-input-object', ['content', 'path', 's3'], true],
      ['only', 'file-input-object', ['path'], false],
    ],
  );
});

test('a FileInput object whose marker was stripped is recognised by its shape; a FileOutput is not an input', () => {
  const { slots } = findFileSlots(tool({ a: fileInput(['content'], undefined), b: fileInput(['content'], 'output') }));
  assert.deepEqual(
    slots.map((s) => s.label),
    ['a'],
  );
});

test('a sibling string asking for the file name becomes the filename companion', () => {
  const byName = findFileSlots(tool({ file: uri({ 'x-mcp-file': {} }), file_name: { type: 'string' }, note: { type: 'string' } }));
  assert.deepEqual(byName.slots[0]!.filenameCompanion, ['file_name']);
  const byDescription = findFileSlots(
    tool({ doc: uri({ 'x-mcp-file': {} }), label: { type: 'string', description: 'The original filename of the document.' } }),
  );
  assert.deepEqual(byDescription.slots[0]!.filenameCompanion, ['label']);
  const nested = findFileSlots(tool({ d: { type: 'object', properties: { scan: uri({ 'x-mcp-file': {} }), scanFileName: { type: 'string' } } } }));
  assert.deepEqual(nested.slots[0]!.filenameCompanion, ['d', 'scanFileName']);
});

test('no companion is guessed beside two file slots, for unrelated strings, or when two candidates compete', () => {
  const two = findFileSlots(tool({ a: uri({ 'x-mcp-file': {} }), b: uri({ 'x-mcp-file': {} }), filename: { type: 'string' } }));
  assert.ok(two.slots.every((s) => s.filenameCompanion === undefined));
  const unrelated = findFileSlots(tool({ a: uri({ 'x-mcp-file': {} }), name: { type: 'string', description: 'Your name' }, title: { type: 'string' } }));
  assert.equal(unrelated.slots[0]!.filenameCompanion, undefined);
  const competing = findFileSlots(tool({ a: uri({ 'x-mcp-file': {} }), filename: { type: 'string' }, original_name: { type: 'string' } }));
  assert.equal(competing.slots[0]!.filenameCompanion, undefined);
  const lookalike = findFileSlots(tool({ a: uri({ 'x-mcp-file': {} }), profilename: { type: 'string' }, profile_name: { type: 'string' } }));
  assert.equal(lookalike.slots[0]!.filenameCompanion, undefined);
  const output = findFileSlots(
    tool({ a: uri({ 'x-mcp-file': {} }), output_filename: { type: 'string' }, target: { type: 'string', description: 'File name to save the result as' } }),
  );
  assert.equal(output.slots[0]!.filenameCompanion, undefined);
});

test('a tool without file keywords has no slots and no warnings, and odd schemas do not throw', () => {
  assert.deepEqual(findFileSlots(tool({ q: { type: 'string' } })), { slots: [], warnings: [] });
  assert.deepEqual(findFileSlots({ name: 'x' }), { slots: [], warnings: [] });
  assert.deepEqual(findFileSlots({ name: 'x', inputSchema: { type: 'object', properties: [1, 2] } }).slots, []);
  const cyclic = { type: 'object', $defs: { n: { type: 'object', properties: { next: { $ref: '#/$defs/n' } } } }, properties: { root: { $ref: '#/$defs/n' } } };
  assert.deepEqual(findFileSlots({ name: 'c', inputSchema: cyclic }).slots, []);
});

// Elicitation surface
test('elicitation file fields: x-mcp-file strings, SEP-1306 type:file fields, requestedFiles, and arrays refused', () => {
  const { slots, warnings } = findElicitationFileFields(
    {
      type: 'object',
      properties: {
        photo: uri({ title: 'Receipt photo', 'x-mcp-file': { accept: ['image/*'], maxSize: 5242880 } }),
        scan: { type: 'file', accept: ['application/pdf'], maxSize: 1000, multiple: true },
        legacy: { type: 'string' },
        many: { type: 'array', items: uri(), 'x-mcp-file': {} },
        merchant: { type: 'string' },
      },
      required: ['photo'],
    },
    { legacy: { maxSize: 10 } },
  );
  assert.deepEqual(
    slots.map((s) => [s.label, s.origin, s.multiple, s.required, s.maxSize]),
    [
      ['photo', 'x-mcp-file', false, true, 5242880],
      ['scan', 'binary-elicitation', true, false, 1000],
      ['legacy', 'requestedFiles', false, false, 10],
    ],
  );
  assert.equal(slots[0]!.title, 'Receipt photo');
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, /property 'many': a file array is not allowed in an elicitation form/);
});

test('an optional file written as anyOf [uri string, null] (Pydantic style) is a file slot', () => {
  const outer = findFileSlots(tool({ scan: { anyOf: [uri(), { type: 'null' }], default: null, 'x-mcp-file': { maxSize: 5 } } }));
  assert.deepEqual(
    outer.slots.map((s) => [s.label, s.maxSize]),
    [['scan', 5]],
  );
  const inner = findFileSlots(tool({ scan: { oneOf: [{ type: 'null' }, uri({ 'x-mcp-file': { maxSize: 6 } })] } }));
  assert.deepEqual(
    inner.slots.map((s) => [s.label, s.maxSize]),
    [['scan', 6]],
  );
  const ambiguous = findFileSlots(tool({ scan: { anyOf: [uri(), { type: 'integer' }], 'x-mcp-file': {} } }));
  assert.equal(ambiguous.slots.length, 0);
  assert.equal(ambiguous.warnings.length, 1);
});

test('an elicitation form pairs a file field with a filename field too', () => {
  const { slots } = findElicitationFileFields({
    type: 'object',
    properties: { doc: uri({ 'x-mcp-file': {} }), doc_filename: { type: 'string' }, reason: { type: 'string' } },
  });
  assert.deepEqual(slots[0]!.filenameCompanion, ['doc_filename']);
});

test('SEP-2631 transferModes are kept on the slot; an unknown mode list is a malformed keyword', () => {
  const { slots, warnings } = findFileSlots(
    tool({
      up: uri({ 'x-mcp-file': { transferModes: ['upload'] } }),
      both: uri({ 'x-mcp-file': { transferModes: ['inline', 'upload'], maxSize: 10 } }),
      odd: uri({ 'x-mcp-file': { transferModes: ['carrier-pigeon'] } }),
    }),
  );
  assert.deepEqual(
    slots.map((s) => [s.label, s.transferModes]),
    [
      ['up', ['upload']],
      ['both', ['inline', 'upload']],
    ],
  );
  assert.match(warnings[0]!, /property 'odd': its x-mcp-file keyword has a transferModes \(carrier-pigeon\) with no mode this host knows/);
});

test('slot scans are plain JSON: they survive a JSON round trip unchanged', () => {
  const scan = findFileSlots(
    tool({
      doc: { type: 'object', properties: { a: uri({ 'x-mcp-file': { accept: ['.pdf'] } }), a_filename: { type: 'string' } } },
      up: fileInput(['content']),
    }),
  );
  assert.equal(scan.slots.length, 2);
  assert.deepEqual(JSON.parse(JSON.stringify(scan)), scan);
});
