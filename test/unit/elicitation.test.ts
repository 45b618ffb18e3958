// The host's elicitation logic against real servers: server-everything (2025-11-25 era, form and URL
// mode, -32042) and a 2026-07-28 MRTR fixture with an x-mcp-file field.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServerConnection, type ConnectionOptions, type ElicitRequestParamsLoose } from '../../src/core/connection';
import {
  callToolWithUrlElicitation,
  createElicitationHandler,
  UrlElicitationIncompleteError,
  type ElicitationUi,
  type FormAnswer,
  type FormElicitationRequest,
  type UrlElicitationRequest,
} from '../../src/core/elicitation';
import { CallCancelledError, InputRefusedError } from '../../src/core/errors';
import { Logger } from '../../src/core/log';
import { everythingStdio, stdioFixture } from '../fixtures/servers';
import { resultText } from '../helpers/results';

const log = new Logger(() => undefined, 'error');
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNkYGBgAAAABQABWaDDsAAAAABJRU5ErkJggg==', 'base64');
const dir = mkdtempSync(join(tmpdir(), 'mcp-elicit-'));
const dot = join(dir, 'dot.png');
writeFileSync(dot, PNG);
const bigPng = join(dir, 'big.png');
writeFileSync(bigPng, Buffer.concat([PNG, Buffer.alloc(5000)]));

/** A UI driven by the test: each ask is recorded and answered by the current script. */
class ScriptedUi implements ElicitationUi {
  forms: FormElicitationRequest[] = [];
  urls: UrlElicitationRequest[] = [];
  onForm: (req: FormElicitationRequest) => FormAnswer | Promise<FormAnswer> = () => ({ action: 'cancel' });
  onUrl: (req: UrlElicitationRequest) => 'accept' | 'decline' | 'cancel' = () => 'cancel';
  async form(req: FormElicitationRequest): Promise<FormAnswer> {
    this.forms.push(structuredClone(req));
    return this.onForm(req);
  }
  async url(req: UrlElicitationRequest) {
    this.urls.push(req);
    return this.onUrl(req);
  }
  reset(): void {
    this.forms = [];
    this.urls = [];
  }
}

const everythingUi = new ScriptedUi();
const everything = new ServerConnection(everythingStdio(), {
  log,
  elicitation: createElicitationHandler(everythingUi, { log, transport: 'stdio', interactive: true }),
});
const era2026Ui = new ScriptedUi();
const era2026 = new ServerConnection(stdioFixture('elicit-era2026-server.ts'), {
  log,
  elicitation: createElicitationHandler(era2026Ui, { log, transport: 'stdio', interactive: true }),
});

const era2025Ui = new ScriptedUi();
const era2025 = new ServerConnection(stdioFixture('era2025-server.ts'), {
  log,
  elicitation: createElicitationHandler(era2025Ui, { log, transport: 'stdio', interactive: true }),
});

before(async () => {
  await Promise.all([everything.start(), era2026.start(), era2025.start()]);
});
after(async () => {
  await Promise.all([everything.stop(), era2026.stop(), era2025.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

test("server-everything's form shows which server asks, and the answer goes back with the defaults", async () => {
  everythingUi.reset();
  everythingUi.onForm = (req) => ({ action: 'accept', values: { ...req.values, name: 'Ada', check: true } });
  const result = await everything.callTool('trigger-elicitation-request', {});
  const [req] = everythingUi.forms;
  assert.equal(req!.server, 'everything');
  assert.equal(req!.message, 'Please provide inputs for the following fields:');
  assert.equal(req!.form.fields.length, 13);
  assert.equal(req!.values.integer, 42, 'defaults are pre-filled');
  const text = resultText(result);
  assert.match(text, /Name: Ada/);
  assert.match(text, /"integer": 42/);
  assert.match(text, /"legacyTitledEnum": "pet-1"/);
  assert.match(text, /"check": true/);
});

test('an out-of-range answer is shown again with its errors, and only the corrected one is sent', async () => {
  everythingUi.reset();
  everythingUi.onForm = (req) =>
    req.attempt === 1
      ? { action: 'accept', values: { ...req.values, name: 'Ada', integer: '500', email: 'not-an-email' } }
      : { action: 'accept', values: { ...req.values, integer: '7', email: 'ada@example.com' } };
  const result = await everything.callTool('trigger-elicitation-request', {});
  assert.equal(everythingUi.forms.length, 2);
  assert.deepEqual(everythingUi.forms[1]!.errors, { '/integer': 'Must be at most 100.', '/email': 'Must be an email address.' });
  assert.equal(everythingUi.forms[1]!.values.integer, '500', 'the user sees what they typed');
  assert.match(resultText(result), /"integer": 7/);
  assert.doesNotMatch(resultText(result), /500/);
});

test('a person may take longer than the call timeout to answer: the call is not cut off', async () => {
  everythingUi.onForm = async (req) => {
    await new Promise((r) => setTimeout(r, 700));
    return { action: 'accept', values: { ...req.values, name: 'Slow' } };
  };
  const result = await everything.callTool('trigger-elicitation-request', {}, { timeoutMs: 300 });
  assert.match(resultText(result), /Name: Slow/);
});

test('decline and cancel reach the server as distinct answers', async () => {
  everythingUi.onForm = () => ({ action: 'decline' });
  assert.match(resultText(await everything.callTool('trigger-elicitation-request', {})), /declined/);
  everythingUi.onForm = () => ({ action: 'cancel' });
  assert.match(resultText(await everything.callTool('trigger-elicitation-request', {})), /cancelled/);
});

test('without a person to ask again, an invalid answer is refused locally with the reason', async () => {
  const ui = new ScriptedUi();
  ui.onForm = (req) => ({ action: 'accept', values: { ...req.values, name: 'Ada', integer: 500 } });
  const handler = createElicitationHandler(ui, { log, transport: 'stdio', interactive: false });
  const params: ElicitRequestParamsLoose = {
    message: 'q',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' }, integer: { type: 'integer', maximum: 100, title: 'Integer' } } },
  };
  await assert.rejects(
    handler(params, { server: 's', signal: new AbortController().signal }),
    (e: Error) => e instanceof InputRefusedError && /Integer: Must be at most 100/.test(e.message),
  );
  assert.equal(ui.forms.length, 1);
});

test('URL mode: the full URL and its domain are offered, and accept means consent only', async () => {
  everythingUi.reset();
  everythingUi.onUrl = () => 'accept';
  const result = await everything.callTool('trigger-url-elicitation', { url: 'https://example.com/authorize?x=1', elicitationId: 'e-1' });
  assert.deepEqual(
    everythingUi.urls.map((u) => [u.server, u.url, u.domain, u.elicitationId, u.warnings.length]),
    [['everything', 'https://example.com/authorize?x=1', 'example.com', 'e-1', 0]],
  );
  assert.match(resultText(result), /completed the URL elicitation/);
  everythingUi.onUrl = () => 'decline';
  assert.doesNotMatch(resultText(await everything.callTool('trigger-url-elicitation', { url: 'https://example.com/b' })), /completed the URL/);
});

test('-32042: the required URL is offered, then the call is retried after the user says it is done', async () => {
  everythingUi.reset();
  everythingUi.onUrl = () => 'accept';
  let retries = 0;
  const result = (await callToolWithUrlElicitation(
    everything,
    'trigger-url-elicitation',
    { url: 'https://example.com/after', errorPath: true, elicitationId: 'pre-1' },
    everythingUi,
    {
      log,
      waitForRetry: async () => {
        retries++;
        return 'retry';
      },
    },
  )) as { content: unknown[] };
  assert.equal(retries, 1);
  assert.equal(everythingUi.urls[0]!.url, 'https://modelcontextprotocol.io', 'first the prerequisite URL from the error');
  assert.equal(everythingUi.urls[1]!.url, 'https://example.com/after', 'then the retried call asks for its own');
  assert.match(resultText(result), /completed the URL elicitation/);

  everythingUi.reset();
  everythingUi.onUrl = () => 'decline';
  await assert.rejects(
    callToolWithUrlElicitation(
      everything,
      'trigger-url-elicitation',
      { url: 'https://example.com/never', errorPath: true, elicitationId: 'pre-2' },
      everythingUi,
      { log },
    ),
    (e: Error) => e instanceof UrlElicitationIncompleteError && /you declined/.test(e.message),
  );
});

test('-32042: cancelling the call while its required URL is pending is a CallCancelledError (how the panel knows a cancel)', async () => {
  everythingUi.reset();
  everythingUi.onUrl = () => 'accept';
  const abort = new AbortController();
  const pending = callToolWithUrlElicitation(
    everything,
    'trigger-url-elicitation',
    { url: 'https://example.com/cancelled', errorPath: true, elicitationId: 'pre-3' },
    everythingUi,
    {
      log,
      call: { signal: abort.signal },
      waitForRetry: async (_request, stop) =>
        new Promise<'retry' | 'cancel'>((resolve) => {
          stop.addEventListener('abort', () => resolve('cancel'), { once: true });
          abort.abort();
        }),
    },
  );
  await assert.rejects(pending, (e: Error) => e instanceof CallCancelledError && /was cancelled/.test(e.message));
});

test('2026-07-28 MRTR: an x-mcp-file field survives to the form, and the picked PNG is sent as a data URI', async () => {
  assert.deepEqual(era2026.state.kind === 'running' && [era2026.state.era, era2026.state.protocolVersion], ['modern', '2026-07-28']);
  era2026Ui.reset();
  era2026Ui.onForm = (req) => ({ action: 'accept', values: { ...req.values, name: 'Ada' }, files: { photo: [dot] } });
  const result = await era2026.callTool('profile', {});
  const form = era2026Ui.forms[0]!.form;
  const photo = form.fields.find((f) => f.id === '/photo')!;
  assert.ok(photo.kind === 'file', 'x-mcp-file was not stripped from the requestedSchema');
  assert.deepEqual(photo.accept, ['image/png']);
  const answer = JSON.parse(resultText(result));
  assert.equal(answer.action, 'accept');
  assert.equal(answer.content.photo, `data:image/png;base64,${PNG.toString('base64')}`);
  assert.deepEqual({ name: answer.content.name, age: answer.content.age, color: answer.content.color }, { name: 'Ada', age: 30, color: 'g' });
});

test('2025-11-25: an x-mcp-file field in a server-initiated elicitation survives to the form too', async () => {
  assert.deepEqual(era2025.state.kind === 'running' && [era2025.state.era, era2025.state.protocolVersion], ['legacy', '2025-11-25']);
  era2025Ui.reset();
  era2025Ui.onForm = () => ({ action: 'accept', values: {}, files: { photo: [dot] } });
  const result = await era2025.callTool('ask_file', {});
  const photo = era2025Ui.forms[0]!.form.fields.find((f) => f.id === '/photo')!;
  assert.ok(photo.kind === 'file' && photo.maxSize === 1000, 'x-mcp-file was not stripped from the requestedSchema');
  assert.equal(JSON.parse(resultText(result)).content.photo, `data:image/png;base64,${PNG.toString('base64')}`);
});

/** A started connection to a fixture whose questions `ui` answers, stopped after `body`. */
async function withAskingServer(
  fixture: string,
  name: string,
  ui: ScriptedUi,
  body: (conn: ServerConnection) => Promise<void>,
  options: Partial<ConnectionOptions> = {},
): Promise<void> {
  const conn = new ServerConnection(stdioFixture(fixture, [], name), {
    log,
    elicitation: createElicitationHandler(ui, { log, transport: 'stdio', interactive: true }),
    ...options,
  });
  await conn.start();
  try {
    await body(conn);
  } finally {
    await conn.stop();
  }
}

test('a 2026-era server that keeps asking is stopped after the round limit, with a clear message', async () => {
  const ui = new ScriptedUi();
  ui.onForm = (req) => ({ action: 'accept', values: { ...req.values, ok: true } });
  await withAskingServer(
    'era2026-server.ts',
    'asker',
    ui,
    async (conn) => {
      await assert.rejects(conn.callTool('ask_forever', {}), /the server kept asking for input \(3 rounds\)/);
      assert.ok(ui.forms.length >= 3 && ui.forms.length <= 4, `${ui.forms.length} forms shown`);
    },
    { inputRequired: { maxRounds: 3 } },
  );
});

test('a file over its field limit is refused before reading, and the user is asked again', async () => {
  era2026Ui.reset();
  era2026Ui.onForm = (req) => ({ action: 'accept', values: { ...req.values, name: 'Ada' }, files: { photo: [req.attempt === 1 ? bigPng : dot] } });
  const answer = JSON.parse(resultText(await era2026.callTool('profile', {})));
  assert.match(era2026Ui.forms[1]!.errors!['/photo']!, /big\.png is 5 KiB \(5,070 bytes\).*at most 4 KiB/);
  assert.match(answer.content.photo, /^data:image\/png;base64,/);
});

test('2026-07-28 URL mode: a punycode domain is shown with a warning and its Unicode form', async () => {
  era2026Ui.reset();
  era2026Ui.onUrl = () => 'accept';
  const answer = JSON.parse(resultText(await era2026.callTool('open_site', {})));
  assert.deepEqual(answer, { action: 'accept' }, 'no content: accept is consent only');
  const [req] = era2026Ui.urls;
  assert.equal(req!.domain, 'xn--80ak6aa92e.com');
  assert.equal(req!.domainUnicode, 'аррӏе.com', 'the Cyrillic look-alike of apple.com');
  assert.match(req!.warnings[0]!, /punycode/);
});

test('a replayed elicitationId reuses the answer only within one server session, until the server completes it', async () => {
  const ui = new ScriptedUi();
  ui.onUrl = () => 'accept';
  await withAskingServer('era2025-server.ts', 'replays', ui, async (conn) => {
    // ask_twice sends the same URL elicitation twice, then notifications/elicitation/complete.
    assert.deepEqual(JSON.parse(resultText(await conn.callTool('ask_twice', {}))), [{ action: 'accept' }, { action: 'accept' }]);
    assert.equal(ui.urls.length, 1, 'the replay was answered from the first answer');
    await conn.callTool('ask_twice', {});
    assert.equal(ui.urls.length, 2, 'after completion the same id is a new question');
    await conn.stop();
    await conn.start();
    await conn.callTool('ask_twice', {});
    assert.equal(ui.urls.length, 3, 'a later server session never reuses an earlier consent');
  });
});

test('a consent is not carried over a crash either', async () => {
  const ui = new ScriptedUi();
  ui.onUrl = () => 'accept';
  await withAskingServer('recording-server.ts', 'crashy', ui, async (conn) => {
    await assert.rejects(conn.callTool('ask_url_then_crash', { id: 'c-1' }), /exit code 9/);
    assert.equal(conn.state.kind, 'crashed');
    await conn.start();
    assert.deepEqual(JSON.parse(resultText(await conn.callTool('ask_url', { id: 'c-1' }))), { action: 'accept' });
    assert.equal(ui.urls.length, 2, 'the user was asked again');
  });
});

test('-32042: the call is retried when the server sends notifications/elicitation/complete', async () => {
  const ui = new ScriptedUi();
  ui.onUrl = () => 'accept';
  await withAskingServer('recording-server.ts', 'login', ui, async (conn) => {
    const started = Date.now();
    // No manual retry control: only the completion notification can end the wait before the 20 s limit.
    const result = await callToolWithUrlElicitation(conn, 'needs_login', {}, ui, { log, completionTimeoutMs: 20_000 });
    assert.equal(resultText(result), 'signed in');
    assert.ok(Date.now() - started < 10_000);
    assert.deepEqual(
      ui.urls.map((u) => [u.url, u.elicitationId]),
      [['https://example.com/login', 'login-1']],
    );
  });
});

test('files that fit one by one but not together in one stdio message are a form error: the user is asked again', async () => {
  const big = (name: string) => {
    const p = join(dir, name);
    writeFileSync(p, Buffer.concat([PNG, Buffer.alloc(6 * 1024 * 1024)]));
    return p;
  };
  const [a, b] = [big('six-a.png'), big('six-b.png')];
  const ui = new ScriptedUi();
  ui.onForm = (req) => (req.attempt === 1 ? { action: 'accept', values: {}, files: { first: [a], second: [b] } } : { action: 'decline' });
  await withAskingServer('recording-server.ts', 'two-files', ui, async (conn) => {
    assert.deepEqual(JSON.parse(resultText(await conn.callTool('ask_two_files', {}))), { action: 'decline' });
    assert.match(ui.forms[1]!.errors![''] ?? '', /2 files \(.*six-a\.png.*six-b\.png\) add up to 12 MiB .*; at most 7 MiB .* in one call/);
  });
});

test('a URL that is not http(s) is never offered', async () => {
  const ui = new ScriptedUi();
  const handler = createElicitationHandler(ui, { log, transport: 'http', interactive: true });
  for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'not a url']) {
    assert.deepEqual(await handler({ mode: 'url', message: 'm', url }, { server: 's', signal: new AbortController().signal }), { action: 'decline' });
  }
  assert.equal(ui.urls.length, 0);
});

test('when the server cancels the request, the open form is answered cancel', async () => {
  const ui = new ScriptedUi();
  ui.onForm = () => new Promise(() => undefined);
  const handler = createElicitationHandler(ui, { log, transport: 'stdio', interactive: true });
  const abort = new AbortController();
  const pending = handler({ message: 'm', requestedSchema: { type: 'object', properties: {} } }, { server: 's', signal: abort.signal });
  setTimeout(() => abort.abort(), 20);
  assert.deepEqual(await pending, { action: 'cancel' });
});
