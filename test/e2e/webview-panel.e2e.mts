// The webview app alone in Chromium (no workbench: fast): the HTML MCP Host serves, media/webview.js as
// built, a stand-in for VS Code's acquireVsCodeApi that records what the app posts, and host messages
// posted to the page. Checks what a first walk-through tripped on in the tool and question panels.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { openBrowserContext } from '../../scripts/code-server.mjs';
import { appDocument } from '../../src/core/apps/document.js';
import { EMPTY_CSP } from '../../src/core/apps/csp.js';
import { findFileSlots } from '../../src/core/files/slots.js';
import { buildForm } from '../../src/core/forms/index.js';
import type { HostNotification, PanelInit, ResultView } from '../../src/shared/protocol.js';
import { webviewHtml } from '../../src/extension/panels/webviewHtml.js';
import { root } from './workbench.mjs';

const ORIGIN = 'http://webview.test';
const APP_NONCE = 'app-n0nce';
let browser: BrowserContext;

before(async () => {
  browser = await openBrowserContext();
});
after(async () => {
  await browser.close();
});

/**
 * Opens the panel page; the script is served after `scriptDelayMs` (a slow first load); `apps`: it may show MCP Apps;
 * `savedState`: what VS Code hands back as the webview's state (the panel was hidden, or the window reloaded).
 */
async function openPanel(scriptDelayMs = 0, apps = false, savedState?: unknown): Promise<Page> {
  const page = await browser.newPage();
  const html = webviewHtml({
    cspSource: ORIGIN,
    nonce: 'n0nce',
    title: 'panel',
    scriptUri: `${ORIGIN}/media/webview.js`,
    styleUri: `${ORIGIN}/media/webview.css`,
    codiconsUri: `${ORIGIN}/media/none.css`,
    ...(apps ? { app: { nonce: APP_NONCE, csp: EMPTY_CSP }, appBridgeUri: `${ORIGIN}/media/app-bridge.js` } : {}),
  });
  await page.route(`${ORIGIN}/**`, async (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/') return route.fulfill({ contentType: 'text/html', body: html });
    if (path === '/media/webview.js') {
      await new Promise((r) => setTimeout(r, scriptDelayMs));
      return route.fulfill({ contentType: 'text/javascript', body: readFileSync(join(root, 'media/webview.js')) });
    }
    if (path === '/media/app-bridge.js') return route.fulfill({ contentType: 'text/javascript', body: readFileSync(join(root, 'media/app-bridge.js')) });
    if (path === '/media/webview.css') return route.fulfill({ contentType: 'text/css', body: readFileSync(join(root, 'media/webview.css')) });
    return route.fulfill({ status: 404, body: '' });
  });
  // A string, not a function: the test runner's transpiler would add helpers the page does not have.
  await page.addInitScript(`{
    const sent = [];
    let state = ${JSON.stringify(savedState ?? null)} ?? undefined;
    window.sent = sent;
    window.savedState = () => state;
    window.acquireVsCodeApi = () => ({ postMessage: (m) => sent.push(m), getState: () => state, setState: (s) => { state = s; } });
  }`);
  await page.goto(`${ORIGIN}/`, { waitUntil: 'commit' });
  return page;
}

function post(page: Page, message: HostNotification): Promise<void> {
  return page.evaluate(`window.postMessage(${JSON.stringify(message)}, '*')`);
}

function sent(page: Page): Promise<{ type: string; [key: string]: unknown }[]> {
  return page.evaluate('window.sent');
}

/** The app has started (it posts `ready` first). */
async function started(page: Page): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await sent(page).catch(() => [])).some((m) => m.type === 'ready')) {
    if (Date.now() > deadline) throw new Error('the webview app did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const heading = { title: 'Describe a file', server: 'demo' };

function toolInit(overrides: Partial<Extract<PanelInit, { kind: 'tool' }>> = {}): PanelInit {
  const schema = { type: 'object', properties: { file: { type: 'string', format: 'uri', 'x-mcp-file': { accept: ['image/png'], maxSize: 10 } } } };
  const form = buildForm(schema, [{ path: ['file'], multiple: false, accept: ['image/png'], maxSize: 10 }]);
  return { kind: 'tool', heading, form, values: {}, files: {}, results: [], ...overrides };
}

test('the panel says "Loading…" at once, before its script has loaded, and the form replaces it', async () => {
  const page = await openPanel(1500);
  await page.getByRole('status').filter({ hasText: 'Loading…' }).waitFor({ timeout: 1000 });
  await started(page);
  await post(page, { type: 'init', panel: toolInit() });
  await page.getByRole('button', { name: 'Run' }).waitFor();
  assert.equal(await page.getByText('Loading…').count(), 0);
  await page.close();
});

test('a 2 MB tool description shows its first 4 KB and a "Show all" button', async () => {
  const page = await openPanel();
  const description = `${'A long description. '.repeat(100_000)}THE END`;
  await started(page);
  await post(page, { type: 'init', panel: toolInit({ heading: { ...heading, description } }) });
  const shown = page.locator('header .description');
  await shown.waitFor();
  const text = await shown.innerText();
  assert.ok(text.length <= 4100, `${text.length} characters shown`);
  assert.ok(!text.includes('THE END'));
  await page.getByRole('button', { name: 'Show all (2,000,007 characters)' }).click();
  assert.ok((await shown.innerText()).endsWith('THE END'));
  await page.close();
});

test('a result whose structured content breaks the output schema is marked failed in its header, the status line and the announcement', async () => {
  const page = await openPanel();
  await started(page);
  await post(page, { type: 'init', panel: toolInit() });
  const view: ResultView = {
    isError: false,
    items: [{ kind: 'text', text: '{"sum":"x"}' }],
    saves: [],
    warnings: [],
    structured: { status: 'invalid', json: '{"sum":"x"}', errors: ['/sum: must be number'] },
  };
  await post(page, { type: 'callStarted', callId: 'c1' });
  await post(page, { type: 'result', callId: 'c1', view });
  await post(page, { type: 'callEnded', callId: 'c1', outcome: 'done' });
  const article = page.locator('article[data-call-id="c1"]');
  await article.waitFor();
  assert.match((await article.getAttribute('aria-label')) ?? '', /^Result that failed output validation at /);
  assert.match(await article.locator('header').innerText(), /failed output validation/);
  assert.match((await article.getAttribute('class')) ?? '', /result-error/);
  assert.equal(await article.locator('header .codicon-error').count(), 1, 'not the success icon');
  const status = page.locator('.tool-status [role="status"]');
  assert.equal(await status.innerText(), "The result failed the tool's output schema; see Results.");
  assert.match((await status.getAttribute('class')) ?? '', /\berror\b/);
  await page.close();
});

test('a tool panel state saved by the previous version (kind "run") restores as a tool panel: its typed value and results stay after init', async () => {
  const view: ResultView = { isError: false, items: [{ kind: 'text', text: 'described before the reload' }], saves: [], warnings: [] };
  const form = buildForm({ type: 'object', properties: { note: { type: 'string' } } });
  const results = [{ id: 'c-old', at: 1_700_000_000_000, view }];
  const tool: Extract<PanelInit, { kind: 'tool' }> = { kind: 'tool', heading, form, values: { note: 'typed before the reload' }, files: {}, results };
  const page = await openPanel(0, false, { panel: { ...tool, kind: 'run' } });
  await started(page);
  // Shown from the saved state alone, before the host's init.
  await page.locator('body[data-panel="tool"]').waitFor({ timeout: 10_000 });
  await page.getByRole('button', { name: 'Run' }).waitFor();
  assert.equal(await page.getByLabel('note', { exact: true }).inputValue(), 'typed before the reload');
  await page.locator('article[data-call-id="c-old"]').waitFor();
  // The host's init (values from its own state, no results of this page's): the typed value and the result stay.
  await post(page, { type: 'init', panel: { ...tool, values: { note: '' }, results: [] } });
  await page.getByRole('button', { name: 'Run' }).waitFor();
  assert.equal(await page.getByLabel('note', { exact: true }).inputValue(), 'typed before the reload');
  assert.equal(await page.locator('article[data-call-id="c-old"]').count(), 1, 'the result kept before the reload is still shown');
  const saved = (await page.evaluate('window.savedState()')) as { panel: PanelInit };
  assert.equal(saved.panel.kind, 'tool', 'saved again with the new kind');
  await page.close();
});

test('a page the host is about to replace (an app widens its policy) keeps what was typed, takes no more input, and the next page shows it', async () => {
  const form = buildForm({ type: 'object', properties: { url: { type: 'string', default: 'https://example.test/a.pdf' } } });
  const tool: Extract<PanelInit, { kind: 'tool' }> = { kind: 'tool', heading, form, values: { url: 'https://example.test/a.pdf' }, files: {}, results: [] };
  const page = await openPanel();
  await started(page);
  await post(page, { type: 'init', panel: tool });
  const url = page.getByLabel('url', { exact: true });
  await url.fill('/workspace/report.pdf');
  await post(page, { type: 'reloading' });
  await page.waitForFunction('window.sent.some((m) => m.type === "reloadable")', undefined, { timeout: 5_000 });
  const messages = await sent(page);
  const answer = messages.findIndex((m) => m.type === 'reloadable');
  const values = messages.map((m) => m.type).lastIndexOf('valuesChanged');
  assert.ok(values >= 0 && values < answer, 'the typed values reach the host before the page says it may go');
  assert.deepEqual(messages[values]!.values, { url: '/workspace/report.pdf' });
  assert.ok(await url.isDisabled(), 'no more input goes into the page on its way out');
  assert.ok(await page.getByRole('button', { name: 'Run' }).isDisabled());
  const saved = await page.evaluate('window.savedState()');
  await page.close();

  // The next page starts from the saved state; the host's init (its defaults) does not undo what was typed.
  const next = await openPanel(0, false, saved);
  await started(next);
  await post(next, { type: 'init', panel: tool });
  await next.getByRole('button', { name: 'Run' }).waitFor();
  assert.equal(await next.getByLabel('url', { exact: true }).inputValue(), '/workspace/report.pdf');
  assert.ok(await next.getByLabel('url', { exact: true }).isEnabled());
  await next.close();
});

test('a saved state of an unknown panel kind is not restored: the panel waits for the host', async () => {
  const page = await openPanel(0, false, { panel: { ...toolInit(), kind: 'runs' } });
  await started(page);
  assert.equal(await page.getByText('Loading…').count(), 1);
  assert.equal(await page.getByRole('button', { name: 'Run' }).count(), 0);
  await post(page, { type: 'init', panel: toolInit() });
  await page.getByRole('button', { name: 'Run' }).waitFor();
  await page.close();
});

test('a refused file says what Run will send, and the refusal clears when the slot changes', async () => {
  const page = await openPanel();
  await started(page);
  await post(page, { type: 'init', panel: toolInit() });
  const slot = page.getByRole('group', { name: 'file' });
  await post(page, { type: 'fileRefused', field: '/file', reason: 'file: big.png is 20 bytes; the limit is 10 bytes.' });
  const refusal = slot.getByRole('alert').filter({ hasText: 'big.png' });
  await refusal.waitFor();
  assert.equal(await refusal.innerText(), 'file: big.png is 20 bytes; the limit is 10 bytes. Run sends no file for this slot.');
  await slot.getByRole('button', { name: 'From workspace…' }).click();
  await refusal.waitFor({ state: 'hidden' });
  assert.deepEqual(
    (await sent(page)).filter((m) => m.type === 'pickFile').map((m) => m.field),
    ['/file'],
  );

  // With a file still chosen, the refusal says that file is what Run sends.
  await post(page, { type: 'fileSelected', field: '/file', files: [{ name: 'ok.png', size: 8, mediaType: 'image/png', warnings: [] }] });
  await post(page, { type: 'fileRefused', field: '/file', reason: 'file: big.png is 20 bytes; the limit is 10 bytes.' });
  await refusal.waitFor();
  assert.match(await refusal.innerText(), /Run sends the file listed above, not this one\.$/);
  await post(page, { type: 'fileSelected', field: '/file', files: [] });
  await refusal.waitFor({ state: 'hidden' });
  await page.close();
});

test("a panel built from the host's state fills an empty filename companion from its one chosen file, and keeps a name typed there", async () => {
  // (as when a file was chosen just before the panel was hidden: the host got it, the page never did)
  const inputSchema = {
    type: 'object',
    properties: {
      attachment: { type: 'string', format: 'uri', 'x-mcp-file': { maxSize: 65536 } },
      file_name: { type: 'string' },
      note: { type: 'string' },
    },
  };
  const form = buildForm(inputSchema, findFileSlots({ name: 'attach_note', inputSchema }).slots);
  const files = { '/attachment': [{ name: 'notes.txt', size: 175, mediaType: 'text/plain', warnings: [] }] };
  const tool: Extract<PanelInit, { kind: 'tool' }> = { kind: 'tool', heading, form, values: { note: 'half-written' }, files, results: [] };
  const page = await openPanel();
  await started(page);
  await post(page, { type: 'init', panel: tool });
  const fileName = page.getByLabel('file_name', { exact: true });
  await fileName.waitFor();
  assert.equal(await fileName.inputValue(), 'notes.txt');
  assert.equal(await page.getByLabel('note', { exact: true }).inputValue(), 'half-written');
  await post(page, { type: 'init', panel: { ...tool, values: { file_name: 'mine.txt' } } });
  await page.getByLabel('file_name', { exact: true }).waitFor();
  assert.equal(await page.getByLabel('file_name', { exact: true }).inputValue(), 'mine.txt', 'a name of its own stays');
  await page.close();
});

test('an accepted question says "Sending…" (not "Sent.") until the host closes it, and a re-init after a cancelled confirmation unlocks it', async () => {
  const page = await openPanel();
  await started(page);
  const form = buildForm({ type: 'object', properties: { note: { type: 'string' } } });
  const init: PanelInit = {
    kind: 'elicitation',
    mode: 'form',
    heading: { title: 'demo asks', server: 'demo' },
    message: 'Add a note',
    form,
    values: { note: 'hi' },
    files: {},
  };
  await post(page, { type: 'init', panel: init });
  await page.getByRole('button', { name: 'Accept' }).click();
  await page.getByRole('status').filter({ hasText: 'Sending…' }).waitFor();
  assert.equal(await page.getByText('Sent.').count(), 0);
  assert.equal(await page.getByRole('button', { name: 'Accept' }).isDisabled(), true);
  const answers = (await sent(page)).filter((m) => m.type === 'answer');
  assert.deepEqual(answers, [{ type: 'answer', action: 'accept', values: { note: 'hi' } }]);
  // The host asks again with the values kept (the file confirmation was cancelled).
  await post(page, { type: 'init', panel: { ...init, values: { note: 'hi' } } });
  await page.getByRole('button', { name: 'Accept' }).and(page.locator(':enabled')).waitFor();
  assert.equal(await page.getByLabel('note').inputValue(), 'hi');
  await page.close();
});

test('a run while the hidden standby of its app loops: the app starts in a new frame, the looping one goes first', async () => {
  // App frames share one process: a new frame beside a looping one would never run its script.
  const looping = appDocument(
    `<!doctype html><p>Looping.</p><script>
window.addEventListener('message', (e) => { if (e.data && e.data.id === 1 && e.data.result) {
  window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} }, '*');
  setTimeout(() => { for (;;) {} }, 100);
} });
window.parent.postMessage({ jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: { appInfo: { name: 'loop', version: '1' }, appCapabilities: {}, protocolVersion: '2026-01-26' } }, '*');
</script>`,
    EMPTY_CSP,
    APP_NONCE,
  );
  const app = { uri: 'ui://loop/app.html', document: looping, permissionsAsked: [], warnings: [], locale: 'en' };
  const page = await openPanel(0, true);
  await started(page);
  await post(page, { type: 'init', panel: toolInit({ appStandby: app }) });
  await page.locator('section.app.standby iframe').waitFor({ state: 'attached' });
  // The standby initialises, then loops; its missed ping would unload it only after seconds.
  await page.waitForTimeout(1000);
  const standby = await page.locator('section.app.standby').elementHandle();
  assert.ok(standby, 'the standby is still there, looping');
  await post(page, { type: 'callStarted', callId: 'c1' });
  await post(page, { type: 'appShow', app: { ...app, callId: 'c1', toolInput: {} } });
  await page.locator('section.app[data-call-id="c1"][data-app-state="running"]').waitFor({ timeout: 10_000 });
  assert.equal(await standby.evaluate((e) => e.isConnected), false, 'the looping standby went');
  await page.close();
});
