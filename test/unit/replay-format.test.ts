// The saved-calls format (checked with its own JSON Schema, appended to with comments kept), the matcher of
// expectations (each difference said in a line), and a run kept without files' bytes or secrets.
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Tool } from '@modelcontextprotocol/client';
import { findFileSlots } from '../../src/core/files';
import {
  appendSavedCall,
  checkExpectations,
  expectationsOf,
  fileChangedSince,
  keptArguments,
  mcpHostCommand,
  observedOf,
  parseSavedCalls,
  recordedFiles,
  replaceSavedCall,
  resolveSavedPath,
  savedCallOf,
  savedCallsBase,
  SavedCallsError,
  withSecretsLeftOut,
} from '../../src/core/replay';
import { FileChoices } from '../../src/core/run';
import { inlineLimitsFor } from '../../src/core/files';
import { tempDir } from '../helpers/tempDirs';

const dir = tempDir('mcp-replay-format-');

test('a saved-calls file is checked against the format, each problem named with its place', () => {
  const ok = parseSavedCalls(
    `{
    // comments are allowed
    "version": 1,
    "calls": [{ "name": "sum", "server": "everything", "tool": "get-sum", "arguments": { "a": 1, "b": 2 },
                "expect": { "outcome": "success", "text": { "contains": "3" }, "maxDurationMs": 5000 } }],
  }`,
    'calls.json',
  );
  assert.equal(ok.calls[0]!.name, 'sum');
  const problems = (text: string) => {
    try {
      parseSavedCalls(text, 'calls.json');
      return [];
    } catch (e) {
      assert.ok(e instanceof SavedCallsError);
      return e.problems;
    }
  };
  assert.match(problems('{"calls": [{"name": "a", "server": "s"}]}').join('\n'), /tool/);
  assert.match(
    problems('{"calls": [{"name": "a", "server": "s", "tool": "t", "expect": {"outcome": "fine"}}]}').join('\n'),
    /\/calls\/0\/expect\/outcome: Must be one of/,
  );
  assert.match(problems('{"calls": [{"name": "a", "server": "s", "tool": "t", "secrets": {"token": "hunter2"}}]}').join('\n'), /secrets/);
  assert.match(
    problems('{"calls": [{"name": "a", "server": "s", "tool": "t"}, {"name": "a", "server": "s", "tool": "u"}]}').join('\n'),
    /"a" names another call/,
  );
  assert.match(problems('{"calls": [ }').join('\n'), /line 1, column \d+/);
  assert.match(
    problems(`{"calls": [{"name": "a", "server": "s", "tool": "t", "arguments": {"x": "${'y'.repeat(300_000)}"}}]}`).join('\n'),
    /arguments: \d+ bytes; the most is/,
  );
});

test('appending keeps comments and gives a taken name a number; replacing edits one call', () => {
  const text = '{\n  // my calls\n  "calls": [\n    { "name": "sum", "server": "s", "tool": "get-sum" }\n  ]\n}\n';
  const added = appendSavedCall(text, 'f.json', { name: 'sum', server: 's', tool: 'get-sum', arguments: { a: 2 } });
  assert.equal(added.name, 'sum-2');
  assert.match(added.text, /\/\/ my calls/);
  assert.deepEqual(
    parseSavedCalls(added.text, 'f.json').calls.map((c) => c.name),
    ['sum', 'sum-2'],
  );
  const fresh = appendSavedCall('', 'f.json', { name: 'x', server: 's', tool: 't' });
  assert.deepEqual(
    parseSavedCalls(fresh.text, 'f.json').calls.map((c) => c.name),
    ['x'],
  );
  const replaced = replaceSavedCall(added.text, 'f.json', 'sum-2', { name: 'sum-2', server: 's', tool: 'get-sum', expect: { outcome: 'toolError' } });
  assert.equal(parseSavedCalls(replaced, 'f.json').calls[1]!.expect?.outcome, 'toolError');
  assert.match(replaced, /\/\/ my calls/);
  assert.throws(() => appendSavedCall('{"calls": 3}', 'f.json', { name: 'x', server: 's', tool: 't' }), SavedCallsError);
});

test('paths are relative to the workspace folder and may not leave it', () => {
  assert.equal(savedCallsBase(join(dir, '.vscode', 'mcp-calls.json')), dir);
  assert.equal(savedCallsBase(join(dir, 'ci', 'calls.json')), join(dir, 'ci'));
  assert.equal(resolveSavedPath(dir, 'images/a.png', 'image'), join(dir, 'images', 'a.png'));
  assert.throws(() => resolveSavedPath(dir, '../secret.png', 'image'), /image: \.\.\/secret\.png is outside the folder/);
  assert.throws(() => resolveSavedPath(dir, '/etc/passwd', 'image'), /outside the folder/);
});

const observed = (o: Partial<ReturnType<typeof observedOf>>) => ({ isError: false, text: '', durationMs: 10, ...o });

test('each expectation that is not met is a line saying what differed', () => {
  const weather = { temperature: 33, conditions: 'Cloudy', humidity: 82, tags: ['a', { k: 1 }] };
  assert.deepEqual(checkExpectations({ structuredContent: { equals: weather } }, observed({ structuredContent: structuredClone(weather) })), []);
  assert.deepEqual(checkExpectations({ structuredContent: { equals: weather } }, observed({ structuredContent: { ...weather, temperature: 34 } })), [
    'structuredContent.temperature: expected 33, got 34',
  ]);
  assert.deepEqual(checkExpectations({ structuredContent: { equals: weather } }, observed({ structuredContent: { ...weather, wind: 3 } })), [
    'structuredContent.wind: expected nothing, got 3',
  ]);
  assert.deepEqual(checkExpectations({ structuredContent: { equals: weather } }, observed({ structuredContent: { ...weather, tags: ['a', { k: 2 }] } })), [
    'structuredContent.tags[1].k: expected 1, got 2',
  ]);
  // contains: a subset; lists hold each given item somewhere
  assert.deepEqual(
    checkExpectations({ structuredContent: { contains: { conditions: 'Cloudy', tags: [{ k: 1 }] } } }, observed({ structuredContent: weather })),
    [],
  );
  assert.deepEqual(checkExpectations({ structuredContent: { contains: { conditions: 'Sunny' } } }, observed({ structuredContent: weather })), [
    'structuredContent.conditions: expected "Sunny", got "Cloudy"',
  ]);
  assert.match(
    checkExpectations({ structuredContent: { contains: { tags: ['b'] } } }, observed({ structuredContent: weather }))[0]!,
    /structuredContent\.tags: no item contains "b"/,
  );
  // a JSON Schema
  const schema = { type: 'object', required: ['temperature'], properties: { temperature: { type: 'number', maximum: 30 } } };
  assert.match(
    checkExpectations({ structuredContent: { matchesSchema: schema } }, observed({ structuredContent: weather }))[0]!,
    /does not match the schema: .*temperature.*30/,
  );
  assert.match(checkExpectations({ structuredContent: { matchesSchema: schema } }, observed({}))[0]!, /got nothing/);
  // outcome, text, pattern, duration
  assert.deepEqual(checkExpectations({ outcome: 'success' }, observed({ isError: true, text: 'boom' })), ['outcome: expected success, got toolError ("boom")']);
  assert.deepEqual(checkExpectations({ text: { contains: 'sum is 3' } }, observed({ text: 'The sum of 1 and 2 is 3.' })), [
    'text: expected to contain "sum is 3", got "The sum of 1 and 2 is 3."',
  ]);
  assert.deepEqual(checkExpectations({ text: { contains: '{\n  "A": "1",\n  "G": "hello"\n}' } }, observed({ text: '{\n  "A": "1",\n  "G": "bonjour"\n}' })), [
    'text: line 3 of the expected text, "  \\"G\\": \\"hello\\"", is not in the result; the text\'s line 3 is "  \\"G\\": \\"bonjour\\""',
  ]);
  assert.deepEqual(checkExpectations({ text: { matches: '^The sum .* is \\d+\\.$' } }, observed({ text: 'The sum of 1 and 2 is 3.' })), []);
  assert.match(checkExpectations({ text: { matches: 'is \\d{2}' } }, observed({ text: 'is 3' }))[0]!, /expected to match \/is \\d\{2\}\//);
  // A backreference is not RE2: refused by name rather than run with backtracking.
  assert.match(checkExpectations({ text: { matches: '(a)\\1' } }, observed({ text: 'aa' }))[0]!, /the pattern .* is not valid/);
  // Linear time: a pattern that backtracks exponentially in JavaScript answers at once.
  const t = performance.now();
  assert.equal(checkExpectations({ text: { matches: '^(a+)+$' } }, observed({ text: `${'a'.repeat(50_000)}b` })).length, 1);
  assert.ok(performance.now() - t < 2000);
  assert.deepEqual(checkExpectations({ maxDurationMs: 5 }, observed({ durationMs: 12.4 })), ['duration: expected under 5 ms, took 12 ms']);
  // A data: URI in a shown value is never printed whole.
  assert.doesNotMatch(checkExpectations({ text: { contains: 'x' } }, observed({ text: `data:image/png;base64,${'A'.repeat(400)}` }))[0]!, /AAAA/);
});

test('Expect This Result: the outcome, and the structured content or else the text', () => {
  assert.deepEqual(expectationsOf(observedOf({ content: [{ type: 'text', text: 'hi' }], structuredContent: { a: 1 } }, 5)), {
    outcome: 'success',
    structuredContent: { equals: { a: 1 } },
  });
  assert.deepEqual(expectationsOf(observedOf({ content: [{ type: 'text', text: 'no' }], isError: true }, 5)), {
    outcome: 'toolError',
    text: { contains: 'no' },
  });
});

test('a run is kept without file bytes or secrets, and turns into a saved call and a command', async () => {
  const tool: Tool = {
    name: 'upload',
    inputSchema: {
      type: 'object',
      properties: {
        image: { type: 'string', format: 'uri', 'x-mcp-file': { accept: ['image/png'] } },
        token: { type: 'string', format: 'password' },
        note: { type: 'string' },
        echo: { type: 'string' },
      },
    },
  };
  const png = join(dir, 'dot.png');
  writeFileSync(png, Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNkYGBgAAAABQABWaDDsAAAAABJRU5ErkJggg==', 'base64'));
  const { slots } = findFileSlots(tool);
  const files = new FileChoices(slots, () => inlineLimitsFor('stdio'));
  assert.ok((await files.add('/image', [png])).ok);
  const kept = keptArguments(
    tool,
    { image: 'data:image/png;base64,AAAA', token: 'pa55', note: "it's data:text/plain;base64,SGVsbG8=", echo: 'the host secret s3cr3t' },
    slots,
    undefined,
    (t) => t.replaceAll('s3cr3t', '********'),
  );
  assert.deepEqual(kept.secrets, ['token']);
  assert.equal(JSON.stringify(kept.arguments).includes('pa55'), false);
  assert.equal(JSON.stringify(kept.arguments).includes('s3cr3t'), false);
  assert.equal(JSON.stringify(kept.arguments).includes('SGVsbG8='), false);
  assert.equal('image' in kept.arguments!, false);
  const recorded = await recordedFiles(files.entries());
  assert.equal(recorded[0]!.sha256.length, 43);
  assert.equal(recorded[0]!.mediaType, 'image/png');
  const record = { server: 'demo', tool: 'upload', arguments: kept.arguments, secrets: kept.secrets, files: recorded };
  const call = savedCallOf(record, dir, 'upload dot');
  assert.deepEqual(call.files, { image: { path: 'dot.png', sha256: recorded[0]!.sha256, size: recorded[0]!.size, mediaType: 'image/png' } });
  assert.deepEqual(call.secrets, { token: 'env:MCP_SECRET_TOKEN' });
  assert.equal(
    mcpHostCommand(withSecretsLeftOut({ ...record, arguments: { note: "it's" } }, []), { base: dir }),
    `mcp-host call upload --server demo --args '{"note":"it'\\''s"}' --file image=dot.png --secret token=env:MCP_SECRET_TOKEN`,
  );
  // A run whose arguments were not kept (too large) is no command: one without them would make another call.
  assert.throws(
    () => mcpHostCommand({ ...record, arguments: undefined, argumentsNote: 'the arguments (40000 bytes of JSON) are over the 32 KiB kept' }),
    /^Error: This run cannot be copied as a command: the arguments \(40000 bytes of JSON\) are over the 32 KiB kept\.$/,
  );
  assert.equal(await fileChangedSince(png, recorded[0]!, 'image'), undefined);
  const changed = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNkYGBgAAAABQABWaDDsAAAAABJRU5ErkJggg==', 'base64');
  changed[60] = changed[60]! ^ 0xff;
  writeFileSync(png, changed);
  assert.match((await fileChangedSince(png, recorded[0]!, 'image'))!, /^image: dot\.png changed since it was recorded: sha-256 .{12}… then, .{12}… now$/);
});
