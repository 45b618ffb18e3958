import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { buildForm, defaultValues, toPayload, validateForm, type FormField, type FormModel } from '../../src/core/forms';
import { findElicitationFileFields, findFileSlots } from '../../src/core/files';

// The elicitation schema server-everything's trigger-elicitation-request sends (abridged to one of each kind).
const everythingSchema = {
  type: 'object',
  properties: {
    name: { title: 'String', type: 'string', description: 'Your full, legal name' },
    check: { title: 'Boolean', type: 'boolean' },
    firstLine: { title: 'String with default', type: 'string', default: 'It was a dark and stormy night.' },
    email: { title: 'Email', type: 'string', format: 'email' },
    homepage: { type: 'string', format: 'uri' },
    birthdate: { type: 'string', format: 'date' },
    integer: { title: 'Integer', type: 'integer', minimum: 1, maximum: 100, default: 42 },
    number: { type: 'number', minimum: 0, maximum: 1000, default: 3.14 },
    untitledSingleSelectEnum: { type: 'string', enum: ['Monica', 'Rachel'], default: 'Monica' },
    untitledMultipleSelectEnum: {
      type: 'array',
      minItems: 1,
      maxItems: 2,
      items: { type: 'string', enum: ['Guitar', 'Piano', 'Violin'] },
      default: ['Guitar'],
    },
    titledSingleSelectEnum: {
      type: 'string',
      oneOf: [
        { const: 'hero-1', title: 'Superman' },
        { const: 'hero-2', title: 'Green Lantern' },
      ],
      default: 'hero-1',
    },
    titledMultipleSelectEnum: {
      type: 'array',
      items: {
        anyOf: [
          { const: 'fish-1', title: 'Tuna' },
          { const: 'fish-2', title: 'Salmon' },
        ],
      },
      default: ['fish-1'],
    },
    legacyTitledEnum: { type: 'string', enum: ['pet-1', 'pet-2'], enumNames: ['Cats', 'Dogs'], default: 'pet-1' },
  },
  required: ['name'],
};

function field(model: FormModel, id: string): FormField {
  const walk = (fields: FormField[]): FormField | undefined => {
    for (const f of fields) {
      if (f.id === id) return f;
      if (f.kind === 'object') {
        const hit = walk(f.fields);
        if (hit) return hit;
      }
    }
    return undefined;
  };
  const hit = walk(model.fields);
  assert.ok(hit, `no field ${id}`);
  return hit;
}

test('every elicitation field type gets its own widget kind, with titles, formats and bounds', () => {
  const m = buildForm(everythingSchema);
  const kinds = Object.fromEntries(m.fields.map((f) => [f.id, f.kind]));
  assert.deepEqual(kinds, {
    '/name': 'string',
    '/check': 'boolean',
    '/firstLine': 'string',
    '/email': 'string',
    '/homepage': 'string',
    '/birthdate': 'string',
    '/integer': 'integer',
    '/number': 'number',
    '/untitledSingleSelectEnum': 'enum',
    '/untitledMultipleSelectEnum': 'multiEnum',
    '/titledSingleSelectEnum': 'enum',
    '/titledMultipleSelectEnum': 'multiEnum',
    '/legacyTitledEnum': 'enum',
  });
  assert.equal(field(m, '/name').label, 'String');
  assert.equal(field(m, '/name').required, true);
  assert.equal(field(m, '/homepage').label, 'homepage', 'the property name stands in for a missing title');
  const email = field(m, '/email');
  assert.ok(email.kind === 'string' && email.format === 'email');
  const integer = field(m, '/integer');
  assert.ok(integer.kind === 'integer' && integer.minimum === 1 && integer.maximum === 100);
  const titled = field(m, '/titledSingleSelectEnum');
  assert.ok(titled.kind === 'enum');
  assert.deepEqual(titled.options, [
    { value: 'hero-1', label: 'Superman' },
    { value: 'hero-2', label: 'Green Lantern' },
  ]);
  const legacy = field(m, '/legacyTitledEnum');
  assert.ok(legacy.kind === 'enum');
  assert.deepEqual(
    legacy.options.map((o) => o.label),
    ['Cats', 'Dogs'],
  );
  const multi = field(m, '/untitledMultipleSelectEnum');
  assert.ok(multi.kind === 'multiEnum' && multi.minItems === 1 && multi.maxItems === 2);
  const titledMulti = field(m, '/titledMultipleSelectEnum');
  assert.ok(titledMulti.kind === 'multiEnum');
  assert.deepEqual(
    titledMulti.options.map((o) => o.label),
    ['Tuna', 'Salmon'],
  );
  assert.equal(m.validationUnavailable, undefined, 'enumNames must not stop validation');
});

test('defaults are pre-filled and sent when the user accepts without changes', () => {
  const m = buildForm(everythingSchema);
  const values = defaultValues(m);
  assert.deepEqual(values, {
    firstLine: 'It was a dark and stormy night.',
    integer: 42,
    number: 3.14,
    untitledSingleSelectEnum: 'Monica',
    untitledMultipleSelectEnum: ['Guitar'],
    titledSingleSelectEnum: 'hero-1',
    titledMultipleSelectEnum: ['fish-1'],
    legacyTitledEnum: 'pet-1',
  });
  const payload = toPayload(m, { ...values, name: 'Ada' });
  assert.equal(payload.integer, 42);
  assert.equal(payload.firstLine, 'It was a dark and stormy night.');
  assert.deepEqual(validateForm(m, { ...values, name: 'Ada' }), {});
});

test('values outside the schema are reported per field before anything is sent', () => {
  const m = buildForm(everythingSchema);
  const errors = validateForm(m, {
    ...defaultValues(m),
    integer: '500',
    email: 'not-an-email',
    birthdate: '31/01/2026',
    homepage: 'example',
    untitledMultipleSelectEnum: ['Guitar', 'Piano', 'Violin'],
  });
  assert.equal(errors['/name'], 'Required.');
  assert.equal(errors['/integer'], 'Must be at most 100.');
  assert.match(errors['/email']!, /email address/);
  assert.match(errors['/birthdate']!, /YYYY-MM-DD/);
  assert.match(errors['/homepage']!, /URI/);
  assert.equal(errors['/untitledMultipleSelectEnum'], 'Choose at most 2.');
  assert.equal(validateForm(m, { ...defaultValues(m), name: '' })['/name'], 'Required.', 'an empty required text counts as missing');
  assert.match(validateForm(m, { name: 'x', number: 'abc' })['/number']!, /number/);
});

test('text input is coerced to the schema types and empty optional values are dropped', () => {
  const m = buildForm(everythingSchema);
  const payload = toPayload(m, {
    name: 'Ada',
    integer: ' 7 ',
    number: '2.5',
    check: 'true',
    email: '',
    titledSingleSelectEnum: 'hero-2',
    untitledMultipleSelectEnum: [],
  });
  assert.deepEqual(payload, { name: 'Ada', integer: 7, number: 2.5, check: true, titledSingleSelectEnum: 'hero-2' });
});

test('an x-mcp-file field becomes a file field, and format "uri" is not asserted on it', () => {
  const schema = {
    type: 'object',
    properties: {
      photo: { type: 'string', title: 'Photo', format: 'uri', 'x-mcp-file': { accept: ['image/png'], maxSize: 1000 } },
      caption: { type: 'string' },
    },
    required: ['photo'],
  };
  const { slots } = findElicitationFileFields(schema);
  const m = buildForm(schema, slots);
  const photo = field(m, '/photo');
  assert.ok(photo.kind === 'file');
  assert.deepEqual(photo.accept, ['image/png']);
  assert.equal(photo.maxSize, 1000);
  assert.equal(photo.transfer, 'inline');
  assert.equal(validateForm(m, {})['/photo'], 'Choose a file.');
  assert.deepEqual(validateForm(m, { photo: ['photos/a.png'] }), {}, 'a picked path is not checked as a URI');
  assert.equal(validateForm(m, { photo: ['/a.png', '/b.png'] })['/photo'], 'Only one file is allowed.');
  assert.deepEqual(toPayload(m, { photo: ['photos/a.png'], caption: 'hi' }), { caption: 'hi' }, 'file bytes are added by the file engine, not the form');
});

test('a SEP-1306 "file" field is an upload field beside ordinary fields, and does not break validation', () => {
  const schema = {
    type: 'object',
    properties: {
      imageFile: { type: 'file', title: 'Image File', accept: ['image/*'], maxSize: 5242880, multiple: true },
      description: { type: 'string', maxLength: 5 },
    },
    required: ['imageFile'],
  };
  const m = buildForm(schema, findElicitationFileFields(schema).slots);
  const f = field(m, '/imageFile');
  assert.ok(f.kind === 'file' && f.transfer === 'upload' && f.multiple && f.maxSize === 5242880);
  assert.equal(m.validationUnavailable, undefined);
  assert.deepEqual(validateForm(m, { imageFile: ['/a.png', '/b.png'], description: 'short' }), {});
  assert.equal(validateForm(m, { imageFile: ['/a.png'], description: 'too long' })['/description'], 'Must be at most 5 characters long.');
});

test('tool schemas: nested objects, arrays of primitives, nullable types, simple unions and $refs', () => {
  const schema = {
    type: 'object',
    $defs: { City: { type: 'string', title: 'City', minLength: 2 } },
    properties: {
      address: { type: 'object', properties: { city: { $ref: '#/$defs/City' }, zip: { type: 'integer' } }, required: ['city'] },
      tags: { type: 'array', items: { type: 'string', maxLength: 3 }, maxItems: 3 },
      note: { type: ['string', 'null'] },
      limit: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
      id: { oneOf: [{ type: 'string' }, { type: 'number' }] },
      combo: { allOf: [{ type: 'object' }, { required: ['a'] }] },
      free: { type: 'object', additionalProperties: true },
      matrix: { type: 'array', items: { type: 'array', items: { type: 'number' } } },
    },
    required: ['address'],
  };
  const m = buildForm(schema);
  const address = field(m, '/address');
  assert.ok(address.kind === 'object');
  assert.equal(field(m, '/address/city').label, 'City');
  assert.equal(field(m, '/address/city').kind, 'string');
  const tags = field(m, '/tags');
  assert.ok(tags.kind === 'array' && tags.item.kind === 'string' && tags.maxItems === 3);
  const note = field(m, '/note');
  assert.ok(note.kind === 'string' && note.nullable);
  const limit = field(m, '/limit');
  assert.ok(limit.kind === 'integer' && limit.nullable);
  const id = field(m, '/id');
  assert.ok(id.kind === 'variant' && id.variants.map((v) => v.kind).join() === 'string,number');
  assert.equal(field(m, '/combo').kind, 'json');
  assert.equal(field(m, '/free').kind, 'json');
  assert.equal(field(m, '/matrix').kind, 'json');

  const values = { address: { city: 'X', zip: '12' }, tags: ['abcd'], note: null, id: '5', free: '{"a":1}', matrix: 'not json' };
  const errors = validateForm(m, values);
  assert.equal(errors['/address/city'], 'Must be at least 2 characters long.');
  assert.equal(errors['/tags'], 'Entry 1: Must be at most 3 characters long.');
  assert.match(errors['/matrix']!, /Not valid JSON/);
  assert.deepEqual(toPayload(m, { address: { city: 'Oslo', zip: '12' }, note: null, id: '5', free: '{"a":1}' }), {
    address: { city: 'Oslo', zip: 12 },
    note: null,
    id: 5,
    free: { a: 1 },
  });
  assert.deepEqual(validateForm(m, { address: { city: 'Oslo' }, note: null, id: 'x' }), {});
});

test('markup in titles, descriptions, options and defaults stays literal text', () => {
  const markup = '<img src=x onerror="alert(1)"><script>alert(2)</script>';
  const m = buildForm({
    type: 'object',
    title: markup,
    properties: { a: { type: 'string', title: markup, description: markup, default: markup }, b: { type: 'string', enum: ['x'], enumNames: [markup] } },
  });
  assert.equal(m.title, markup);
  assert.equal(field(m, '/a').label, markup);
  assert.equal(field(m, '/a').description, markup);
  assert.equal(defaultValues(m).a, markup);
  const b = field(m, '/b');
  assert.ok(b.kind === 'enum' && b.options[0]!.label === markup);
});

test('a 2 MB description and a schema nested 200 levels deep give a usable, bounded form', () => {
  let deep: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < 200; i++) deep = { type: 'object', properties: { inner: deep } };
  const started = Date.now();
  const m = buildForm({ type: 'object', properties: { deep, big: { type: 'string', description: 'd'.repeat(2 * 1024 * 1024) } } });
  assert.ok(Date.now() - started < 2000);
  const big = field(m, '/big');
  assert.ok(big.description!.length < 10_000, 'the description is cut');
  assert.ok(m.warnings.some((w) => /shortened/.test(w)));
  let f: FormField = field(m, '/deep');
  let levels = 0;
  while (f.kind === 'object') {
    f = f.fields[0]!;
    levels++;
  }
  assert.equal(f.kind, 'json', 'beyond the depth limit the rest is a JSON editor');
  assert.ok(levels <= 8);
  assert.match((f as { reason: string }).reason, /Nested more than/);
  const deepValue = JSON.parse(JSON.stringify({ inner: {} }));
  assert.doesNotThrow(() => validateForm(m, { deep: deepValue }));
});

test('a draft-07 schema is validated (not refused for its $schema)', () => {
  const m = buildForm({
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: { n: { type: 'number', maximum: 3 } },
    required: ['n'],
  });
  assert.equal(m.validationUnavailable, undefined);
  assert.equal(validateForm(m, {})['/n'], 'Required.');
  assert.equal(validateForm(m, { n: '4' })['/n'], 'Must be at most 3.');
  assert.deepEqual(validateForm(m, { n: '2' }), {});
});

test('a schema the validator cannot compile still gives a form, checked field by field', () => {
  const m = buildForm({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'nonsense' } }, required: ['a'] });
  assert.ok(m.validationUnavailable);
  assert.equal(field(m, '/a').kind, 'string');
  assert.doesNotThrow(() => validateForm(m, { a: 'x' }));
});

test('tool file slots from the file engine are file fields in a tool form', () => {
  const tool = {
    name: 't',
    inputSchema: {
      type: 'object',
      properties: { doc: { type: 'object', properties: { file: { type: 'string', format: 'uri', 'x-mcp-file': { accept: ['.pdf'] } } } } },
    },
  };
  const m = buildForm(tool.inputSchema, findFileSlots(tool).slots);
  const f = field(m, '/doc/file');
  assert.ok(f.kind === 'file' && f.transfer === 'inline');
});

test('no schema crashes the form builder, and the model is always plain JSON', () => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 6 }), fc.jsonValue({ maxDepth: 3 }), (schema, values) => {
      const m = buildForm(schema);
      assert.deepEqual(JSON.parse(JSON.stringify(m)), m);
      const v = typeof values === 'object' && values !== null && !Array.isArray(values) ? values : {};
      validateForm(m, v as Record<string, unknown>);
      toPayload(m, v as Record<string, unknown>);
    }),
    { numRuns: 300 },
  );
  for (const weird of [
    null,
    42,
    'x',
    [],
    { properties: 5 },
    { properties: { a: null, b: [], c: 'x' } },
    { type: 'object', properties: { a: { $ref: '#/nope' } } },
    { type: 'object', properties: { a: { $ref: '#/properties/a' } } },
    { type: 'object', properties: { a: { enum: [] } } },
  ]) {
    assert.doesNotThrow(() => buildForm(weird));
  }
});

test('server patterns that backtrack for minutes on a backtracking engine are checked, in linear time', () => {
  const hostile = ['^(a+)+$', '^(\\w|\\d)*$', '^(a|a)*$', '^(.*a){12}$'];
  const properties = Object.fromEntries([
    ...hostile.map((pattern, i) => [`p${i}`, { type: 'string', pattern }]),
    ['b', { type: 'string', pattern: '^[0-9]{3}$' }],
  ]);
  const m = buildForm({ type: 'object', properties });
  assert.deepEqual(m.warnings, []);
  const value = `${'a'.repeat(42)}!`;
  const started = Date.now();
  const errors = validateForm(m, { ...Object.fromEntries(hostile.map((_, i) => [`p${i}`, value])), b: '12' });
  assert.ok(Date.now() - started < 2000, `${Date.now() - started} ms`);
  assert.deepEqual(errors, {
    ...Object.fromEntries(hostile.map((pattern, i) => [`/p${i}`, `Must match the pattern ${pattern}.`])),
    '/b': 'Must match the pattern ^[0-9]{3}$.',
  });
  assert.deepEqual(validateForm(m, { ...Object.fromEntries(hostile.map((_, i) => [`p${i}`, 'a'.repeat(12)])), b: '123' }), {});
});

test('a pattern only a backtracking engine can run (lookaround, backreference) is not run, and the form says so', () => {
  const m = buildForm({ type: 'object', properties: { twice: { type: 'string', pattern: '^(?=a)(a)\\1$' }, b: { type: 'string', pattern: '^b+$' } } });
  assert.deepEqual(m.warnings, [
    "The pattern ^(?=a)(a)\\1$ is not checked: the host runs a server's patterns only on a linear-time engine, which cannot express this one (lookaround, a backreference, or a repeat count over 1000). The server checks it.",
  ]);
  assert.deepEqual(validateForm(m, { twice: 'zz', b: 'c' }), { '/b': 'Must match the pattern ^b+$.' });
});

test("patterns mean what they mean in JavaScript: \\s and \\S take Unicode spaces, `.` no line end, as the server's engine does", () => {
  const m = buildForm({ type: 'object', properties: { words: { type: 'string', pattern: '^[\\w\\s]+$' }, token: { type: 'string', pattern: '^\\S+$' } } });
  assert.deepEqual(validateForm(m, { words: 'a\u00a0b\u3000c', token: 'ab' }), {});
  assert.deepEqual(validateForm(m, { words: 'a-b', token: 'a\u00a0b' }), {
    '/words': 'Must match the pattern ^[\\w\\s]+$.',
    '/token': 'Must match the pattern ^\\S+$.',
  });
  const line = buildForm({ type: 'object', properties: { one: { type: 'string', pattern: '^.+$' }, dot: { type: 'string', pattern: '^a[.]b\\.c$' } } });
  assert.deepEqual(validateForm(line, { one: 'a\rb', dot: 'a.b.c' }), { '/one': 'Must match the pattern ^.+$.' });
  assert.deepEqual(validateForm(line, { one: 'a b', dot: 'axbxc' }), { '/dot': 'Must match the pattern ^a[.]b\\.c$.' });
});

test('an invalid pattern makes the schema invalid, as before; patterns of the same schema text are not mixed up', () => {
  const bad = buildForm({ type: 'object', properties: { a: { type: 'string', pattern: '([' } } });
  assert.match(bad.validationUnavailable ?? '', /the schema is invalid/);
  const two = buildForm({ type: 'object', properties: { x: { type: 'string', pattern: '^x$' }, y: { type: 'string', pattern: '^y$' } } });
  assert.deepEqual(validateForm(two, { x: 'x', y: 'y' }), {});
  assert.deepEqual(validateForm(two, { x: 'y', y: 'x' }), { '/x': 'Must match the pattern ^x$.', '/y': 'Must match the pattern ^y$.' });
});

test('a multi-select whose default is the empty list sends it when accepted; one without a default leaves it out', () => {
  const model = buildForm({
    type: 'object',
    properties: {
      tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, default: [] },
      extras: { type: 'array', items: { type: 'string', enum: ['x', 'y'] } },
    },
  });
  assert.deepEqual(toPayload(model, { ...defaultValues(model), extras: [] }), { tags: [] });
});

test('a file field names its filename companion, so the form can fill it from the chosen file', () => {
  const tool = {
    name: 'attach_note',
    inputSchema: {
      type: 'object',
      properties: {
        attachment: { type: 'string', format: 'uri', 'x-mcp-file': { maxSize: 65536 } },
        file_name: { type: 'string', description: 'The name of the attached file.' },
        note: { type: 'string' },
      },
    },
  };
  const model = buildForm(tool.inputSchema, findFileSlots(tool).slots);
  const file = model.fields.find((f) => f.id === '/attachment');
  assert.ok(file?.kind === 'file');
  assert.equal(file.filenameField, '/file_name');
  assert.equal(model.fields.find((f) => f.id === '/note')?.kind, 'string');
});
