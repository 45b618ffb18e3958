// App-rendered elicitation (SEP-3118): which questions name an app, and the host's check of an app's answer
// against the question's own schema (file fields as data: URIs against their slot).
import { strict as assert } from 'node:assert';
import { after, describe, test } from 'node:test';
import { checkAppAnswer, elicitationAppUri, UI_CAPABILITY } from '../../src/core/apps';
import { ServerConnection, type ElicitRequestParamsLoose } from '../../src/core/connection';
import { Logger } from '../../src/core/log';
import { stdioFixture } from '../fixtures/servers';

const schema = {
  type: 'object',
  properties: {
    color: { type: 'string', enum: ['red', 'green'] },
    count: { type: 'integer', minimum: 1, maximum: 5 },
    photo: { type: 'string', format: 'uri', 'x-mcp-file': { accept: ['image/png'], maxSize: 16 } },
  },
  required: ['color'],
};
const png = `data:image/png;base64,${Buffer.from('0123456789').toString('base64')}`;

test('the host declares app-rendered elicitation inside the MCP Apps extension', () => {
  assert.deepEqual(UI_CAPABILITY, { mimeTypes: ['text/html;profile=mcp-app'], elicitation: {} });
});

test('only a form question whose _meta.ui.resourceUri is a ui:// URI names an app', () => {
  const meta = { ui: { resourceUri: 'ui://pick/color.html' } };
  assert.equal(elicitationAppUri({ message: 'm', requestedSchema: schema, _meta: meta }), 'ui://pick/color.html');
  assert.equal(elicitationAppUri({ mode: 'form', message: 'm', _meta: meta }), 'ui://pick/color.html');
  assert.equal(elicitationAppUri({ mode: 'url', message: 'm', url: 'https://x', _meta: meta }), undefined);
  assert.equal(elicitationAppUri({ mode: 'binary', message: 'm', _meta: meta }), undefined);
  assert.equal(elicitationAppUri({ message: 'm', _meta: { ui: { resourceUri: 'https://example.com/app' } } }), undefined);
  assert.equal(elicitationAppUri({ message: 'm', _meta: { ui: 'ui://x' } }), undefined);
  assert.equal(elicitationAppUri({ message: 'm' }), undefined);
});

test('an answer that fits the schema is kept (only the fields the schema names), with its files for confirmation', () => {
  const check = checkAppAnswer({ action: 'accept', content: { color: 'red', count: 2, photo: png, extra: 'dropped' } }, schema);
  assert.ok(check.ok, JSON.stringify(check));
  assert.deepEqual(check.result, { action: 'accept', content: { color: 'red', count: 2, photo: png } });
  assert.deepEqual(check.files, [{ field: 'photo', mediaType: 'image/png', size: 10 }]);
  assert.deepEqual(checkAppAnswer({ action: 'decline' }, schema), { ok: true, result: { action: 'decline' }, files: [] });
  assert.deepEqual(checkAppAnswer({ action: 'cancel', content: { junk: 1 } }, schema), { ok: true, result: { action: 'cancel' }, files: [] });
});

test('an answer out of schema is refused, saying what does not fit', () => {
  const wrong = checkAppAnswer({ action: 'accept', content: { color: 'purple', count: 9 } }, schema);
  assert.ok(!wrong.ok);
  assert.match(wrong.problem, /does not fit the question: .*color.*one of the listed choices.*count.*at most 5/);
  const missing = checkAppAnswer({ action: 'accept', content: {} }, schema);
  assert.ok(!missing.ok && /\/color: Required/.test(missing.problem), JSON.stringify(missing));
  const notObject = checkAppAnswer({ action: 'accept', content: 'red' }, schema);
  assert.ok(!notObject.ok && /without a content object/.test(notObject.problem));
  const badAction = checkAppAnswer({ action: 'submit' }, schema);
  assert.ok(!badAction.ok && /action "submit", not accept, decline or cancel/.test(badAction.problem));
  assert.ok(!checkAppAnswer(null, schema).ok);
  assert.ok(!checkAppAnswer([], schema).ok);
});

test('a file field must hold a data: URI of the accepted type and size', () => {
  const link = checkAppAnswer({ action: 'accept', content: { color: 'red', photo: 'file:///etc/passwd' } }, schema);
  assert.ok(!link.ok && /photo' uses the file: scheme/.test(link.problem), JSON.stringify(link));
  const big = checkAppAnswer({ action: 'accept', content: { color: 'red', photo: `data:image/png;base64,${Buffer.alloc(32).toString('base64')}` } }, schema);
  assert.ok(!big.ok && /exceeds maxSize: received 32 bytes, limit is 16/.test(big.problem), JSON.stringify(big));
  const type = checkAppAnswer({ action: 'accept', content: { color: 'red', photo: 'data:text/plain,hi' } }, schema);
  assert.ok(!type.ok && /media type text\/plain; accepted/.test(type.problem), JSON.stringify(type));
});

describe('a real server names the app only to a host that declares app-rendered elicitation', () => {
  const quiet = () => new Logger(() => undefined, 'error');
  const connections: ServerConnection[] = [];
  after(async () => {
    await Promise.all(connections.map((c) => c.stop()));
  });

  async function ask(file: string, tool: string, apps: boolean): Promise<{ seen: ElicitRequestParamsLoose; text: string }> {
    let seen: ElicitRequestParamsLoose | undefined;
    const conn = new ServerConnection(stdioFixture(file), {
      log: quiet(),
      capabilities: { apps },
      elicitation: async (params) => {
        seen = params;
        return { action: 'accept', content: { color: 'red' } };
      },
    });
    connections.push(conn);
    await conn.start();
    const result = await conn.callTool(tool, tool === 'ask' ? { app: 'good' } : {});
    const text = (result.content as { text?: string }[]).map((c) => c.text ?? '').join('');
    assert.ok(seen, 'the host was asked');
    return { seen, text };
  }

  test('stateful elicitation/create (2025 era)', async () => {
    const withApps = await ask('app-questions-server.ts', 'ask', true);
    assert.equal(elicitationAppUri(withApps.seen), 'ui://questions/good.html');
    assert.match(withApps.text, /^app-rendered answer: \{"action":"accept","content":\{"color":"red"\}\}/);
    const without = await ask('app-questions-server.ts', 'ask', false);
    assert.equal(elicitationAppUri(without.seen), undefined);
    assert.match(without.text, /^plain answer/);
  });

  test('an input_required (MRTR) question of the 2026-07-28 era', async () => {
    const { seen, text } = await ask('app-questions-era2026-server.ts', 'ask_mrtr', true);
    assert.equal(elicitationAppUri(seen), 'ui://questions/good.html');
    assert.match(text, /^mrtr answer: \{"action":"accept","content":\{"color":"red"\}\}/);
  });
});
