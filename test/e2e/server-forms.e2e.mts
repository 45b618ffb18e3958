// Forms fed by the server and files sent out of band, in one window run in turn (see `scenariosInOneWorkbench`).
//
// The server's suggestions in the webview form, typed by a person: server-everything's prompt with completable
// arguments (the first argument's value goes as context for the second), a resource template chosen in the MCP
// view (its variable completed, then the resource read and opened in an editor), and a server that answers
// with 10,000 suggestions (the first 100 are offered, with a note saying so).
//
// URL-mode elicitation (consent before anything opens), a SEP-1306 upload from the elicitation panel
// (Cancel in its file confirmation returns to the question, files kept), an answered panel that stays
// locked ("Sending…") when hidden and shown again, and a double click on
// "From workspace…" that opens one picker.
//
// SEP-2631 in the real workbench: a large workspace file attached to an upload-only slot is authorized first, so
// the confirmation names the store's host (refusing it sends nothing); then it goes to a real object store
// (s3rver) with a progress notification; Cancel stops it (the tool is not called), sending again works and
// the tool reads the bytes back; a file output is saved from the result view and its bytes match its digest, and
// opened without saving (a verified copy in the window's own temporary folder); a file embedded as a resource
// (FileResourceContents) is saved and verified the same way.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { freePort } from '../../scripts/code-server.mjs';
import {
  acceptSaveDialog,
  answerDialog,
  chooseFromWorkspace,
  collapseTreeItems,
  dialog,
  fileSlot,
  newestResult,
  openQuickPick,
  runToolFromPalette,
} from './steps.mjs';
import { fixtureServer, root, scenariosInOneWorkbench, type Workbench } from './workbench.mjs';

const everythingEntry = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

/** The suggestions a field offers: the values of its datalist's options. */
async function suggestions(field: Locator): Promise<string[]> {
  return field.evaluate((el) => {
    const list = (el as HTMLInputElement).list;
    return list ? Array.from(list.options).map((o) => o.value) : [];
  });
}

/** Types into a field key by key and waits until its suggestions are `expected` (debounced, latest answer wins). */
async function typeAndWaitFor(wb: Workbench, field: Locator, text: string, expected: (values: string[]) => boolean, what: string): Promise<string[]> {
  await field.click();
  await field.pressSequentially(text, { delay: 60 });
  for (const deadline = Date.now() + 20_000; ;) {
    const values = await suggestions(field);
    if (expected(values)) return values;
    assert.ok(Date.now() < deadline, `${what}: the suggestions are ${JSON.stringify(values.slice(0, 5))}…`);
    await wb.page.waitForTimeout(100);
  }
}

const same = (expected: string[]) => (values: string[]) => JSON.stringify(values) === JSON.stringify(expected);

/** A text field that offers suggestions (an input with a datalist is a combobox). */
function textbox(panel: FrameLocator, name: string): Locator {
  return panel.getByRole('combobox', { name: new RegExp(`^${name}`) });
}

const URL_TOOL = 'Trigger URL Elicitation Tool';

/** The tool's result in its panel (brought to the front by its tab) that matches `pattern`. */
async function toolResult(wb: Workbench, tool: string, server: string, pattern: RegExp): Promise<string> {
  await wb.page
    .locator('.tabs-container .tab', { hasText: `${tool} (${server})` })
    .first()
    .click();
  const result = newestResult(wb.webview()).filter({ hasText: pattern });
  await result.waitFor({ timeout: 30_000 });
  return result.innerText();
}

/** The URL a click on "Open in browser" opened: a new browser page, possibly after VS Code's own prompt. */
async function openedUrl(wb: Workbench, popups: Page[], click: () => Promise<void>): Promise<string> {
  const before = popups.length;
  const prompt = dialog(wb);
  const newPage = wb.browser.waitForEvent('page', { timeout: 20_000 }).then(
    () => 'page' as const,
    () => 'none' as const,
  );
  await click();
  const first = await Promise.race([
    newPage,
    prompt.waitFor({ timeout: 20_000 }).then(
      () => 'prompt' as const,
      () => 'none' as const,
    ),
  ]);
  if (first === 'prompt' && popups.length === before) {
    await wb.shot('open-external-prompt');
    const again = wb.browser.waitForEvent('page', { timeout: 20_000 });
    await prompt.getByRole('button', { name: /^Open/ }).first().click();
    await again;
  } else {
    assert.equal(await newPage, 'page', 'a page was opened');
  }
  const popup = popups[popups.length - 1]!;
  await popup.waitForURL((u) => u.href !== 'about:blank', { timeout: 20_000 }).catch(() => undefined);
  return popup.url();
}

/** Starts a fixture with tsx and waits for its "listening <port>" line (the first port it names). */
async function start(file: string, args: string[]): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'test/fixtures', file), ...args], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`${file} did not start: ${seen}`)), 30_000);
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      seen += chunk;
      const m = /listening (\d+)/.exec(seen);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${file} exited with ${code}: ${seen}`));
    });
  });
  return { child, port };
}

/** The files opened without saving: each in a `mcp-host-opened-*` folder of the temporary directory. */
function openedCopies(): string[] {
  return readdirSync(tmpdir())
    .filter((d) => d.startsWith('mcp-host-opened-'))
    .flatMap((d) => readdirSync(join(tmpdir(), d)).map((f) => join(tmpdir(), d, f)));
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve();
      return;
    }
    child.once('exit', () => resolve());
    child.kill('SIGCONT');
    child.kill('SIGTERM');
  });
}

// test/fixtures/upload-server.ts: its MCP endpoint is `${origin}/mcp`
const uploadServer = await start('upload-server.ts', []);
const upload = { child: uploadServer.child, origin: `http://127.0.0.1:${uploadServer.port}` };
after(() => stop(upload.child));
const store = await start('object-store.ts', []);
const transfer = await start('transfer-server.ts', ['--http', '--store', `http://127.0.0.1:${store.port}`]);
after(async () => {
  await stop(transfer.child);
  await stop(store.child);
});
const servers = {
  everything: { type: 'stdio' as const, command: 'node', args: [everythingEntry, 'stdio'] },
  paged: { type: 'stdio' as const, command: 'node', args: [await fixtureServer('paged-server')] },
  uploader: { type: 'http' as const, url: `${upload.origin}/mcp` },
  transfer: { type: 'http' as const, url: `http://127.0.0.1:${transfer.port}/mcp` },
};

async function completions(wb: Workbench): Promise<void> {
  // ── a prompt with completable arguments, from the palette ──
  const teamRow = wb.quickPickRow('Team Management').first();
  await openQuickPick(wb, 'MCP: Get Prompt…', 'MCP: Get Prompt', 'Team Management', teamRow, { beforeClick: () => wb.shot('prompt-quick-pick') });
  let panel = wb.webview();
  await panel.getByRole('button', { name: 'Run' }).waitFor({ timeout: 30_000 });
  const department = textbox(panel, 'department');
  // Focusing the field asks with "" (all four departments); the answer for "S" replaces it.
  await typeAndWaitFor(wb, department, 'S', same(['Sales', 'Support']), 'department "S"');
  await wb.shot('department-suggested');
  await department.fill('Sales');
  // The department goes as context: the server suggests that team's members.
  const name = textbox(panel, 'name');
  await typeAndWaitFor(wb, name, 'E', same(['Eve']), 'name "E" in Sales');
  await wb.shot('name-suggested-from-context');
  await name.fill('Eve');
  await panel.getByRole('button', { name: 'Run' }).click();
  await newestResult(panel).filter({ hasText: 'Please promote Eve to the head of the Sales team.' }).waitFor({ timeout: 30_000 });
  await wb.shot('prompt-result');

  // ── a resource template chosen in the MCP view: its variable completed, then read and opened ──
  await wb.page.locator('.activitybar [aria-label^="MCP"]').first().click();
  const tree = wb.page.getByRole('tree', { name: 'Servers' });
  await tree.getByRole('treeitem', { name: /^everything, running$/ }).waitFor({ timeout: 30_000 });
  // The tree shows only what is in view: fold away the other servers (paged has a thousand tools) and everything's other groups.
  await collapseTreeItems(tree, [/^paged, /, /^demo, /, /^uploader, /, /^transfer, /]);
  await collapseTreeItems(tree, [/^Tools/, /^Prompts/, /^Resources/]);
  await tree.getByText('Dynamic Text Resource', { exact: true }).click();
  panel = wb.webview();
  await panel.getByRole('button', { name: 'Run' }).waitFor({ timeout: 30_000 });
  const resourceId = textbox(panel, 'resourceId');
  await typeAndWaitFor(wb, resourceId, '7', same(['7']), 'resourceId "7"');
  await wb.shot('template-variable-suggested');
  await panel.getByRole('button', { name: 'Run' }).click();
  // (the editor draws spaces as no-break spaces: \s matches both)
  const editor = wb.page.locator('.editor-instance .view-lines', { hasText: /Resource\s7:\sThis\sis\sa\splaintext\sresource/ });
  await editor.waitFor({ timeout: 30_000 });
  await wb.page.locator('.tabs-container .tab.active', { hasText: '7' }).waitFor({ timeout: 10_000 });
  await wb.shot('template-resource-opened');

  // ── a server that answers with 10,000 suggestions: the first 100 are offered ──
  const manyRow = wb.quickPickRowLabelled('many').first();
  await openQuickPick(wb, 'MCP: Get Prompt…', 'MCP: Get Prompt', 'many', manyRow, { beforeClick: () => wb.shot('many-quick-pick') });
  panel = wb.webview();
  await panel.getByRole('button', { name: 'Run' }).waitFor({ timeout: 30_000 });
  const word = textbox(panel, 'word');
  const offered = await typeAndWaitFor(wb, word, 'w', (v) => v[0]?.startsWith('w') === true, 'word "w"');
  assert.equal(offered.length, 100);
  assert.equal(offered[0], 'w0 {}');
  assert.equal(offered[99], 'w99 {}');
  await panel.locator('.suggestion-note', { hasText: 'the server sent 10000 suggestions; the first 100 are shown' }).waitFor({ timeout: 10_000 });
  await wb.shot('hundred-suggestions');
}

async function elicitationExtras(wb: Workbench): Promise<void> {
  const unused = await freePort();
  const target = `http://127.0.0.1:${unused}/done`;
  const popups: Page[] = [];
  wb.browser.on('page', (p) => popups.push(p));

  // 1. URL mode: the panel names the server, shows the full URL with its domain highlighted
  let panel = await runToolFromPalette(wb, URL_TOOL, 'everything');
  await panel.getByRole('textbox', { name: 'url', exact: true }).fill(target);
  await wb.shot('url-tool-filled');
  await panel.getByRole('button', { name: 'Run' }).click();
  let question = wb.webview();
  const open = question.getByRole('button', { name: 'Open in browser' });
  await open.waitFor({ timeout: 30_000 });
  assert.equal(await question.getByRole('heading', { level: 1 }).innerText(), 'everything asks you to open a link');
  assert.match(await question.locator('header .server').innerText(), /everything/);
  assert.equal(await question.locator('code.url').innerText(), target);
  assert.equal(await question.locator('code.url strong.domain').innerText(), '127.0.0.1');
  assert.equal(await question.getByLabel('Domain').innerText(), '127.0.0.1');
  await wb.shot('url-consent');
  assert.equal(popups.length, 0, 'nothing is opened before consent');
  assert.equal(wb.browser.pages().length, 1);

  const opened = await openedUrl(wb, popups, () => open.click());
  console.log(`Open in browser opened ${opened}`);
  assert.equal(popups.length, 1, 'one page was opened');
  // code-server forwards a loopback address through its own port proxy (VS Code's tunnel for
  // localhost links): http://127.0.0.1:<port>/done is opened as <code-server>/proxy/<port>/done.
  assert.equal(opened, `${wb.server.url}/proxy/${unused}/done`, 'the opened page is the URL the server sent');
  await popups[0]!.screenshot({ path: join(wb.artifacts, 'url-opened-popup.png') });
  await popups[0]!.close();
  const accepted = await toolResult(wb, URL_TOOL, 'everything', /User completed the URL elicitation/);
  assert.ok(accepted.includes(`URL: ${target}`), accepted);
  await wb.shot('url-accepted-result');

  // ...and a decline is reported as declined, with nothing opened
  panel = wb.webview();
  await panel.getByRole('button', { name: 'Run' }).click();
  question = wb.webview();
  await question.getByRole('button', { name: 'Decline' }).waitFor({ timeout: 30_000 });
  await wb.shot('url-consent-again');
  await question.getByRole('button', { name: 'Decline' }).click();
  await toolResult(wb, URL_TOOL, 'everything', /User declined to open the URL/);
  await wb.shot('url-declined-result');
  assert.equal(popups.length, 1, 'a decline opens nothing');

  // 2 + 4. SEP-1306 upload; a double click on "From workspace…" opens one picker
  panel = await runToolFromPalette(wb, 'upload', 'uploader');
  await panel.getByRole('combobox', { name: 'target' }).selectOption('same');
  await panel.getByRole('button', { name: 'Run' }).click();
  question = wb.webview();
  await question.getByLabel('Message').filter({ hasText: 'Upload the document to analyse' }).waitFor({ timeout: 30_000 });
  await wb.shot('upload-question');
  await fileSlot(question, 'Document').getByRole('button', { name: 'From workspace…' }).dblclick();
  const input = wb.quickInput.locator('.quick-input-box input');
  await input.waitFor();
  assert.equal(await wb.page.locator('.quick-input-widget').filter({ visible: true }).count(), 1, 'one quick input');
  await input.fill('notes.txt');
  const row = wb.quickPickRowLabelled('notes.txt');
  await row.first().waitFor({ timeout: 15_000 });
  assert.equal(await row.count(), 1, 'the picker lists notes.txt once');
  await wb.shot('one-picker-after-double-click');
  await row.first().click();
  const chosen = question.getByRole('list', { name: 'Chosen files for Document' });
  await chosen.getByText('notes.txt').waitFor();
  await wb.quickInput.waitFor({ state: 'hidden' });
  assert.equal(await chosen.getByRole('listitem').count(), 1, 'the slot holds the file once');
  await wb.shot('file-chosen-once');
  // no second picker follows the first
  assert.equal(await wb.page.locator('.quick-input-widget').filter({ visible: true }).count(), 0);

  await question.getByRole('button', { name: 'Accept' }).click();
  const box = dialog(wb);
  await box.waitFor({ timeout: 15_000 });
  assert.match(await box.innerText(), /notes\.txt/);
  assert.equal(await question.getByRole('status').filter({ hasText: 'Sending…' }).count(), 1, 'not "Sent." while the confirmation is open');
  // Cancel in the confirmation returns to the question, the file still chosen; the server is not answered
  await answerDialog(wb, 'Cancel');
  question = wb.webview();
  await question.getByRole('list', { name: 'Chosen files for Document' }).getByText('notes.txt').waitFor({ timeout: 15_000 });
  await wb.shot('back-to-question-after-cancel');
  await question.getByRole('button', { name: 'Accept' }).click();
  await box.waitFor({ timeout: 15_000 });
  // the server is paused while the upload runs, so the answered panel stays open
  process.kill(upload.child.pid!, 'SIGSTOP');
  try {
    await answerDialog(wb, 'Send');
    const progress = question.getByRole('progressbar', { name: 'Upload of Document' });
    await progress.waitFor({ timeout: 15_000 });
    await wb.shot('upload-progress');

    // 3. the answered panel stays locked when hidden and shown again
    const buttons = ['Accept', 'Decline', 'Cancel'].map((name) => question.getByRole('button', { name, exact: true }));
    for (const b of buttons) assert.equal(await b.isDisabled(), true);
    await wb.explorerItem('notes.txt').click();
    await wb.page.locator('.monaco-editor .view-lines', { hasText: /\w/ }).first().waitFor();
    await wb.shot('answered-panel-hidden');
    await wb.page.locator('.tabs-container .tab', { hasText: 'uploader asks' }).click();
    question = wb.webview();
    await question.getByRole('status').filter({ hasText: 'Sending…' }).waitFor({ timeout: 15_000 });
    await wb.shot('answered-panel-shown-again');
    for (const name of ['Accept', 'Decline', 'Cancel']) {
      assert.equal(await question.getByRole('button', { name, exact: true }).isDisabled(), true, `${name} stays disabled`);
    }
    // the whole form is locked, not only its answer buttons
    const slot = fileSlot(question, 'Document');
    assert.equal(await slot.getByRole('button', { name: 'From workspace…' }).isDisabled(), true);
    assert.equal(await slot.getByRole('button', { name: 'Browse…' }).isDisabled(), true);
  } finally {
    process.kill(upload.child.pid!, 'SIGCONT');
  }
  await wb.page.locator('.tabs-container .tab', { hasText: 'uploader asks' }).waitFor({ state: 'detached', timeout: 30_000 });
  const uploaded = await toolResult(wb, 'upload', 'uploader', /notes\.txt/);
  await wb.shot('upload-result');
  assert.match(uploaded, /"action":\s*"accept"/);
  assert.match(uploaded, /"name":\s*"notes\.txt"/);
  assert.match(uploaded, /"size":\s*175\b/);
  assert.match(uploaded, /"filename":\s*"notes\.txt"/);
}

async function fileTransfer(wb: Workbench): Promise<void> {
  const size = 48 * 1024 * 1024;
  const bytes = randomBytes(size);
  writeFileSync(join(wb.folder, 'recording.bin'), bytes);
  const sha256 = createHash('sha256').update(bytes).digest('base64url');

  // 1. an upload-only slot, a 48 MiB file: the confirmation comes after the authorization and names where the
  // bytes go (random bytes may sniff as any type); Cancel there sends nothing
  const panel = await runToolFromPalette(wb, 'inspect_upload', 'transfer');
  await chooseFromWorkspace(wb, panel, 'doc', 'recording.bin');
  await panel.getByRole('list', { name: 'Chosen files for doc' }).getByText('recording.bin').waitFor();
  const storeHost = `127.0.0.1:${store.port}`;
  const uploadedTo = new RegExp(`doc: recording\\.bin \\(48 MiB, [^,()]+, uploaded to ${storeHost.replace(/\./g, '\\.')}\\)`);
  await panel.getByRole('button', { name: 'Run' }).click();
  await dialog(wb).waitFor({ timeout: 30_000 });
  assert.match(await dialog(wb).innerText(), uploadedTo);
  await answerDialog(wb, 'Cancel');
  await panel.getByRole('status').filter({ hasText: 'Cancelled' }).waitFor({ timeout: 30_000 });
  assert.equal(await newestResult(panel).count(), 0, 'the tool was not called');

  // then Send, with the store paused so the progress notification stays; Cancel in the notification
  await panel.getByRole('button', { name: 'Run' }).click();
  process.kill(store.child.pid!, 'SIGSTOP');
  // toasts stay hidden in this headless window: the notification is read in the notification centre
  const toast = wb.page.locator('.notifications-center .notification-list-item', { hasText: 'Uploading recording.bin' });
  try {
    await dialog(wb).waitFor({ timeout: 30_000 });
    assert.match(await dialog(wb).innerText(), uploadedTo);
    await answerDialog(wb, 'Send');
    await wb.runCommand('Notifications: Show Notifications');
    // it says "starting" until the first bytes are on their way
    await toast.filter({ hasText: /of 48 MiB/ }).waitFor({ timeout: 30_000 });
    await wb.shot('upload-progress');
    await toast.getByRole('button', { name: 'Cancel' }).click();
    await panel.getByRole('status').filter({ hasText: 'Cancelled' }).waitFor({ timeout: 30_000 });
    await wb.shot('upload-cancelled');
  } finally {
    process.kill(store.child.pid!, 'SIGCONT');
  }
  assert.equal(await newestResult(panel).count(), 0, 'the tool was not called');

  // 2. sent again: the tool reads the object back from the store
  await panel.getByRole('button', { name: 'Run' }).click();
  await answerDialog(wb, 'Send');
  const result = newestResult(panel).filter({ hasText: /"via"/ });
  await result.waitFor({ timeout: 120_000 });
  await wb.shot('upload-result');
  const text = await result.innerText();
  assert.match(text, /"via":\s*"upload"/);
  assert.match(text, new RegExp(`"size":\\s*${size}\\b`));
  assert.match(text, new RegExp(`"sha256":\\s*"${sha256}"`));

  // 3. a file output: listed with its name, size, type and digest; Save… downloads, verifies, saves
  const maker = await runToolFromPalette(wb, 'make_file', 'transfer');
  await maker.getByRole('button', { name: 'Run' }).click();
  const made = newestResult(maker).filter({ hasText: 'made report.bin' });
  await made.waitFor({ timeout: 30_000 });
  const item = made.locator('.file-output').filter({ hasText: 'report.bin' });
  assert.match(await item.innerText(), /report\.bin · 1 MiB · application\/octet-stream · sha-256 given/);
  assert.equal(await made.locator('.file-output').count(), 1, 'the content block and its structured copy are one item');
  // the digest sits one level deeper than the tree opens by itself
  await made
    .locator('details.structured summary')
    .filter({ hasText: /^\{2\}$/ })
    .click();
  await wb.shot('file-output');
  const digest = /value:\s*"([A-Za-z0-9_-]{43})"/.exec(await made.innerText())?.[1];
  assert.ok(digest, 'the structured content shows the digest');
  await item.getByRole('button', { name: /Save report\.bin/ }).click();
  await acceptSaveDialog(wb, 'report.bin');
  const saved = readFileSync(join(wb.folder, 'report.bin'));
  assert.equal(saved.length, 1024 * 1024);
  assert.equal(createHash('sha256').update(saved).digest('base64url'), digest);

  // 4. Open, without saving first: verified into the window's own temporary folder and shown in an editor
  const openedBefore = openedCopies();
  await item.getByRole('button', { name: /Open report\.bin/ }).click();
  await wb.page.locator('.tabs-container .tab', { hasText: 'report.bin' }).first().waitFor({ timeout: 30_000 });
  await wb.shot('file-output-opened');
  const opened = openedCopies().filter((p) => !openedBefore.includes(p));
  assert.equal(opened.length, 1, `one copy opened: ${opened.join(', ')}`);
  assert.equal(createHash('sha256').update(readFileSync(opened[0]!)).digest('base64url'), digest);

  // 5. a file embedded in the result as a resource (a FileResourceContents in a `resource` block): offered
  // like a file output, saved after the same checks
  const embedder = await runToolFromPalette(wb, 'make_resource_file', 'transfer');
  await embedder.getByLabel('name').fill('ledger.bin');
  await embedder.getByRole('button', { name: 'Run' }).click();
  const embedded = newestResult(embedder).filter({ hasText: 'made ledger.bin as a resource' });
  await embedded.waitFor({ timeout: 30_000 });
  const ledger = embedded.locator('.file-output').filter({ hasText: 'ledger.bin' });
  assert.match(await ledger.innerText(), /ledger\.bin · 1 MiB · application\/octet-stream · sha-256 given/);
  await wb.shot('embedded-file-output');
  const ledgerDigest = /sha-256 ([A-Za-z0-9_-]{43})\)/.exec(await embedded.innerText())?.[1];
  assert.ok(ledgerDigest, 'the server said the digest');
  await ledger.getByRole('button', { name: /Save ledger\.bin/ }).click();
  await acceptSaveDialog(wb, 'ledger.bin');
  const ledgerSaved = readFileSync(join(wb.folder, 'ledger.bin'));
  assert.equal(ledgerSaved.length, 1024 * 1024);
  assert.equal(createHash('sha256').update(ledgerSaved).digest('base64url'), ledgerDigest);
}

scenariosInOneWorkbench('server-forms', { servers }, [
  {
    title: "completions: a prompt's arguments and a template's variable are suggested as the user types; 10,000 suggestions show 100",
    scenario: 'completions',
    body: completions,
  },
  {
    title:
      'elicitation extras: URL consent opens only on accept; a SEP-1306 upload shows progress; an answered panel stays locked; a double click opens one picker',
    scenario: 'elicitation-extras',
    body: elicitationExtras,
  },
  {
    title: 'file transfer: a large file uploaded with progress, cancelled once, sent again; a file output saved and verified',
    scenario: 'file-transfer',
    body: fileTransfer,
  },
]);
