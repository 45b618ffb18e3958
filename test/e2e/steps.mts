// Steps a user takes in the workbench, shared by the scenarios (and by the packaged-.vsix test).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, type ParseError } from 'jsonc-parser';
import type { FrameLocator, Locator } from 'playwright-core';
import type { Workbench } from './workbench.mjs';

/**
 * Runs a palette command that opens the quick pick titled `title` (or one without a title), types `filter` into it (its list can be
 * longer than it shows) and waits for `row` (servers start on demand). A quick pick closes when focus moves
 * away, as when a panel that just closed hands focus to the next editor a moment later: one that closed
 * before its row came (or, with `choose`, before its row was clicked) is opened again.
 */
export async function openQuickPick(
  wb: Workbench,
  command: string,
  title: string | undefined,
  filter: string,
  row: Locator,
  choose?: { beforeClick?: () => Promise<unknown> },
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await wb.runCommand(command);
    try {
      // (after an app's flood of messages the renderer can take a while to show it)
      if (title) await wb.quickInput.locator('.quick-input-title', { hasText: title }).waitFor({ timeout: 30_000 });
      // (the command's own quick pick comes after a round trip to the extension host, slow on a busy machine)
      await wb.quickInput.locator('.quick-input-box input').fill(filter, { timeout: 30_000 });
      await row.waitFor({ timeout: 30_000 });
      if (choose) {
        await choose.beforeClick?.();
        // it can still close between its row appearing and the click
        try {
          await row.click({ timeout: 10_000 });
        } catch (e) {
          // the row is still there and active, but a busy renderer kept the click from landing: Enter picks it
          const active =
            (await wb.quickInput.isVisible()) &&
            (await row.evaluate((el) => el.classList.contains('focused'), undefined, { timeout: 5_000 }).catch(() => false));
          if (!active) throw e;
          await wb.page.keyboard.press('Enter');
        }
      }
      return;
    } catch (e) {
      if (attempt >= 3 || (await wb.quickInput.isVisible())) throw e;
    }
  }
}

/**
 * Clicks a button that closes its own frame (an app's answer closes the question it was shown in), and waits until the
 * frame has gone: Playwright has waited without end for the acknowledgement of such a click, from the frame that
 * went away with it, so the click itself is not waited on.
 */
export async function clickClosingItsFrame(button: Locator): Promise<void> {
  await button.waitFor({ timeout: 30_000 });
  void button.click({ timeout: 30_000 }).catch(() => {});
  await button.waitFor({ state: 'detached', timeout: 30_000 });
}

/**
 * Opens a row of a tree until `child` shows: a click toggles the row, and a refresh of the tree (its source file
 * saved) can draw it folded again, so the row is clicked only while it is folded.
 */
export async function expandTreeItem(row: Locator, child: Locator, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  await row.waitFor({ timeout: timeoutMs });
  while (!(await child.isVisible())) {
    if (Date.now() > end) throw new Error(`${String(child)} did not show under ${String(row)} within ${timeoutMs} ms`);
    if ((await row.getAttribute('aria-expanded')) !== 'true') await row.click();
    await child.waitFor({ timeout: 2_000 }).catch(() => {});
  }
}

/** Folds each row of `tree` named by `names` that is shown, alone of its name, and expanded. */
export async function collapseTreeItems(tree: Locator, names: ReadonlyArray<string | RegExp>): Promise<void> {
  for (const name of names) {
    const row = tree.getByRole('treeitem', { name });
    if ((await row.count()) === 1 && (await row.getAttribute('aria-expanded')) === 'true') await row.click();
  }
}

/** Runs a palette command that opens a quick pick and chooses its row containing `text` (see `openQuickPick`). */
export async function chooseFromPalette(wb: Workbench, command: string, text: string): Promise<void> {
  await openQuickPick(wb, command, undefined, text, wb.quickPickRow(text).first(), {});
}

/**
 * Does `action`, which replaces the visible webview panel with a new one (Run Again disposes the tool's open panel
 * and opens it filled), and returns the new panel once the old one's frame is gone: the old one may show the same
 * form, and a click on it would be lost with it.
 */
export async function inReplacedPanel(wb: Workbench, action: () => Promise<void>): Promise<FrameLocator> {
  const old = await wb.page.locator('iframe.webview.ready').filter({ visible: true }).first().elementHandle({ timeout: 15_000 });
  await action();
  await old.waitForElementState('hidden', { timeout: 30_000 });
  return wb.webview();
}

/** MCP: Run Tool… from the palette, then the tool's row. */
export async function runToolFromPalette(wb: Workbench, toolTitle: string, server = 'demo'): Promise<FrameLocator> {
  const row = wb.quickPickRow(toolTitle).filter({ hasText: server }).first();
  await openQuickPick(wb, 'MCP: Run Tool…', 'MCP: Run Tool', toolTitle, row, { beforeClick: () => wb.shot('run-tool-quick-pick') });
  const panel = wb.webview();
  await panel.getByRole('button', { name: 'Run' }).waitFor({ timeout: 30_000 });
  // a click on the wrong row would open another tool's form
  await panel.getByRole('heading', { level: 1, name: toolTitle }).waitFor({ timeout: 10_000 });
  await wb.shot('tool-form');
  return panel;
}

/** A file slot's "From workspace…" button, then the file in the workspace quick pick. */
export async function chooseFromWorkspace(wb: Workbench, panel: FrameLocator, slotLabel: string, fileName: string): Promise<void> {
  await fileSlot(panel, slotLabel).getByRole('button', { name: 'From workspace…' }).click();
  const input = wb.quickInput.locator('.quick-input-box input');
  await input.waitFor();
  await input.fill(fileName);
  const row = wb.quickPickRowLabelled(fileName).first();
  await row.waitFor({ timeout: 15_000 });
  await wb.shot(`workspace-files-${fileName}`);
  await row.click();
}

/**
 * A multi-file slot's "From workspace…" button, then each file ticked in the workspace quick pick
 * (it allows several: the filter changes between files, the ticks stay), then OK.
 */
export async function chooseManyFromWorkspace(wb: Workbench, panel: FrameLocator, slotLabel: string, fileNames: string[]): Promise<void> {
  await fileSlot(panel, slotLabel).getByRole('button', { name: 'From workspace…' }).click();
  const input = wb.quickInput.locator('.quick-input-box input');
  await input.waitFor();
  for (const fileName of fileNames) {
    await input.fill(fileName);
    const row = wb.quickPickRowLabelled(fileName).first();
    await row.waitFor({ timeout: 15_000 });
    await row.click();
    await row.and(wb.page.locator('[aria-checked="true"]')).waitFor();
  }
  await wb.shot(`workspace-files-${fileNames.join('+')}`);
  await wb.quickInput.getByRole('button', { name: 'OK' }).click();
  await wb.quickInput.waitFor({ state: 'hidden' });
}

/** Answers the demo's receipt question: photo.png from the workspace, the merchant and the total. */
export async function fillReceiptAnswer(wb: Workbench, question: FrameLocator): Promise<void> {
  await chooseFromWorkspace(wb, question, 'Receipt photo', 'photo.png');
  await question.getByRole('list', { name: 'Chosen files for Receipt photo' }).getByText('photo.png').waitFor();
  await question.getByRole('textbox', { name: 'Merchant' }).fill('Corner Café');
  await question
    .getByRole('spinbutton', { name: 'Total' })
    .or(question.getByRole('textbox', { name: 'Total' }))
    .fill('12.5');
}

/** The MCP status bar item, by its accessible name ("MCP servers: 1 running, 2 configured"). */
export function statusItem(wb: Workbench, name: string | RegExp): Locator {
  return wb.page.locator('.part.statusbar').getByRole('button', { name });
}

/** The group of a file slot in the form, by its label. */
export function fileSlot(panel: FrameLocator, label: string): Locator {
  return panel.getByRole('group', { name: label });
}

/** The modal confirmation VS Code shows before files are sent. */
export function dialog(wb: Workbench): Locator {
  return wb.page.locator('.monaco-dialog-box');
}

export async function answerDialog(wb: Workbench, button: string): Promise<void> {
  const box = dialog(wb);
  await box.waitFor({ timeout: 15_000 });
  await wb.shot('confirmation');
  await box.getByRole('button', { name: button, exact: true }).click();
  await box.waitFor({ state: 'hidden' });
}

/**
 * Run → the confirmation (its text checked against `confirmation`, when given) → Send → the newest result's text.
 */
export async function runAndSend(wb: Workbench, panel: FrameLocator, opts: { confirmation?: RegExp; timeoutMs?: number } = {}): Promise<string> {
  // a tool's panel opened again in the same session already shows that session's earlier results
  const earlier = await results(panel).count();
  await panel.getByRole('button', { name: 'Run' }).click();
  if (opts.confirmation) {
    const box = dialog(wb);
    await box.waitFor();
    assert.match(await box.innerText(), opts.confirmation);
  }
  await answerDialog(wb, 'Send');
  await results(panel)
    .nth(earlier)
    .waitFor({ timeout: opts.timeoutMs ?? 30_000 });
  await wb.shot('result');
  return newestResult(panel).innerText();
}

/** The results in the tool panel, newest first. */
export function results(panel: FrameLocator): Locator {
  return panel.getByRole('region', { name: 'Results' }).locator('article.result');
}

/** The frame of the MCP App a panel shows. */
export function appFrame(panel: FrameLocator): FrameLocator {
  return panel.getByRole('region', { name: 'App' }).frameLocator('iframe.app-frame');
}

/** The newest result in the tool panel. */
export function newestResult(panel: FrameLocator): Locator {
  return results(panel).first();
}

/**
 * Scenario 1: palette → MCP: Run Tool… → describe_file → From workspace… → photo.png → Run → Send →
 * the result names the type, the size and the dimensions.
 */
export async function describePngFromWorkspace(wb: Workbench): Promise<void> {
  const panel = await runToolFromPalette(wb, 'Describe a file');
  await chooseFromWorkspace(wb, panel, 'File', 'photo.png');
  const chosen = panel.getByRole('list', { name: 'Chosen files for File' });
  await chosen.getByText('photo.png').waitFor();
  await wb.shot('file-chosen');
  const text = await runAndSend(wb, panel, { confirmation: /photo\.png/ });
  assert.match(text, /Type: image\/png/);
  assert.match(text, /7214 bytes/);
  assert.match(text, /64 × 48 pixels/);
}

/** Accepts the save dialog as VS Code presents it here (the simple file dialog, a quick input) with the proposed name. */
export async function acceptSaveDialog(wb: Workbench, expectedName: string): Promise<void> {
  const input = wb.quickInput.locator('.quick-input-box input');
  await input.waitFor({ timeout: 15_000 });
  await wb.page.waitForFunction(({ selector, name }) => (document.querySelector<HTMLInputElement>(selector)?.value ?? '').endsWith(name), {
    selector: '.quick-input-widget .quick-input-box input',
    name: expectedName,
  });
  await wb.shot(`save-dialog-${expectedName}`);
  await wb.page.keyboard.press('Enter');
  await wb.quickInput.waitFor({ state: 'hidden' });
  // the new file shows up in the Explorer (the "Saved …" message goes to the notification centre)
  await wb.explorerItem(expectedName).waitFor({ timeout: 15_000 });
  await wb.shot(`saved-${expectedName}`);
}

/**
 * Waits until `done` holds, looking every 200 ms for at most `timeoutMs`, for what no locator can wait on (a
 * server's record, a count that must fall). It does not fail: the assertion after it says what was wrong.
 */
export async function pollUntil(wb: Workbench, done: () => unknown, timeoutMs: number): Promise<void> {
  for (let i = 0; i < timeoutMs / 200 && !(await done()); i++) await wb.page.waitForTimeout(200);
}

/**
 * The servers of the workspace's .vscode/mcp.json as the file is now, or undefined while it cannot be read whole (an
 * editor or the extension can be caught between truncating the file and writing it): poll it with `pollUntil`.
 */
export function workspaceServers(wb: Workbench): Record<string, Record<string, unknown>> | undefined {
  const errors: ParseError[] = [];
  const config = parse(readFileSync(join(wb.folder, '.vscode/mcp.json'), 'utf8'), errors) as { servers?: Record<string, Record<string, unknown>> } | undefined;
  return errors.length ? undefined : config?.servers;
}

/**
 * What the apps fixture server recorded in `file` (APPS_FIXTURE_RECORD, a JSON line each): every line, and the
 * reports its apps made through their tool calls.
 */
export function appsFixtureRecord(file: string): {
  records: () => Record<string, unknown>[];
  reports: () => { tool: string; arguments: { findings?: Record<string, unknown> } }[];
} {
  const records = () =>
    readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  const reports = () =>
    records()
      .filter((r) => typeof r.tool === 'string')
      .map((r) => r as { tool: string; arguments: { findings?: Record<string, unknown> } });
  return { records, reports };
}
