// Misbehaving servers: the host keeps working, stays bounded, and says clearly what happened.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { CallCancelledError, CallTimeoutError, ServerConnection, ServerCrashedError } from '../../src/core/connection';
import { createElicitationHandler, type ElicitationUi, type FormAnswer, type FormElicitationRequest } from '../../src/core/elicitation';
import { buildForm } from '../../src/core/forms';
import { Logger } from '../../src/core/log';
import { toResultView } from '../../src/core/results';
import { httpServer, startHttpFixture, stdioFixture, type RunningHttpServer } from '../fixtures/servers';

const MARKUP = '<img src=x onerror="alert(1)"><script>alert(2)</script>**bold** [link](javascript:alert(3)) \u001b[31mred\u001b[0m';
const logLines: string[] = [];
const log = new Logger((level, m) => {
  logLines.push(`${level} ${m}`);
}, 'info');

/**
 * Runs `work` while sampling live memory (heap + array buffers, after a full collection, so garbage awaiting
 * collection does not count); returns its value and the peak growth over the start, in bytes.
 */
async function peakLiveMemory<T>(work: () => Promise<T>): Promise<{ value: T; peak: number }> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  const base = process.memoryUsage();
  let peak = 0;
  const sample = () => {
    gc();
    const m = process.memoryUsage();
    peak = Math.max(peak, m.heapUsed + m.arrayBuffers - base.heapUsed - base.arrayBuffers);
  };
  const timer = setInterval(sample, 10);
  try {
    const value = await work();
    sample();
    return { value, peak };
  } finally {
    clearInterval(timer);
  }
}
const MB = 1024 * 1024;

class HostileUi implements ElicitationUi {
  forms: FormElicitationRequest[] = [];
  aborted = 0;
  answer: (req: FormElicitationRequest) => FormAnswer | Promise<FormAnswer> = (req) => ({ action: 'accept', values: req.values });
  async form(req: FormElicitationRequest, signal: AbortSignal) {
    this.forms.push(req);
    signal.addEventListener('abort', () => {
      this.aborted++;
    });
    return this.answer(req);
  }
  async url() {
    return 'decline' as const;
  }
}

const ui = new HostileUi();
const options = () => ({ log, elicitation: createElicitationHandler(ui, { log, transport: 'stdio' as const, interactive: true }) });
const conn = new ServerConnection(stdioFixture('hostile-server.ts'), options());
let http: RunningHttpServer;
let httpConn: ServerConnection;

before(async () => {
  http = await startHttpFixture('hostile-server.ts', '--http');
  httpConn = new ServerConnection(httpServer('hostile-http', http.url), options());
  await Promise.all([conn.start(), httpConn.start()]);
});
after(async () => {
  await Promise.all([conn.stop(), httpConn.stop()]);
  await http.stop();
});

test('markup in tool titles, form titles, descriptions, options, defaults and results comes out as literal text', async () => {
  ui.forms = [];
  ui.answer = (req) => ({ action: 'accept', values: req.values });
  const tool = conn.tools.find((t) => t.name === 'markup_form')!;
  assert.equal(tool.title, MARKUP);
  const result = await conn.callTool('markup_form', {});
  const req = ui.forms[0]!;
  assert.equal(req.message, MARKUP);
  const [comment, pick] = req.form.fields;
  assert.equal(comment!.label, MARKUP);
  assert.equal(comment!.description, MARKUP);
  assert.equal(req.values.comment, MARKUP);
  assert.ok(pick!.kind === 'enum' && pick.options[0]!.label === MARKUP && pick.options[0]!.value === '<b>a</b>');
  const view = toResultView(result);
  assert.deepEqual(view.items[0], { kind: 'text', text: MARKUP });
  assert.ok(view.items[2]!.kind === 'resourceLink' && view.items[2]!.name === MARKUP);
  assert.deepEqual(JSON.parse((result.content[1] as { text: string }).text), { action: 'accept', content: { comment: MARKUP, pick: '<b>a</b>' } });
});

test('a 2 MB description and a schema nested 200 levels deep: listed, rendered bounded, answerable', async () => {
  const tool = conn.tools.find((t) => t.name === 'deep_tool')!;
  assert.equal(tool.description!.length, 2 * 1024 * 1024);
  const model = buildForm(tool.inputSchema);
  assert.ok(JSON.stringify(model).length < 3 * 1024 * 1024 + 100_000, 'the model does not multiply the schema');
  assert.ok(model.warnings.some((w) => /shortened/.test(w)));

  ui.forms = [];
  ui.answer = (req) => ({ action: 'accept', values: req.values });
  const result = await conn.callTool('deep_form', {});
  const form = ui.forms[0]!.form;
  assert.ok(form.description!.length < 10_000);
  assert.ok(form.fields[0]!.label.length < 1000 && form.fields[0]!.description!.length < 10_000);
  assert.deepEqual(JSON.parse((result.content[0] as { text: string }).text), { action: 'accept', content: { title: 'kept' } });

  // Nesting is not allowed in an elicitation schema: the SDK refuses it before any form is shown.
  ui.forms = [];
  const nested = await conn.callTool('nested_form', {}).then(
    (r) => JSON.stringify(r),
    (e: Error) => e.message,
  );
  assert.equal(ui.forms.length, 0);
  assert.match(nested, /Invalid elicitation request|invalid/i);
});

test('a server that never answers: the user can cancel, and the timeout applies', async () => {
  const abort = new AbortController();
  const started = Date.now();
  setTimeout(() => abort.abort(), 200);
  await assert.rejects(conn.callTool('never', {}, { signal: abort.signal }), (e: Error) => e instanceof CallCancelledError && /was cancelled/.test(e.message));
  assert.ok(Date.now() - started < 2000);
  await assert.rejects(
    conn.callTool('never', {}, { timeoutMs: 300 }),
    (e: Error) => e instanceof CallTimeoutError && /no answer within 300 ms/.test(e.message),
  );
  assert.equal((await conn.callTool('noise', {})).isError, undefined, 'the connection still works afterwards');
});

test('20,000 progress notifications in a burst neither hang nor crash the host, in bounded memory', async (t) => {
  let seen = 0;
  let last = 0;
  const started = Date.now();
  const { value: result, peak } = await peakLiveMemory(() =>
    conn.callTool(
      'progress_burst',
      {},
      {
        onProgress: (p) => {
          seen++;
          last = p.progress;
        },
      },
    ),
  );
  t.diagnostic(`live memory growth during the burst: ${(peak / MB).toFixed(1)} MB`);
  assert.ok(peak < 16 * MB, `live memory grew by ${(peak / MB).toFixed(1)} MB for 3 MB of notifications`);
  assert.equal((result.content[0] as { text: string }).text, 'burst done');
  assert.ok(Date.now() - started < 10_000);
  // Every one, the last read together with the result included.
  assert.equal(seen, 20_000);
  assert.equal(last, 20_000);
});

test('non-JSON lines on stdout are skipped and the answer still arrives', async () => {
  const result = await conn.callTool('noise', {});
  assert.equal((result.content[0] as { text: string }).text, 'after the noise');
});

test('a 30 MB result over HTTP is shown in part; a 40 MB one over stdio fails with a clear message; memory stays bounded', async (t) => {
  const { value: view, peak: httpPeak } = await peakLiveMemory(async () => toResultView(await httpConn.callTool('big_result', { mb: 30 })));
  t.diagnostic(`live memory growth for the 30 MB result over HTTP: ${(httpPeak / MB).toFixed(1)} MB`);
  assert.ok(httpPeak < 100 * MB, `live memory grew by ${(httpPeak / MB).toFixed(1)} MB for a 30 MB result`);
  const item = view.items[0]!;
  assert.ok(item.kind === 'text' && item.truncated?.totalChars === 30 * 1024 * 1024);
  assert.ok(JSON.stringify(view).length < 2 * 1024 * 1024);

  const stdio = new ServerConnection(stdioFixture('hostile-server.ts', [], 'hostile-big'), options());
  await stdio.start();
  try {
    const { value: failure, peak } = await peakLiveMemory(() =>
      stdio.callTool('big_result', { mb: 40 }).then(
        () => undefined,
        (e: Error) => e,
      ),
    );
    assert.ok(failure instanceof ServerCrashedError, String(failure));
    assert.match(failure.message, /the server sent a message over 32 MiB, the message size limit; the connection was closed/);
    t.diagnostic(`live memory growth for the 40 MB result over stdio: ${(peak / MB).toFixed(1)} MB`);
    assert.ok(peak < 100 * MB, `live memory grew by ${(peak / MB).toFixed(1)} MB though the message was dropped at 32 MiB`);
  } finally {
    await stdio.stop();
  }
});

test('a crash in the middle of an elicitation closes the form and fails the call clearly', async () => {
  const crashing = new ServerConnection(stdioFixture('hostile-server.ts', [], 'hostile-crash'), options());
  await crashing.start();
  ui.forms = [];
  ui.aborted = 0;
  ui.answer = () => new Promise(() => undefined); // the user is still looking at the form
  try {
    const started = Date.now();
    await assert.rejects(crashing.callTool('crash_in_elicitation', {}), (e: Error) => e instanceof ServerCrashedError && /exit code 7/.test(e.message));
    assert.ok(Date.now() - started < 5000);
    assert.equal(ui.forms.length, 1);
    assert.equal(ui.aborted, 1, 'the open form was told to close');
  } finally {
    await crashing.stop();
  }
});
