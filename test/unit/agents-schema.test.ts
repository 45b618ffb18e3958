// The model-facing schema of a tool: every file slot shape becomes a workspace path, nothing else changes,
// and no place is left where a model could write a URI or base64 bytes for a file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assignReferencedFiles, modelFacingSchema, parseRunTarget, splitModelArguments } from '../../src/core/agents';
import { findFileSlots, inlineLimitsFor } from '../../src/core/files';
import { compileSchema } from '../../src/core/forms/validate';

const stdio = inlineLimitsFor('stdio');
const uri = (extra: object = {}) => ({ type: 'string', format: 'uri', ...extra });
const tool = (properties: object, required: string[] = [], extra: object = {}) => ({
  name: 't',
  inputSchema: { type: 'object', properties, required, $defs: {} as Record<string, unknown> },
  ...extra,
});
const fileInput = (marker = true) => ({
  type: 'object',
  ...(marker ? { 'x-mcp-file-mode': 'input' } : {}),
  properties: {
    content: { type: 'string', contentEncoding: 'base64' },
    path: { type: 'string' },
    filename: { type: 'string' },
    mime_type: { type: 'string' },
  },
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Every JSON string in a schema a model could fill with a URI or bytes for a file. */
function leaks(schema: unknown): string[] {
  const found: string[] = [];
  const walk = (node: unknown, at: string): void => {
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${at}/${i}`));
    if (!node || typeof node !== 'object') return;
    const o = node as Json;
    if ('x-mcp-file' in o || 'mcpFile' in o || o['x-mcp-file-mode'] === 'input') found.push(at);
    if (o.contentEncoding === 'base64') found.push(at);
    for (const [k, v] of Object.entries(o)) walk(v, `${at}/${k}`);
  };
  walk(schema, '');
  // And what the host itself would still call a file slot in it:
  found.push(...findFileSlots({ name: 't', inputSchema: schema }).slots.map((s) => `slot ${s.label}`));
  return found;
}

function accepts(schema: unknown, value: unknown): boolean {
  const validate = compileSchema(schema);
  assert.notEqual(typeof validate, 'string', String(validate));
  return (validate as (v: unknown) => boolean)(value);
}

test('a single x-mcp-file slot becomes a path string naming its types and size; other arguments are unchanged', () => {
  const t = tool(
    {
      photo: uri({ title: 'Photo', description: 'The picture.', 'x-mcp-file': { accept: ['image/png', 'image/jpeg'], maxSize: 65536 } }),
      caption: { type: 'string', maxLength: 40 },
      site: uri(),
    },
    ['photo'],
  );
  const out = modelFacingSchema(t, stdio);
  const photo = (out.inputSchema as Json).properties.photo as Json;
  assert.equal(photo.type, 'string');
  assert.equal(photo.format, undefined);
  assert.match(photo.description, /^Photo: The picture\. Path of a file in the workspace/);
  assert.match(photo.description, /Accepts image\/png, image\/jpeg; at most 64 KiB per file\./);
  assert.deepEqual((out.inputSchema as Json).properties.caption, { type: 'string', maxLength: 40 });
  assert.deepEqual((out.inputSchema as Json).properties.site, uri(), 'an ordinary URI argument stays one');
  assert.deepEqual((out.inputSchema as Json).required, ['photo']);
  assert.deepEqual(leaks(out.inputSchema), []);
  assert.equal(accepts(out.inputSchema, { photo: 'images/a.png', caption: 'hi' }), true);
  assert.equal(accepts(out.inputSchema, { photo: 7 }), false);
});

test('without a maxSize the transport ceiling is the stated limit', () => {
  const out = modelFacingSchema(tool({ doc: uri({ 'x-mcp-file': {} }) }), inlineLimitsFor('http'));
  assert.match(((out.inputSchema as Json).properties.doc as Json).description, /Accepts any file; at most 3 MiB per file\./);
});

test('array items with x-mcp-file become a list of paths keeping minItems and maxItems', () => {
  const out = modelFacingSchema(
    tool(
      {
        images: { type: 'array', minItems: 2, maxItems: 4, items: uri({ 'x-mcp-file': { accept: ['image/*'] } }) },
      },
      ['images'],
    ),
    stdio,
  );
  const images = (out.inputSchema as Json).properties.images as Json;
  assert.equal(images.type, 'array');
  assert.deepEqual(images.items, { type: 'string', minLength: 1 });
  assert.equal(images.minItems, 2);
  assert.equal(images.maxItems, 4);
  assert.match(images.description, /^Paths of files in the workspace.*Accepts image\/\*/);
  assert.equal(out.slots[0]?.multiple, true);
  assert.deepEqual(leaks(out.inputSchema), []);
});

test('FileInput objects (marked, or by shape) and arrays of them become paths', () => {
  const out = modelFacingSchema(tool({ upload: fileInput(), plain: fileInput(false), many: { type: 'array', items: fileInput() } }), stdio);
  const p = (out.inputSchema as Json).properties as Json;
  assert.equal(p.upload.type, 'string');
  assert.equal(p.plain.type, 'string');
  assert.equal(p.many.type, 'array');
  assert.equal(p.many.items.type, 'string');
  assert.deepEqual(
    out.slots.map((s) => s.origin),
    ['file-input-object', 'file-input-object', 'file-input-object'],
  );
  assert.deepEqual(leaks(out.inputSchema), []);
});

test('legacy shapes: mcpFile, x-mcp-file on the array, and the inputFiles sidecar', () => {
  const out = modelFacingSchema(
    tool(
      {
        a: uri({ mcpFile: { accept: ['text/plain'] } }),
        b: { type: 'array', 'x-mcp-file': { maxSize: 10 }, items: uri() },
        c: { type: 'string' },
        d: { type: 'array', items: { type: 'string' } },
      },
      [],
      { inputFiles: { c: { accept: ['application/pdf'], maxSize: 4096 }, d: {} } },
    ),
    stdio,
  );
  const p = (out.inputSchema as Json).properties as Json;
  assert.match(p.a.description, /Accepts text\/plain/);
  assert.equal(p.b.type, 'array');
  assert.match(p.b.description, /at most 10 bytes per file/);
  assert.match(p.c.description, /Accepts application\/pdf; at most 4 KiB/);
  assert.equal(p.d.type, 'array');
  assert.deepEqual(out.slots.map((s) => s.origin).sort(), ['inputFiles', 'inputFiles', 'mcpFile', 'x-mcp-file-on-array']);
  assert.deepEqual(leaks(out.inputSchema), []);
});

test('nested slots and slots behind $ref are rewritten without changing the shared definition for others', () => {
  const t = tool({
    doc: { $ref: '#/$defs/Doc' },
    other: { $ref: '#/$defs/Doc' },
    maybe: { anyOf: [uri({ 'x-mcp-file': { accept: ['image/png'] } }), { type: 'null' }] },
  });
  t.inputSchema.$defs.Doc = { type: 'object', properties: { attachment: uri({ 'x-mcp-file': {} }), note: { type: 'string' } } };
  const out = modelFacingSchema(t, stdio);
  const p = (out.inputSchema as Json).properties as Json;
  assert.equal(p.doc.properties.attachment.type, 'string');
  assert.equal(p.doc.properties.note.type, 'string');
  assert.equal(p.maybe.type, 'string');
  assert.deepEqual(out.slots.map((s) => s.label).sort(), ['doc.attachment', 'maybe', 'other.attachment']);
  assert.deepEqual(leaks(out.inputSchema), [], 'the definition itself is neutralised too');
  assert.equal(accepts(out.inputSchema, { doc: { attachment: 'a.txt', note: 'n' }, maybe: 'p.png' }), true);
});

test('a file keyword the host cannot use leaves an argument no value satisfies, with a warning', () => {
  const out = modelFacingSchema(
    tool(
      {
        broken: uri({ 'x-mcp-file': 'images please' }),
        wrongType: { type: 'integer', 'x-mcp-file': {} },
        good: uri({ 'x-mcp-file': {} }),
      },
      [],
      { inputFiles: { missing: {}, n: 3 } },
    ),
    stdio,
  );
  const p = (out.inputSchema as Json).properties as Json;
  assert.deepEqual(p.broken.not, {});
  assert.deepEqual(p.wrongType.not, {});
  assert.equal(p.good.type, 'string');
  assert.equal(accepts(out.inputSchema, { broken: 'data:image/png;base64,AAAA' }), false);
  assert.ok(
    out.warnings.some((w) => w.includes('/properties/broken')),
    out.warnings.join('\n'),
  );
  assert.deepEqual(leaks(out.inputSchema), []);
});

test('a tool without an input schema gets an empty object schema', () => {
  const out = modelFacingSchema({ name: 'bare' }, stdio);
  assert.deepEqual(out.inputSchema, { type: 'object', properties: {} });
  assert.deepEqual(out.slots, []);
});

test("the model's arguments: paths taken out of their slots, the rest kept", () => {
  const { slots } = findFileSlots(
    tool(
      {
        photo: uri({ 'x-mcp-file': {} }),
        images: { type: 'array', items: uri({ 'x-mcp-file': {} }) },
        doc: { type: 'object', properties: { attachment: uri({ 'x-mcp-file': {} }), note: { type: 'string' } } },
      },
      ['photo'],
    ),
  );
  const split = splitModelArguments({ photo: 'a.png', images: ['b.png', 'c.png'], doc: { attachment: 'd.pdf', note: 'n' }, n: 1 }, slots);
  assert.ok(split.ok);
  assert.deepEqual(split.args, { doc: { note: 'n' }, n: 1 });
  assert.deepEqual(
    split.files.map((f) => [f.slot.label, f.paths]),
    [
      ['photo', ['a.png']],
      ['images', ['b.png', 'c.png']],
      ['doc.attachment', ['d.pdf']],
    ],
  );
});

test("the model's arguments: URIs, bytes, wrong shapes and missing files are refused naming the argument", () => {
  const { slots } = findFileSlots(tool({ photo: uri({ 'x-mcp-file': {} }), images: { type: 'array', items: uri({ 'x-mcp-file': {} }) } }, ['photo']));
  const reason = (args: unknown) => {
    const s = splitModelArguments(args, slots);
    assert.equal(s.ok, false);
    return (s as { reason: string }).reason;
  };
  assert.match(reason({ photo: 'data:image/png;base64,iVBORw0KGgo=' }), /'photo' takes the path of a file in the workspace, not a URI/);
  assert.match(reason({ photo: 'file:///etc/passwd' }), /'photo'.*not a URI/);
  assert.match(reason({ photo: 'https://example.com/a.png' }), /'photo'.*not a URI/);
  assert.match(reason({ photo: 'a.png', images: 'b.png' }), /'images' takes a list of paths/);
  assert.match(reason({ photo: { path: 'a.png' } }), /'photo' takes a path of a file/);
  assert.match(reason({}), /'photo' is required/);
  assert.match(reason({ photo: 'a.png', note: { deep: 'data:text/plain,hello' } }), /'note\.deep' holds a data: URI/);
  assert.match(reason([1]), /must be a JSON object/);
  const windows = splitModelArguments({ photo: 'C:\\work\\a.png' }, slots);
  assert.ok(windows.ok, 'a Windows drive path is a path');
});

test('@mcp /run: the tool named (alone, server/tool, tool on server) and referenced files slot by slot', () => {
  assert.deepEqual(parseRunTarget('describe_file'), { tool: 'describe_file' });
  assert.deepEqual(parseRunTarget(' demo/describe_file  please'), { server: 'demo', tool: 'describe_file' });
  assert.deepEqual(parseRunTarget('describe_file on demo'), { tool: 'describe_file', server: 'demo' });
  assert.deepEqual(parseRunTarget('  '), {});
  const { slots } = findFileSlots(tool({ one: uri({ 'x-mcp-file': {} }), many: { type: 'array', items: uri({ 'x-mcp-file': {} }) } }));
  const out = assignReferencedFiles(slots, ['a', 'b', 'c']);
  assert.deepEqual(
    out.filled.map((f) => [f.slot.label, f.files]),
    [
      ['one', ['a']],
      ['many', ['b', 'c']],
    ],
  );
  assert.equal(out.unused, 0);
  assert.equal(assignReferencedFiles(slots.slice(0, 1), ['a', 'b']).unused, 1);
});
