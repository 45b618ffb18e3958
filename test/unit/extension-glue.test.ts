import { test } from 'node:test';
import assert from 'node:assert/strict';
import { acceptedExtensions, byRecency, confirmationDetail, openDialogFilters, workspaceExclude, workspaceGlob } from '../../src/extension/panels/fileFilters';
import { addServerToConfig, serverNamesIn, splitCommandLine, suggestServerName, uniqueServerName } from '../../src/extension/servers/configEdits';
import { describeState, entryLabel, serverContextValue, statusBarText, toolLabel } from '../../src/extension/servers/serverDescriptions';
import { oneLine } from '../../src/shared/format';
import { inputsSchema } from '../../src/extension/servers/serverInputsSchema';

test('accept lists become extension lists for the pickers', () => {
  assert.deepEqual(acceptedExtensions(['image/png', '.JPG']), ['jpg', 'png']);
  assert.equal(acceptedExtensions(undefined), undefined);
  assert.equal(acceptedExtensions(['*/*']), undefined);
  assert.equal(acceptedExtensions(['application/x-unknown-thing']), undefined);
  assert.ok(acceptedExtensions(['image/*'])!.includes('png'));
  assert.ok(acceptedExtensions(['application/pdf; charset=x'])!.includes('pdf'));
});

test('the workspace glob matches accepted extensions case-insensitively', () => {
  assert.equal(workspaceGlob(undefined), '**/*');
  assert.equal(workspaceGlob(['application/pdf']), '**/*.[pP][dD][fF]');
  assert.equal(workspaceGlob(['.png', '.gif']), '**/*.{[gG][iI][fF],[pP][nN][gG]}');
});

test("the workspace pick excludes tool folders and the user's files.exclude patterns that are on", () => {
  const glob = workspaceExclude({ '**/secret.txt': true, '**/*.log': false, '**/{a,b}': true, '**/x': { when: '$(basename).ts' } });
  assert.ok(glob.startsWith('{') && glob.endsWith('}'));
  const parts = glob.slice(1, -1).split(',');
  assert.ok(parts.includes('**/node_modules/**') && parts.includes('**/.git/**'));
  assert.ok(parts.includes('**/secret.txt'), 'an exclude that is on');
  assert.ok(!parts.includes('**/*.log'), 'an exclude that is off');
  assert.ok(!parts.some((p) => p.includes('{') || p.includes('when')), 'nested groups and conditional excludes are left out');
  assert.ok(!parts.some((p) => /\bdist\b|\bbuild\b|\bout\b/.test(p)), 'build outputs may hold files to send');
});

test('open dialog filters list the accepted types, then all files', () => {
  assert.deepEqual(openDialogFilters(['.csv'], '.csv'), { '.csv': ['csv'], 'All files': ['*'] });
  assert.deepEqual(openDialogFilters([], 'any file'), { 'All files': ['*'] });
});

test('workspace files are offered newest first', () => {
  const sorted = byRecency([
    { path: 'b', mtimeMs: 1 },
    { path: 'a', mtimeMs: 5 },
    { path: 'c', mtimeMs: 5 },
  ]);
  assert.deepEqual(
    sorted.map((f) => f.path),
    ['a', 'c', 'b'],
  );
});

test('the confirmation names each file, its size and type, and the destination', () => {
  const detail = confirmationDetail([{ label: 'image', name: 'cat.png', size: '70 bytes', mediaType: 'image/png' }], 'demo', 'the tool "describe_file"');
  assert.match(detail, /image: cat\.png \(70 bytes, image\/png\)/);
  assert.match(detail, /the tool "describe_file" on the MCP server "demo"/);
});

test('command lines split like a shell would for simple quoting', () => {
  assert.deepEqual(splitCommandLine('npx -y "@scope/my server" \'a b\' c\\d'), ['npx', '-y', '@scope/my server', 'a b', 'c\\d']);
  assert.deepEqual(splitCommandLine('  node  "" x '), ['node', '', 'x']);
});

test('server names are suggested from the package or host', () => {
  assert.equal(suggestServerName({ type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything@latest'] }), 'everything');
  assert.equal(suggestServerName({ type: 'stdio', command: 'node', args: ['/x/demo-server/dist/index.js'] }), 'index');
  assert.equal(suggestServerName({ type: 'http', url: 'https://api.example.com/mcp' }), 'api');
  assert.equal(uniqueServerName('demo', ['demo', 'demo-2']), 'demo-3');
});

test('adding a server keeps comments and other servers', () => {
  const text = '{\n  // my servers\n  "servers": {\n    "a": { "type": "http", "url": "http://x" } // keep\n  }\n}\n';
  const out = addServerToConfig(text, 'b', { type: 'stdio', command: 'node', args: ['s.js'] });
  assert.match(out, /\/\/ my servers/);
  assert.match(out, /\/\/ keep/);
  assert.deepEqual(serverNamesIn(out).sort(), ['a', 'b']);
  const fresh = addServerToConfig('', 'c', { type: 'http', url: 'https://h/mcp' });
  assert.deepEqual(JSON.parse(fresh), { servers: { c: { type: 'http', url: 'https://h/mcp' } } });
  assert.throws(() => addServerToConfig('{ "servers": ', 'd', { type: 'http', url: 'https://h' }), /not valid JSON/);
});

test('server states read as words, icons and menu context values', () => {
  assert.equal(describeState({ kind: 'error', reason: 'command not found: npx' }).tooltip, 'Error: command not found: npx');
  assert.match(describeState({ kind: 'crashed', exitCode: 3, reason: 'boom' }).tooltip, /exit code 3/);
  assert.equal(serverContextValue({ kind: 'stopped' }, true), 'mcpServer.stopped.inputs');
  // Sign-in: an HTTP server is marked for the Sign In / Sign Out menus; its sign-in state is in words.
  assert.equal(serverContextValue({ kind: 'error', reason: 'x', signIn: 'cancelled' }, false, true), 'mcpServer.error.http');
  assert.equal(describeState({ kind: 'error', reason: 'the sign-in was cancelled', signIn: 'cancelled' }).description, 'needs sign-in');
  assert.equal(describeState({ kind: 'error', reason: 'wrong state', signIn: 'failed' }).description, 'sign-in failed');
  assert.equal(describeState({ kind: 'running', era: 'legacy' }, 'alice@example.test').description, 'signed in as alice@example.test');
  assert.equal(statusBarText([]), undefined);
  assert.equal(statusBarText([{ kind: 'running', era: '2025-11-25' } as never, { kind: 'error', reason: 'x' }])!.text, '$(plug) 1 $(error) 1');
});

test('the inputs form: passwords masked, defaults optional, kept secrets optional', () => {
  const schema = inputsSchema(
    [
      { id: 'token', type: 'promptString', password: true, description: 'API token' },
      { id: 'region', type: 'pickString', options: ['eu', 'us'], default: 'eu' },
      { id: 'user', type: 'promptString' },
    ],
    new Set(['token']),
  ) as { properties: Record<string, Record<string, unknown>>; required: string[] };
  assert.equal(schema.properties.token!.format, 'password');
  assert.match(String(schema.properties.token!.description), /leave empty to keep/);
  assert.deepEqual(schema.properties.region!.enum, ['eu', 'us']);
  assert.equal(schema.properties.region!.default, 'eu');
  assert.deepEqual(schema.required, ['user']);
});

test('a server-given name in a tree item, quick pick or notification is one line: every line break is shown escaped', () => {
  const forged = 'report.pdf\nsaved /root/.ssh/authorized_keys\r\u2028\u2029\v\f\u0085end';
  const escaped = 'report.pdf\\nsaved /root/.ssh/authorized_keys\\r\\u2028\\u2029\\v\\f\\u0085end';
  assert.equal(oneLine(forged), escaped);
  assert.equal(oneLine('plain name'), 'plain name');
  assert.equal(toolLabel({ name: forged }), escaped);
  assert.equal(toolLabel({ name: 'x', title: forged }), escaped);
  assert.equal(entryLabel({ name: forged }), escaped);
  assert.equal(entryLabel({ name: 'x', title: `Title\u2028second` }), 'Title\\u2028second');
  for (const label of [toolLabel({ name: forged }), entryLabel({ name: forged })]) assert.doesNotMatch(label, /[\n\r\v\f\u0085\u2028\u2029]/);
});
