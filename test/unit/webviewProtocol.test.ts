import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  formPanel,
  isHostMessage,
  isResponseTo,
  isWebviewMessage,
  restoredState,
  type HostMessage,
  type PersistedState,
  type WebviewMessage,
} from '../../src/shared/protocol';

test('every webview -> host message shape passes the guard', () => {
  const messages: WebviewMessage[] = [
    { type: 'ready' },
    { type: 'pickFile', field: '/image', source: 'workspace' },
    { type: 'pickFile', field: '/image', source: 'browse' },
    { type: 'removeFile', field: '/docs', index: 1 },
    { type: 'submit', values: { a: 1 } },
    { type: 'cancelCall', callId: 'c1' },
    { type: 'answer', action: 'accept', values: { name: 'x' } },
    { type: 'answer', action: 'decline' },
    { type: 'openUrl', url: 'https://example.com' },
    { type: 'readResource', uri: 'file:///a' },
    { type: 'saveOutput', resultId: 'c1', itemId: 'content/0' },
    { type: 'openOutput', resultId: 'c1', itemId: 'content/1' },
    { type: 'valuesChanged', values: {} },
    { type: 'request', id: 1, method: 'validate', params: { values: {} } },
  ];
  for (const m of messages) assert.ok(isWebviewMessage(m), JSON.stringify(m));
});

test('malformed webview messages are refused', () => {
  const bad: unknown[] = [
    null,
    'ready',
    {},
    { type: 'nope' },
    { type: 'pickFile', field: '/a', source: 'disk' },
    { type: 'removeFile', field: '/a', index: -1 },
    { type: 'removeFile', field: '/a', index: 1.5 },
    { type: 'submit', values: [] },
    { type: 'answer', action: 'maybe' },
    { type: 'openOutput', resultId: 'c1' },
    { type: 'answer', action: 'accept', values: 'x' },
    { type: 'request', id: 1, method: 'validate', params: {} },
    { type: 'request', id: 1, method: 'readFile', params: { path: '/etc/passwd' } },
    { type: 'toString' },
    { type: '__proto__' },
    { type: 'request', id: 1, method: 'hasOwnProperty', params: {} },
    { type: 'request', id: 1, method: 'appSampling', params: 'x' },
    { type: 'request', id: 1, method: 'appCallTool', params: { name: 'echo' } },
  ];
  for (const m of bad) assert.equal(isWebviewMessage(m), false, JSON.stringify(m));
});

test('host -> webview messages pass the guard; malformed ones do not', () => {
  const good: HostMessage[] = [
    { type: 'init', panel: { kind: 'inputs', heading: { title: 't', server: 's' }, form: { fields: [], validationSchema: {}, warnings: [] }, values: {} } },
    { type: 'fileSelected', field: '/a', files: [{ name: 'a.png', size: 3, mediaType: 'image/png', warnings: [] }] },
    { type: 'fileRefused', field: '/a', reason: 'too big' },
    { type: 'validation', errors: { '/a': 'Required.' } },
    { type: 'callStarted', callId: 'c' },
    { type: 'progress', callId: 'c', progress: 1, total: 2, message: 'half' },
    { type: 'result', callId: 'c', view: { isError: false, items: [], saves: [], warnings: [] } },
    { type: 'callEnded', callId: 'c', outcome: 'failed', error: 'boom' },
    { type: 'uploadProgress', field: '/a', sent: 1, total: 2 },
    { type: 'response', id: 3, method: 'validate', ok: true, result: { errors: {} } },
    { type: 'response', id: 3, method: 'validate', ok: false, error: 'x' },
  ];
  for (const m of good) assert.ok(isHostMessage(m), JSON.stringify(m));
  const bad: unknown[] = [
    { type: 'init', panel: { kind: 'other' } },
    { type: 'fileSelected', field: '/a', files: [{ name: 'a', size: '3', mediaType: 'x', warnings: [] }] },
    { type: 'validation', errors: { '/a': 1 } },
    { type: 'progress', callId: 'c', progress: Number.NaN },
    { type: 'callEnded', callId: 'c', outcome: 'exploded' },
    { type: 'response', id: 3, method: 'validate', ok: false },
    { type: 'constructor' },
    { type: 'appListChanged', list: 'prompts' },
  ];
  for (const m of bad) assert.equal(isHostMessage(m), false, JSON.stringify(m));
});

test('responses are matched to their request by method and id', () => {
  const response: HostMessage = { type: 'response', id: 7, method: 'validate', ok: true, result: { errors: {} } };
  assert.ok(isResponseTo(response, 'validate', 7));
  assert.equal(isResponseTo(response, 'validate', 8), false);
});

test('a file reaches the webview as a summary of a few dozen bytes, whatever its size', () => {
  const message: HostMessage = {
    type: 'fileSelected',
    field: '/video',
    files: [{ name: 'big.mp4', size: 50 * 1024 * 1024, mediaType: 'video/mp4', warnings: [] }],
  };
  assert.ok(JSON.stringify(message).length < 200);
});

test('a saved panel state restores as it was saved; anything else does not restore', () => {
  const panel = { kind: 'inputs', heading: { title: 't', server: 's' }, form: { fields: [], validationSchema: {}, warnings: [] }, values: {} };
  assert.deepEqual(restoredState({ panel }), { panel });
  assert.equal(restoredState({ panel: { kind: 'x', heading: {} } }), undefined);
  assert.equal(restoredState({ panel: { heading: {} } }), undefined);
  assert.equal(restoredState({ panel: { kind: 'tool' } }), undefined, 'a panel without its heading');
  assert.equal(restoredState(undefined), undefined);
  assert.equal(restoredState('{"panel":{"kind":"tool","heading":{}}}'), undefined);
});

/** A tool panel's state as the previous version saved it (VS Code hands it back as JSON): its kind was `run`. */
const savedByPreviousVersion = `{
  "panel": {
    "kind": "run",
    "heading": { "title": "echo", "server": "everything", "description": "Echoes back the input" },
    "form": { "fields": [], "validationSchema": { "type": "object" }, "warnings": [] },
    "values": { "message": "hello" },
    "files": {},
    "results": [{ "id": "c1", "at": 1700000000000, "view": { "isError": false, "items": [{ "kind": "text", "text": "Echo: hello" }], "saves": [], "warnings": [] } }]
  },
  "markdown": ["c1/0"]
}`;

test('a tool panel saved with the earlier kind "run" restores as a tool panel, everything else it kept unchanged', () => {
  const saved = JSON.parse(savedByPreviousVersion) as { panel: Record<string, unknown>; markdown: string[] };
  const restored = restoredState(saved);
  assert.ok(restored, 'the old state restores');
  assert.equal(restored.panel.kind, 'tool');
  const { kind: _old, ...kept } = saved.panel;
  const { kind: _new, ...restoredKept } = restored.panel;
  assert.deepEqual(restoredKept, kept);
  assert.deepEqual(restored.markdown, ['c1/0']);
  assert.equal(formPanel(restored.panel), restored.panel, 'the restored panel shows its form as a tool panel does');
  assert.equal(saved.panel.kind, 'run', 'the state handed back is not changed in place');
  // Saved again, it is saved with the new kind and restores the same.
  const savedAgain: PersistedState = JSON.parse(JSON.stringify(restored)) as PersistedState;
  assert.deepEqual(restoredState(savedAgain), restored);
});

test('a saved state of an unknown panel kind is still refused, "run" only stands for the tool panel', () => {
  const heading = { title: 't', server: 's' };
  for (const kind of ['Run', 'runs', ' run', 'tools', 'toolPanel', 'mcpHost.tool', '', 1, null]) {
    assert.equal(restoredState({ panel: { kind, heading } }), undefined, `kind ${JSON.stringify(kind)}`);
  }
  assert.equal(restoredState({ panel: { kind: 'run' } }), undefined, 'an old tool panel without its heading');
});
