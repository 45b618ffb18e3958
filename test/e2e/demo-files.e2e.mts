// Workspace files into the demo server's tools: chosen from the workspace, through VS Code's file dialog and from the
// Explorer; a 4.5 MiB file attached and sent with no webview message over 8 KB; the session's results kept; and, with
// mcpHost.confirmEveryCall turned on, an image array slot and a file output saved without overwriting.
// One window runs them in turn (see `scenariosInOneWorkbench`).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  acceptSaveDialog,
  answerDialog,
  chooseFromWorkspace,
  chooseManyFromWorkspace,
  describePngFromWorkspace,
  dialog,
  fileSlot,
  newestResult,
  runAndSend,
  runToolFromPalette,
} from './steps.mjs';
import { scenariosInOneWorkbench, type Workbench } from './workbench.mjs';

async function browse(wb: Workbench): Promise<void> {
  const panel = await runToolFromPalette(wb, 'Describe a file');
  await fileSlot(panel, 'File').getByRole('button', { name: 'Browse…' }).click();
  // the simple file dialog is a quick input whose box holds a path
  const input = wb.quickInput.locator('.quick-input-box input');
  await input.waitFor();
  // typed before the dialog has listed its folder, the path is replaced by the folder's
  await wb.quickInput.locator('.monaco-list-row', { hasText: 'report.pdf' }).waitFor({ timeout: 30_000 });
  await wb.shot('file-dialog');
  await input.fill(join(wb.folder, 'report.pdf'));
  await wb.shot('path-typed');
  await wb.page.keyboard.press('Enter');
  await panel.getByRole('list', { name: 'Chosen files for File' }).getByText('report.pdf').waitFor();
  await wb.shot('file-chosen');
  const text = await runAndSend(wb, panel);
  assert.match(text, /Type: application\/pdf/);
  assert.match(text, /597 bytes/);
}

async function explorerMenu(wb: Workbench): Promise<void> {
  await wb.explorerMenu('photo.png', 'Run MCP Tool with This File…');
  // the tools whose slots take a 7 KiB PNG, once the servers have started
  const row = wb.quickPickRow('Describe a file').first();
  await row.waitFor({ timeout: 30_000 });
  await wb.shot('compatible-tools');
  const offered = await wb.quickInput.locator('.monaco-list-row').allInnerTexts();
  assert.ok(
    offered.some((t) => t.includes('Compare images')),
    `offered: ${offered.join(' | ')}`,
  );
  await row.click();
  const panel = wb.webview();
  await panel.getByRole('list', { name: 'Chosen files for File' }).getByText('photo.png').waitFor({ timeout: 30_000 });
  await wb.shot('form-with-file');
  const text = await runAndSend(wb, panel);
  assert.match(text, /64 × 48 pixels/);
}

const FILE_SIZE = Math.round(4.5 * 1024 * 1024);
const MAX_MESSAGE_CHARS = 8 * 1024;

interface Seen {
  toExtension: boolean;
  chars: number;
  kind: string;
}

async function messageSize(wb: Workbench): Promise<void> {
  writeFileSync(join(wb.folder, 'big.bin'), randomBytes(FILE_SIZE));
  const panel = await runToolFromPalette(wb, 'Describe a file');

  // The outer webview frame relays: workbench -> outer over a MessagePort, outer -> inner by postMessage,
  // inner -> outer by a function call, outer -> workbench over the MessagePort. So the webview's messages
  // are recorded where they leave the outer frame, and the extension's where they reach the inner one.
  const outer = await (await wb.page.locator('iframe.webview.ready').filter({ visible: true }).first().elementHandle())?.contentFrame();
  const inner = await (await outer?.$('iframe#active-frame'))?.contentFrame();
  assert.ok(outer && inner, 'the webview frames');
  await outer.evaluate(() => {
    const seen: Seen[] = [];
    (window as unknown as { mcpHostSeen: Seen[] }).mcpHostSeen = seen;
    const post = MessagePort.prototype.postMessage;
    MessagePort.prototype.postMessage = function (this: MessagePort, message: unknown, transfer?: Transferable[]) {
      const channel = typeof message === 'object' && message !== null && 'channel' in message ? String(message.channel) : typeof message;
      seen.push({ toExtension: true, chars: JSON.stringify(message)?.length ?? 0, kind: channel });
      return (post as (m: unknown, t: Transferable[]) => void).call(this, message, transfer ?? []);
    } as typeof post;
  });
  await inner.evaluate(() => {
    const seen: Seen[] = [];
    (window as unknown as { mcpHostSeen: Seen[] }).mcpHostSeen = seen;
    window.addEventListener(
      'message',
      (event) => {
        const data: unknown = event.data;
        const type = typeof data === 'object' && data !== null && 'type' in data ? String(data.type) : typeof data;
        seen.push({ toExtension: false, chars: JSON.stringify(data)?.length ?? 0, kind: type });
      },
      true,
    );
  });

  await chooseFromWorkspace(wb, panel, 'File', 'big.bin');
  await panel.getByRole('list', { name: 'Chosen files for File' }).getByText('big.bin').waitFor();
  await wb.shot('big-file-chosen');
  const text = await runAndSend(wb, panel, { timeoutMs: 60_000 });
  assert.match(text, new RegExp(`${FILE_SIZE} bytes`));

  const read = () => (window as unknown as { mcpHostSeen: Seen[] }).mcpHostSeen;
  const seen = [...(await outer.evaluate(read)), ...(await inner.evaluate(read))];
  writeFileSync(join(wb.artifacts, 'messages.json'), JSON.stringify(seen, null, 1));
  const kinds = (toExtension: boolean) => new Set(seen.filter((m) => m.toExtension === toExtension).map((m) => m.kind));
  assert.ok(kinds(true).has('onmessage'), `the webview's messages were seen (${[...kinds(true)].join(', ')})`);
  assert.ok(kinds(false).has('fileSelected') && kinds(false).has('result'), `the extension's messages were seen (${[...kinds(false)].join(', ')})`);
  const largest = seen.reduce((a, b) => (b.chars > a.chars ? b : a));
  assert.ok(largest.chars < MAX_MESSAGE_CHARS, `largest message: ${largest.chars} chars ('${largest.kind}')`);
}

async function resultsKept(wb: Workbench): Promise<void> {
  await describePngFromWorkspace(wb);
  let panel = wb.webview();
  const results = panel.getByRole('region', { name: 'Results' });
  assert.equal(await results.getAttribute('aria-live'), 'polite');
  assert.match(await panel.getByRole('status').innerText(), /New result/);

  const markdown = newestResult(panel).getByRole('button', { name: 'Markdown' }).first();
  await markdown.click();
  assert.equal(await markdown.getAttribute('aria-pressed'), 'true');
  await wb.shot('markdown-on');

  // another editor hides the webview (its document is dropped), then its tab brings it back
  await wb.explorerItem('notes.txt').click();
  await wb.page.locator('.monaco-editor .view-lines', { hasText: /\w/ }).first().waitFor();
  await wb.shot('panel-hidden');
  const tab = wb.page.locator('.tabs-container .tab', { hasText: 'Describe a file' });
  await tab.click();
  panel = wb.webview();
  await newestResult(panel).waitFor();
  await wb.shot('panel-shown-again');
  assert.equal(await newestResult(panel).getByRole('button', { name: 'Markdown' }).first().getAttribute('aria-pressed'), 'true');

  // closing the panel and opening the tool again shows the session's result
  await tab.click({ button: 'middle' });
  await tab.waitFor({ state: 'detached' });
  await wb.shot('panel-closed');
  panel = await runToolFromPalette(wb, 'Describe a file');
  const kept = newestResult(panel);
  await kept.waitFor();
  await wb.shot('result-kept');
  assert.match(await kept.innerText(), /64 × 48 pixels/);

  // what the user typed and chose, not yet sent, survives the panel being hidden
  panel = await runToolFromPalette(wb, 'Attach a note to a file');
  await chooseFromWorkspace(wb, panel, 'Attachment', 'notes.txt');
  await panel.getByRole('textbox', { name: 'Note' }).fill('half-written note');
  await wb.shot('note-typed');
  await wb.explorerItem('photo.png').click();
  await wb.page.locator('.tabs-container .tab.active', { hasText: 'photo.png' }).waitFor();
  await wb.page.locator('.tabs-container .tab', { hasText: 'Attach a note' }).click();
  panel = wb.webview();
  await panel.getByRole('textbox', { name: 'Note' }).waitFor();
  await wb.shot('note-kept');
  assert.equal(await panel.getByRole('textbox', { name: 'Note' }).inputValue(), 'half-written note');
  assert.equal(await panel.getByRole('textbox', { name: 'File name' }).inputValue(), 'notes.txt', 'the filename companion');
  assert.equal(await panel.getByRole('list', { name: 'Chosen files for Attachment' }).getByText('notes.txt').count(), 1);
}

/** What export_report generates with its defaults (title "Weekly report", 5 rows). */
const REPORT = '# Weekly report\nday,visits,signups\n1,37,7\n2,74,1\n3,10,8\n4,47,2\n5,84,9\n';

async function resultsAndFiles(wb: Workbench): Promise<void> {
  await wb.addUserSettings({ 'mcpHost.confirmEveryCall': true });
  // 1. compare_images: two files into the array slot, one removed (Run refused inline), added back, sent
  let panel = await runToolFromPalette(wb, 'Compare images');
  const chosen = panel.getByRole('list', { name: 'Chosen files for Images' });
  await chooseManyFromWorkspace(wb, panel, 'Images', ['photo.png', 'chart.png']);
  await chosen.getByRole('listitem').filter({ hasText: 'photo.png' }).waitFor();
  await chosen.getByRole('listitem').filter({ hasText: 'chart.png' }).waitFor();
  await wb.shot('two-images-chosen');
  assert.equal(await chosen.getByRole('listitem').count(), 2);

  await chosen.getByRole('button', { name: 'Remove chart.png' }).click();
  await chosen.getByRole('listitem').filter({ hasText: 'chart.png' }).waitFor({ state: 'detached' });
  assert.equal(await chosen.getByRole('listitem').count(), 1);
  await panel.getByRole('button', { name: 'Run' }).click();
  const refusal = fileSlot(panel, 'Images')
    .getByRole('alert')
    .filter({ hasText: /at least 2/ });
  await refusal.waitFor();
  await wb.shot('one-image-run-refused');
  assert.equal(await dialog(wb).count(), 0, 'no confirmation for a refused run');
  assert.equal(await newestResult(panel).count(), 0, 'nothing ran');

  await chooseManyFromWorkspace(wb, panel, 'Images', ['chart.png']);
  await chosen.getByRole('listitem').filter({ hasText: 'chart.png' }).waitFor();
  assert.equal(await chosen.getByRole('listitem').count(), 2);
  await refusal.waitFor({ state: 'hidden' });
  await wb.shot('chart-added-back');
  await panel.getByRole('button', { name: 'Run' }).click();
  const box = dialog(wb);
  await box.waitFor({ timeout: 15_000 });
  const confirmation = await box.innerText();
  assert.match(confirmation, /Send 2 files/);
  assert.match(confirmation, /photo\.png/);
  assert.match(confirmation, /chart\.png/);
  await answerDialog(wb, 'Send');
  const compared = newestResult(panel).filter({ hasText: /images are/ });
  await compared.waitFor({ timeout: 30_000 });
  await wb.shot('compare-result');
  const comparedText = await compared.innerText();
  assert.match(comparedText, /1\. image\/png/);
  assert.match(comparedText, /2\. image\/png/);
  assert.match(comparedText, /All images are different\./);

  // 2. export_report: structured content as a tree, valid; its file output saved twice, never overwritten
  panel = await runToolFromPalette(wb, 'Export a report');
  await panel.getByRole('button', { name: 'Run' }).click();
  await answerDialog(wb, 'Run'); // confirmEveryCall is on
  const report = newestResult(panel);
  await report.filter({ hasText: /Generated Weekly-report\.csv/ }).waitFor({ timeout: 30_000 });
  const structured = report.locator('details.structured');
  const summary = structured.locator('> summary');
  assert.match(await summary.innerText(), /Structured content: matches the output schema/);
  const tree = structured.getByRole('group').first();
  await tree.waitFor();
  assert.match(await structured.innerText(), /filename:\s*"Weekly-report\.csv"/);
  assert.match(await structured.innerText(), /rows:\s*5/);
  await wb.shot('export-result');
  // the tree's nodes collapse: the report object, then the whole section
  const reportNode = tree.getByRole('group').first();
  await reportNode.locator('> summary').click();
  await structured.getByText('"Weekly-report.csv"').waitFor({ state: 'hidden' });
  assert.equal(await reportNode.getAttribute('open'), null);
  await summary.click();
  assert.equal(await structured.getAttribute('open'), null);
  await wb.shot('structured-collapsed');
  await summary.click();
  assert.notEqual(await structured.getAttribute('open'), null);

  // the file output row (the embedded resource offers the same bytes; its button names its content block)
  const fileOutput = report.locator('.file-output');
  assert.match(await fileOutput.innerText(), /Weekly-report\.csv/);
  const save = report.getByRole('button', { name: 'Save Weekly-report.csv (file output) to workspace…' });
  await save.click();
  await acceptSaveDialog(wb, 'Weekly-report.csv');
  const first = join(wb.folder, 'Weekly-report.csv');
  assert.ok(existsSync(first), 'the first save created Weekly-report.csv');
  assert.equal(readFileSync(first, 'utf8'), REPORT);

  await save.click();
  await acceptSaveDialog(wb, 'Weekly-report (1).csv');
  const second = join(wb.folder, 'Weekly-report (1).csv');
  assert.ok(existsSync(second), 'the second save created "Weekly-report (1).csv"');
  assert.equal(readFileSync(second, 'utf8'), REPORT);
  assert.equal(readFileSync(first, 'utf8'), REPORT, 'the first file is untouched');
  assert.deepEqual(
    readdirSync(wb.folder)
      .filter((n) => n.endsWith('.csv'))
      .sort(),
    ['Weekly-report (1).csv', 'Weekly-report.csv'],
  );

  // 3. confirmEveryCall: a tool without file slots asks first; Cancel runs nothing
  panel = await runToolFromPalette(wb, 'Count slowly');
  await panel.getByRole('button', { name: 'Run' }).click();
  await box.waitFor({ timeout: 15_000 });
  const question = await box.innerText();
  assert.match(question, /Run the tool "Count slowly" on "demo"\?/);
  await answerDialog(wb, 'Cancel');
  await wb.shot('count-cancelled-before-running');
  assert.equal(await panel.getByRole('button', { name: 'Run' }).isEnabled(), true);
  assert.equal(await panel.getByRole('progressbar', { name: 'Progress' }).isVisible(), false, 'no call started');
  assert.equal(await newestResult(panel).count(), 0, 'no result');
  assert.equal(await panel.getByRole('status').innerText(), '');
  // Run again: a second question (not "still running") shows the host started no call
  await panel.getByRole('button', { name: 'Run' }).click();
  await box.waitFor({ timeout: 15_000 });
  await answerDialog(wb, 'Cancel');
  assert.equal(await newestResult(panel).count(), 0, 'still no result');
  assert.equal(await wb.page.locator('.notifications-toasts', { hasText: 'still running' }).count(), 0);
}

scenariosInOneWorkbench('demo-files', {}, [
  {
    title: 'describe_file run from the palette on a workspace PNG shows its type, size and dimensions',
    scenario: '1-run-tool-from-palette',
    body: describePngFromWorkspace,
  },
  { title: 'Browse… picks a file through VS Code’s file dialog and describe_file reports a PDF', scenario: '3-browse', body: browse },
  {
    title: 'the Explorer menu "Run MCP Tool with This File…" opens describe_file with the file already chosen',
    scenario: '4-explorer-menu',
    body: explorerMenu,
  },
  {
    title: 'no message to or from the webview carries more than 8 KB while a 4.5 MiB file is attached and sent',
    scenario: 'message-size',
    body: messageSize,
  },
  {
    title: 'a result is announced, its Markdown view and a half-filled form survive hiding the panel, and reopening the tool shows the result again',
    scenario: 'results-kept',
    body: resultsKept,
  },
  {
    title: 'results and files: an image array slot, a file output saved without overwriting, and confirmEveryCall',
    scenario: 'results-files',
    body: resultsAndFiles,
  },
]);
