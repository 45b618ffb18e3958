import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildForm, defaultValues } from '../../src/core/forms';
import { contentSecurityPolicy, webviewHtml } from '../../src/extension/panels/webviewHtml';
import { describeFile, describeFileSlot, fromLocalDateTimeInput, percent, toLocalDateTimeInput } from '../../src/webview/format';
import { clientErrors, fileFields, getAt, setAt, withoutSecrets } from '../../src/webview/values';
import { parseInline, parseMarkdown } from '../../src/webview/markdown';

test('a chosen file reads as name, size in the units the limits use, and type', () => {
  assert.equal(describeFile({ name: 'cat.png', size: 4567, mediaType: 'image/png' }), 'cat.png · 4.5 KiB · image/png');
  assert.equal(describeFile({ name: 'dot.png', size: 70, mediaType: '' }), 'dot.png · 70 bytes · unknown type');
});

test('a file slot says what it accepts and how large a file may be', () => {
  assert.equal(describeFileSlot({ accept: ['image/png', '.jpg'], maxSize: 65536, multiple: false }), 'Accepts image/png, .jpg · up to 64 KiB');
  assert.equal(describeFileSlot({ accept: [], multiple: true }), 'Accepts any file · several files allowed');
});

test('progress is a bounded percentage, or unknown without a total', () => {
  assert.equal(percent(3, 10), 30);
  assert.equal(percent(12, 10), 100);
  assert.equal(percent(3), undefined);
  assert.equal(percent(3, 0), undefined);
});

test('date-time values survive the datetime-local input', () => {
  const iso = '2026-03-04T05:06:07Z';
  assert.equal(fromLocalDateTimeInput(toLocalDateTimeInput(iso)), iso);
  assert.equal(fromLocalDateTimeInput(''), '');
  assert.equal(toLocalDateTimeInput('not a date'), '');
});

test('values are read and written by path, arrays included', () => {
  const values: Record<string, unknown> = {};
  setAt(values, ['address', 'city'], 'Paris');
  setAt(values, ['names', 0], 'ann');
  setAt(values, ['names', 1], 'bob');
  assert.deepEqual(values, { address: { city: 'Paris' }, names: ['ann', 'bob'] });
  assert.equal(getAt(values, ['names', 1]), 'bob');
  assert.equal(getAt(values, ['missing', 'x']), undefined);
  setAt(values, ['address', 'city'], undefined);
  assert.deepEqual(values.address, {});
});

const schema = {
  type: 'object',
  properties: {
    title: { type: 'string', minLength: 3, maxLength: 5 },
    count: { type: 'integer', minimum: 1, maximum: 10 },
    tags: { type: 'array', items: { type: 'string' }, maxItems: 2 },
    address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    extra: { allOf: [{ type: 'object' }] },
    image: { type: 'string', format: 'uri', 'x-mcp-file': { accept: ['image/png'] } },
  },
  required: ['title', 'count', 'image'],
};
const model = buildForm(schema, [{ path: ['image'], accept: ['image/png'], multiple: false }]);

test('client checks catch required, lengths, bounds, item counts, JSON syntax and missing files', () => {
  const errors = clientErrors(model, { title: 'ab', count: '11', tags: ['a', 'b', 'c'], extra: '{"a":' });
  assert.equal(errors['/title'], 'At least 3 characters.');
  assert.equal(errors['/count'], 'Must be at most 10.');
  assert.equal(errors['/tags'], 'Choose at most 2 items.');
  assert.match(errors['/extra'] ?? '', /^Not valid JSON/);
  assert.equal(errors['/image'], 'Choose a file.');
  assert.equal(errors['/address/city'], undefined, 'an optional object left empty needs nothing inside');
  assert.equal(clientErrors(model, { count: 2.5 })['/count'], 'Must be a whole number.');
  assert.equal(clientErrors(model, {})['/title'], 'Required.');
});

test('a form filled correctly passes the client checks', () => {
  const values = { ...defaultValues(model), title: 'abcd', count: 3, address: { city: 'Paris' }, extra: '{"a":1}' };
  const files = { '/image': [{ name: 'a.png', size: 10, mediaType: 'image/png', warnings: [] }] };
  assert.deepEqual(clientErrors(model, values, files), {});
  assert.deepEqual(
    fileFields(model.fields).map((f) => f.id),
    ['/image'],
  );
});

test('the webview runs no server pattern: the client checks leave `pattern` to the extension (linear-time engine there)', () => {
  const form = buildForm({ type: 'object', properties: { code: { type: 'string', pattern: '^(\\w|\\d)*$', minLength: 2 } } });
  const started = Date.now();
  assert.deepEqual(clientErrors(form, { code: `${'a'.repeat(42)}!` }), {});
  assert.ok(Date.now() - started < 1000);
  assert.equal(clientErrors(form, { code: 'a' })['/code'], 'At least 2 characters.');
  const dir = join(__dirname, '../../src/webview');
  for (const file of ['main.ts', 'form.ts', 'results.ts', 'values.ts', 'format.ts', 'markdown.ts']) {
    const text = readFileSync(join(dir, file), 'utf8');
    assert.doesNotMatch(text, /new RegExp|\.pattern\b|\bpattern:/, `${file} builds no expression from a schema`);
  }
});

test('the webview HTML has a strict nonce CSP and nothing inline', () => {
  const html = webviewHtml({
    cspSource: 'https://webview.test',
    nonce: 'abc123',
    title: 'Run <tool>',
    scriptUri: 'https://webview.test/media/webview.js',
    styleUri: 'https://webview.test/media/webview.css',
    codiconsUri: 'https://webview.test/media/codicons/codicon.css',
  });
  const csp = contentSecurityPolicy('https://webview.test', 'abc123');
  assert.match(csp, /^default-src 'none'/);
  assert.match(csp, /script-src 'nonce-abc123'/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
  assert.match(html, /<script nonce="abc123" src="https:\/\/webview.test\/media\/webview.js"><\/script>/);
  assert.equal((html.match(/<script/g) ?? []).length, 1, 'one script tag, loaded from media/');
  assert.doesNotMatch(html, /<tool>/, 'the title is escaped');
  assert.doesNotMatch(html, /\sstyle=|\son[a-z]+=/i, 'no inline styles or handlers');
});

test('the webview never builds markup from strings', () => {
  const dir = join(__dirname, '../../src/webview');
  for (const file of ['main.ts', 'form.ts', 'results.ts', 'dom.ts', 'bridge.ts', 'markdown.ts']) {
    const text = readFileSync(join(dir, file), 'utf8');
    assert.doesNotMatch(text, /innerHTML|outerHTML|insertAdjacentHTML|document\.write/, file);
  }
});

test('the Markdown subset parses into text-only blocks; markup stays text', () => {
  const blocks = parseMarkdown('# Title\n\nSome **bold** and `code` <b>x</b>\n\n- one\n- [two](https://e.com)\n\n```\n<script>\n```');
  assert.deepEqual(blocks[0], { type: 'heading', level: 1, inlines: [{ type: 'text', text: 'Title' }] });
  assert.deepEqual(blocks[1], {
    type: 'paragraph',
    inlines: [
      { type: 'text', text: 'Some ' },
      { type: 'strong', text: 'bold' },
      { type: 'text', text: ' and ' },
      { type: 'code', text: 'code' },
      { type: 'text', text: ' <b>x</b>' },
    ],
  });
  assert.deepEqual(blocks[2], {
    type: 'list',
    ordered: false,
    items: [[{ type: 'text', text: 'one' }], [{ type: 'link', text: 'two', url: 'https://e.com' }]],
  });
  assert.deepEqual(blocks[3], { type: 'code', text: '<script>' });
  assert.deepEqual(parseInline('a *b* _c_'), [
    { type: 'text', text: 'a ' },
    { type: 'em', text: 'b' },
    { type: 'text', text: ' ' },
    { type: 'em', text: 'c' },
  ]);
});

test('secret values never go into the persisted webview state', () => {
  const inputs = buildForm({
    type: 'object',
    properties: {
      token: { type: 'string', format: 'password' },
      region: { type: 'string' },
      nested: { type: 'object', properties: { key: { type: 'string', writeOnly: true } } },
      pin: { type: 'integer', writeOnly: true },
      port: { type: 'integer' },
    },
  });
  assert.deepEqual(withoutSecrets(inputs.fields, { token: 's3cret', region: 'eu', nested: { key: 'k' }, pin: 4321, port: 80 }), {
    region: 'eu',
    nested: {},
    port: 80,
  });
});
