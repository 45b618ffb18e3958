// Managing servers in one workbench: MCP: Add Server… writes .vscode/mcp.json, the status bar
// counts running and failed servers and opens the MCP view, MCP: Edit Server Inputs restarts a
// server without the secret reaching any file, and a tool form works with the keyboard alone; then, in the same
// window (see `scenariosInOneWorkbench`), a server's inputs are asked once, kept, and reused after a reload.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'jsonc-parser';
import type { Locator } from 'playwright-core';
import { newestResult, statusItem } from './steps.mjs';
import { demoServer, scenariosInOneWorkbench, type Workbench } from './workbench.mjs';

// with-token starts slowly (1.5 s before the demo server loads), so its "starting…" state shows in the tree
const slowDemo = ['-e', `setTimeout(() => require(${JSON.stringify(demoServer)}), 1500)`];
const servers = {
  'with-token': { type: 'stdio' as const, command: 'node', args: slowDemo, env: { DEMO_TOKEN: '${input:token}' } },
  broken: { type: 'stdio' as const, command: 'node', args: [join(demoServer, '../does-not-exist.js')] },
  // the inputs scenario's own
  'with-key': { type: 'stdio' as const, command: 'node', args: [demoServer], env: { DEMO_TOKEN: '${input:key}' } },
};
const inputs = [
  { type: 'promptString', id: 'token', description: 'The demo token', password: true },
  { type: 'promptString', id: 'key', description: 'The demo key', password: true },
];
const FIRST_SECRET = 'first-s3cret-value';
const SECOND_SECRET = 'second-s3cret-value';

/** The Servers tree of the MCP view. */
function serversTree(wb: Workbench): Locator {
  return wb.page.getByRole('tree', { name: 'Servers' });
}

/** A server's row in the Servers tree, by its accessible name ("demo, running"). */
function serverRow(wb: Workbench, name: string, state = '.*'): Locator {
  return serversTree(wb).getByRole('treeitem', { name: new RegExp(`^${name}, ${state}$`) });
}

/** Picks the row of the open quick pick labelled exactly `label`. */
async function pickLabelled(wb: Workbench, label: string): Promise<void> {
  const row = wb.quickPickRowLabelled(label).first();
  await row.waitFor({ timeout: 15_000 });
  await row.click();
}

/** Waits until the given element (in the page or a webview frame) has the keyboard focus. */
async function waitFocused(target: Locator, what: string): Promise<void> {
  await target.waitFor();
  for (const deadline = Date.now() + 10_000; ;) {
    if (await target.evaluate((el) => el === el.ownerDocument.activeElement && el.ownerDocument.hasFocus())) return;
    if (Date.now() > deadline) {
      const active = await target.evaluate((el) => `${el.ownerDocument.activeElement?.outerHTML.slice(0, 200)} hasFocus=${el.ownerDocument.hasFocus()}`);
      assert.fail(`${what} is not focused; the focus is on ${active}`);
    }
    await target.page().waitForTimeout(100);
  }
}

/**
 * Ctrl+A in a webview text field. The workbench handles the key and sends "select all" back to the
 * webview a moment later: wait for the selection before typing over it. The caret is put at the end first, so the
 * wait sees this Ctrl+A's selection and not one already there (a field Tab moved into is all selected): typing
 * started before the late "select all" would be selected by it and typed over.
 */
async function selectAll(wb: Workbench, field: Locator): Promise<void> {
  await field.evaluate((el) => {
    const input = el as HTMLInputElement;
    input.setSelectionRange(input.value.length, input.value.length);
  });
  await wb.page.keyboard.press('ControlOrMeta+A');
  for (const deadline = Date.now() + 5000; ;) {
    const selected = await field.evaluate((el) => {
      const input = el as HTMLInputElement;
      const text = input.ownerDocument.getSelection()?.toString() ?? '';
      return input.value === '' || text === input.value || (input.selectionStart === 0 && input.selectionEnd === input.value.length);
    });
    if (selected) return;
    assert.ok(Date.now() < deadline, "Ctrl+A selects the field's text");
    await wb.page.waitForTimeout(50);
  }
}

/** Records every description the server's row shows in the tree, from now on. */
async function recordStates(wb: Workbench, name: string): Promise<() => Promise<string[]>> {
  const key = `__states_${name.replace(/\W/g, '_')}`;
  await serversTree(wb).evaluate(
    (tree, [k, n]) => {
      const seen: string[] = [];
      (window as unknown as Record<string, string[]>)[k] = seen;
      // (no named functions here: the test runner's transform would add a helper the page lacks)
      new MutationObserver(() => {
        for (const row of Array.from(tree.querySelectorAll<HTMLElement>('[role="treeitem"]'))) {
          const label = row.getAttribute('aria-label') ?? '';
          const description = label.startsWith(`${n}, `) ? label.slice(n.length + 2) : undefined;
          if (description !== undefined && seen[seen.length - 1] !== description) seen.push(description);
        }
      }).observe(tree, { subtree: true, childList: true, characterData: true, attributes: true });
    },
    [key, name] as const,
  );
  return () => wb.page.evaluate((k) => [...((window as unknown as Record<string, string[]>)[k] ?? [])], key);
}

async function manageServers(wb: Workbench): Promise<void> {
  const config = join(wb.folder, '.vscode/mcp.json');
  const userSettings = join(wb.server.userDataDir, 'User/settings.json');

  // ── the MCP view lists the configured servers ──
  await wb.page.locator('.activitybar [aria-label^="MCP"]').first().click();
  await serverRow(wb, 'demo').waitFor({ timeout: 30_000 });
  await serverRow(wb, 'with-token').waitFor();
  await wb.shot('servers-view');

  // ── 1. MCP: Add Server… (stdio) keeps the file's comments and entries ──
  const original = readFileSync(config, 'utf8');
  const commented = original.replace('{\n', '{\n  // Servers of this workspace: keep this comment.\n');
  assert.notEqual(commented, original);
  writeFileSync(config, commented);
  await wb.runCommand('MCP: Add Server…');
  const stdio = wb.quickPickRow('Command (stdio)').first();
  await stdio.waitFor();
  await wb.shot('add-server-kind');
  await stdio.click();
  const commandLine = `node ${demoServer}`;
  const input = wb.quickInput.locator('.quick-input-box input');
  await wb.quickInput.getByText('The command and its arguments').waitFor();
  await input.fill(commandLine);
  await wb.shot('add-server-command');
  await wb.page.keyboard.press('Enter');
  await wb.quickInput.getByText('A name for the server').waitFor();
  assert.equal(await input.inputValue(), 'demo-2', 'the suggested name avoids the taken "demo"');
  await input.fill('added-demo');
  await wb.shot('add-server-name');
  await wb.page.keyboard.press('Enter');
  await serverRow(wb, 'added-demo').waitFor({ timeout: 30_000 });
  // then the file it wrote is shown, and its editor takes the focus (before any palette below opens)
  await wb.page.locator('.tabs-container .tab.active', { hasText: 'mcp.json' }).waitFor({ timeout: 15_000 });
  await wb.shot('server-added');
  const written = readFileSync(config, 'utf8');
  assert.ok(written.includes('// Servers of this workspace: keep this comment.'), `comment kept in:\n${written}`);
  const parsed = parse(written) as { servers: Record<string, unknown>; inputs: unknown[] };
  assert.deepEqual(parsed.servers['added-demo'], { type: 'stdio', command: 'node', args: [demoServer] });
  assert.deepEqual(parsed.servers.demo, { type: 'stdio', command: 'node', args: [demoServer] });
  assert.deepEqual(parsed.servers['with-token'], servers['with-token']);
  assert.deepEqual(parsed.servers.broken, servers.broken);
  assert.deepEqual(parsed.inputs, inputs);
  await wb.page.keyboard.press('Escape'); // the "Added the MCP server" notification

  // ── 2. the status bar counts running and failed servers, and opens the MCP view ──
  await statusItem(wb, /MCP servers: 0 running, 5 configured/).waitFor({ timeout: 15_000 });
  await wb.shot('status-none-running');
  await wb.runCommand('MCP: Start Server');
  await pickLabelled(wb, 'demo');
  await statusItem(wb, /MCP servers: 1 running, 5 configured/).waitFor({ timeout: 30_000 });
  await serverRow(wb, 'demo', 'running').waitFor();
  await wb.shot('status-one-running');
  await wb.runCommand('MCP: Start Server');
  await pickLabelled(wb, 'broken');
  await statusItem(wb, /MCP servers: 1 running, 1 failed, 5 configured/).waitFor({ timeout: 30_000 });
  await wb.shot('status-one-failed');
  await wb.runCommand('View: Show Explorer');
  await wb.page.locator('.explorer-folders-view').waitFor();
  assert.equal(await serversTree(wb).isVisible(), false, 'the MCP view is hidden before the click');
  await wb.shot('explorer-shown');
  await statusItem(wb, /MCP servers:/).click();
  await serversTree(wb).waitFor();
  await serversTree(wb).evaluate(async (tree) => {
    // the view takes the keyboard focus: the tree (or one of its rows) is focused
    for (let i = 0; i < 100 && !tree.contains(document.activeElement); i++) await new Promise((r) => setTimeout(r, 100));
    if (!tree.contains(document.activeElement)) throw new Error(`the focus is on ${document.activeElement?.outerHTML.slice(0, 200)}`);
  });
  await wb.shot('status-click-opens-view');

  // ── 3. MCP: Edit Server Inputs restarts the server; the secret reaches no file ──
  await wb.runCommand('MCP: Start Server');
  await pickLabelled(wb, 'with-token');
  let form = wb.webview();
  await form.getByRole('heading', { level: 1, name: 'Inputs for with-token' }).waitFor({ timeout: 30_000 });
  await form.locator('input[type="password"]').fill(FIRST_SECRET);
  await wb.shot('inputs-first-time');
  await form.getByRole('button', { name: 'Save' }).click();
  await serverRow(wb, 'with-token', 'running').waitFor({ timeout: 30_000 });
  await wb.shot('with-token-running');

  await wb.runCommand('MCP: Edit Server Inputs');
  await pickLabelled(wb, 'with-token');
  form = wb.webview();
  await form.getByRole('heading', { level: 1, name: 'Inputs for with-token' }).waitFor({ timeout: 30_000 });
  const token = form.locator('input[type="password"]');
  assert.equal(await token.inputValue(), '', 'the kept secret is not shown in the form');
  await token.fill(SECOND_SECRET);
  await wb.shot('edit-inputs-form');
  const states = await recordStates(wb, 'with-token');
  await form.getByRole('button', { name: 'Save' }).click();
  await wb.page.locator('iframe.webview.ready').filter({ visible: true }).waitFor({ state: 'detached', timeout: 15_000 });
  for (const deadline = Date.now() + 30_000; ;) {
    const seen = await states();
    const starting = seen.findIndex((d) => d.startsWith('starting'));
    if (starting >= 0 && seen.slice(starting + 1).includes('running')) break;
    assert.ok(Date.now() < deadline, `with-token went through: ${seen.join(' → ')}`);
    await wb.page.waitForTimeout(100);
  }
  await serverRow(wb, 'with-token', 'running').waitFor();
  await wb.shot('restarted-with-new-input');
  for (const [file, text] of [
    [config, readFileSync(config, 'utf8')],
    [userSettings, readFileSync(userSettings, 'utf8')],
  ]) {
    for (const secret of [FIRST_SECRET, SECOND_SECRET]) assert.ok(!text!.includes(secret), `the secret is in ${file}`);
  }

  // ── 4. a tool form with the keyboard only ──
  await wb.runCommand('MCP: Run Tool…');
  const filter = wb.quickInput.locator('.quick-input-box input');
  await wb.quickInput.locator('.quick-input-title', { hasText: 'MCP: Run Tool' }).waitFor();
  await wb.page.keyboard.type('Export a report');
  await wb.quickPickRow('Export a report').first().waitFor({ timeout: 30_000 });
  for (
    let i = 0;
    !(await wb.quickInput
      .locator('.monaco-list-row.focused', { hasText: 'Export a report' })
      .filter({ has: wb.page.locator('.label-description', { hasText: /^export_report · demo$/ }) })
      .count());
    i++
  ) {
    assert.ok(i < 10, 'the demo server\'s "Export a report" row is in the list');
    await wb.page.keyboard.press('ArrowDown');
  }
  assert.equal(await filter.inputValue(), 'Export a report');
  await wb.shot('keyboard-pick-tool');
  await wb.page.keyboard.press('Enter');
  const panel = wb.webview();
  await panel.getByRole('heading', { level: 1, name: 'Export a report' }).waitFor({ timeout: 30_000 });
  const title = panel.getByRole('textbox', { name: 'Title' });
  await waitFocused(title, 'the first field (Title)');
  await wb.shot('keyboard-form-opened');
  await selectAll(wb, title);
  await wb.page.keyboard.type('Keyboard report');
  assert.equal(await title.inputValue(), 'Keyboard report');
  await wb.page.keyboard.press('Tab');
  const rows = panel.getByRole('spinbutton', { name: 'Rows' });
  await waitFocused(rows, 'the second field (Rows)');
  await wb.page.keyboard.type('3'); // Tab selected the field's text: typing replaces it
  assert.equal(await rows.inputValue(), '3');
  const run = panel.getByRole('button', { name: 'Run' });
  for (let i = 0; !(await run.evaluate((el) => el === el.ownerDocument.activeElement)); i++) {
    assert.ok(i < 10, 'Tab reaches the Run button');
    await wb.page.keyboard.press('Tab');
  }
  await waitFocused(run, 'the Run button');
  await wb.shot('keyboard-on-run');
  await wb.page.keyboard.press('Enter');
  const result = newestResult(panel);
  await result.waitFor({ timeout: 30_000 });
  await panel.getByRole('status').filter({ hasText: 'New result' }).waitFor();
  assert.match(await result.innerText(), /Generated Keyboard-report\.csv \(3 rows/);
  await wb.shot('keyboard-result');

  // Ctrl+Enter runs again from a field
  for (let i = 0; !(await title.evaluate((el) => el === el.ownerDocument.activeElement)); i++) {
    assert.ok(i < 10, 'Shift+Tab reaches the Title field');
    await wb.page.keyboard.press('Shift+Tab');
  }
  await waitFocused(title, 'the Title field');
  await selectAll(wb, title);
  await wb.page.keyboard.type('Second run');
  assert.equal(await title.inputValue(), 'Second run');
  await wb.page.keyboard.press('Control+Enter');
  await panel.getByText(/Generated Second-run\.csv/).waitFor({ timeout: 30_000 });
  await wb.shot('keyboard-ctrl-enter-result');
}

async function serverInputs(wb: Workbench): Promise<void> {
  await wb.runCommand('MCP: Run Tool…');
  // (the other servers' tools come first in the list)
  await wb.quickInput.locator('.quick-input-box input').fill('with-key');
  const start = wb.quickPickRow('Start with-key').first();
  await start.waitFor({ timeout: 30_000 });
  await wb.shot('asks-for-inputs');
  await start.click();

  const form = wb.webview();
  const token = form.locator('input[type="password"]');
  await token.waitFor({ timeout: 30_000 });
  await token.fill('s3cret-token');
  await wb.shot('inputs-form');
  await form.getByRole('button', { name: 'Save' }).click();
  // the server starts with the value and its tools are offered
  await wb.quickInput.locator('.quick-input-box input').fill('Describe a file');
  await wb.quickPickRow('Describe a file').filter({ hasText: 'with-key' }).first().waitFor({ timeout: 30_000 });
  await wb.shot('started-with-inputs');
  await wb.page.keyboard.press('Escape');

  await wb.load();
  await wb.shot('reloaded');
  await wb.runCommand('MCP: Run Tool…');
  await wb.quickInput.locator('.quick-input-box input').fill('Describe a file');
  await wb.quickPickRow('Describe a file').filter({ hasText: 'with-key' }).first().waitFor({ timeout: 30_000 });
  await wb.shot('started-without-asking');
  assert.equal(await wb.quickPickRow('Start with-key').count(), 0, 'no second request for the inputs');
  assert.equal(await wb.page.locator('iframe.webview.ready').count(), 0, 'no inputs form opened');
}

scenariosInOneWorkbench('servers-window', { servers, inputs }, [
  {
    title: 'servers: Add Server… writes mcp.json, the status bar counts and opens the view, Edit Server Inputs restarts, a tool form runs from the keyboard',
    scenario: 'servers',
    body: manageServers,
  },
  {
    title: "a server's inputs are asked once, kept, and reused after the window reloads",
    scenario: '8-server-inputs',
    body: serverInputs,
  },
]);
