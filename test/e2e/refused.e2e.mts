// What the host refuses or survives, in one window run in turn (see `scenariosInOneWorkbench`): a server that dies
// mid-call (reported, restarted), a file over its slot's limit (the server receives nothing) and a hostile server's
// markup (shown as text, nothing run).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chooseFromWorkspace, fileSlot, newestResult, runToolFromPalette, statusItem } from './steps.mjs';
import { fixtureServer, scenariosInOneWorkbench, type Workbench } from './workbench.mjs';

const record = join(mkdtempSync(join(tmpdir(), 'mcp-host-record-')), 'calls.jsonl');
const servers = {
  files: { type: 'stdio' as const, command: 'node', args: [await fixtureServer('file-server')], env: { FILE_FIXTURE_RECORD: record } },
  hostile: { type: 'stdio' as const, command: 'node', args: [await fixtureServer('hostile-server')] },
  flaky: { type: 'stdio' as const, command: 'node', args: [await fixtureServer('era2025-server')] },
};
/** The status bar's count of configured servers: these and the workspace's demo server. */
const CONFIGURED = Object.keys(servers).length + 1;

async function crashAndRestart(wb: Workbench): Promise<void> {
  let panel = await runToolFromPalette(wb, 'crash', 'flaky');
  await panel.getByRole('button', { name: 'Run' }).click();
  await panel.getByText(/tool "crash" failed: the server exited \(exit code 3\)/).waitFor({ timeout: 30_000 });
  assert.equal(await panel.getByRole('button', { name: 'Run' }).isEnabled(), true, 'the form can run again');

  await statusItem(wb, new RegExp(`^MCP servers: \\d+ running, 1 failed, ${CONFIGURED} configured`)).waitFor();
  // the error notification (toasts stay hidden in this headless window, so it is read in the notification centre)
  await wb.runCommand('Notifications: Show Notifications');
  const notice = wb.page.locator('.notifications-center .notification-list-item', { hasText: 'MCP server "flaky" stopped unexpectedly' });
  await notice.waitFor({ timeout: 15_000 });
  assert.match(await notice.innerText(), /the server exited \(exit code 3\)/);
  await wb.shot('crash-reported');
  await notice.getByRole('button', { name: 'Restart' }).click();

  // the restarted server answers: roots lists the workspace folder
  panel = await runToolFromPalette(wb, 'roots', 'flaky');
  await panel.getByRole('button', { name: 'Run' }).click();
  const result = newestResult(panel);
  await result.filter({ hasText: 'file://' }).waitFor({ timeout: 30_000 });
  await wb.shot('restarted-and-ran');
  assert.match(
    await result.innerText(),
    new RegExp(
      wb.folder
        .split('/')
        .pop()!
        .replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    ),
  );
  // none failed any more
  await statusItem(wb, new RegExp(`^MCP servers: \\d+ running, ${CONFIGURED} configured`)).waitFor();
}

async function fileTooLarge(wb: Workbench): Promise<void> {
  const panel = await runToolFromPalette(wb, 'inspect_image', 'files');
  // The workspace list marks the file over the limit and says what the type filter hides
  await fileSlot(panel, 'image').getByRole('button', { name: 'From workspace…' }).click();
  const title = wb.quickInput.locator('.quick-input-title');
  await title.filter({ hasText: /\d+ files? of other types not listed; Browse… chooses any file/ }).waitFor({ timeout: 15_000 });
  const largeRow = wb.quickPickRowLabelled('large-photo.png').first();
  await largeRow.waitFor({ timeout: 15_000 });
  assert.match(await largeRow.innerText(), /7\d(\.\d)? KiB: over this slot's 64 KiB limit, it would be refused/);
  assert.doesNotMatch(await wb.quickPickRowLabelled('photo.png').first().innerText(), /over this slot/);
  await wb.shot('workspace-list-marks-over-limit');
  await wb.page.keyboard.press('Escape');
  await chooseFromWorkspace(wb, panel, 'image', 'large-photo.png');
  const refusal = fileSlot(panel, 'image').getByRole('alert');
  await refusal.waitFor();
  await wb.shot('refused-in-slot');
  const reason = await refusal.innerText();
  assert.match(reason, /64 KiB|65,?536/, reason);
  assert.match(reason, /Choose another file: this one is required\.$/, 'it says what Run would do');
  assert.equal(await panel.getByRole('list', { name: 'Chosen files for image' }).getByText('large-photo.png').count(), 0);

  // Run with the slot still empty: the form refuses, nothing is sent
  await panel.getByRole('button', { name: 'Run' }).click();
  await wb.page.waitForTimeout(1000);
  await wb.shot('run-refused');
  assert.equal(await wb.page.locator('.monaco-dialog-box').count(), 0, 'no confirmation for a refused file');
  const calls = existsSync(record) ? readFileSync(record, 'utf8').trim() : '';
  assert.equal(calls, '', 'the server received no tools/call');
}

const MARKUP_PARTS = ['<img src=x onerror="alert(1)">', '<script>alert(2)</script>', '[link](javascript:alert(3))'];

async function hostileMarkup(wb: Workbench): Promise<void> {
  const dialogs: string[] = [];
  wb.page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  const panel = await runToolFromPalette(wb, 'onerror', 'hostile');
  const heading = await panel.getByRole('heading').first().innerText();
  for (const part of MARKUP_PARTS.slice(0, 2)) assert.ok(heading.includes(part), `heading shows ${part} literally: ${heading}`);

  await panel.getByRole('button', { name: 'Run' }).click();
  const question = wb.webview();
  const message = question.getByLabel('Message');
  await message.waitFor({ timeout: 30_000 });
  await wb.shot('question-with-markup');
  const text = await message.innerText();
  for (const part of MARKUP_PARTS) assert.ok(text.includes(part), `the message shows ${part} literally: ${text}`);
  // nothing was turned into elements or run
  assert.equal(await question.locator('img, a[href^="javascript:"]').count(), 0);
  const scripts = await question.locator('script').evaluateAll((all) => all.map((s) => s.textContent ?? ''));
  assert.ok(!scripts.some((s) => s.includes('alert(2)')), 'no script element holds the server text');
  await wb.page.waitForTimeout(1000);
  assert.deepEqual(dialogs, []);
  await question.getByRole('button', { name: 'Cancel' }).click();
  await wb.shot('after-cancel');
}

scenariosInOneWorkbench('refused', { servers }, [
  {
    title: 'a server that dies mid-call: the call fails naming the exit, a notification offers Restart, and the restarted server runs tools again',
    scenario: 'crash-restart',
    body: crashAndRestart,
  },
  {
    title: 'a 75 KiB PNG for a 64 KiB slot is marked in the workspace list, refused inside the slot naming the limit, and the server receives nothing',
    scenario: '2-file-too-large',
    body: fileTooLarge,
  },
  {
    title: "a hostile server's markup appears as literal text in the tool panel and its question, and nothing runs",
    scenario: '7-hostile-markup',
    body: hostileMarkup,
  },
]);
