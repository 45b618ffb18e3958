// The server's suggestions in the webview form, typed by a person: server-everything's prompt with completable
// arguments (the first argument's value goes as context for the second), a resource template chosen in the MCP
// view (its variable completed, then the resource read and opened in an editor), and a server that answers
// with 10,000 suggestions (the first 100 are offered, with a note saying so).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import type { FrameLocator, Locator } from 'playwright-core';
import { newestResult, openQuickPick } from './steps.mjs';
import { fixtureServer, root, withWorkbench, type Workbench } from './workbench.mjs';

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

test("completions: a prompt's arguments and a template's variable are suggested as the user types; 10,000 suggestions show 100", async () => {
  const paged = await fixtureServer('paged-server');
  await withWorkbench(
    'completions',
    {
      servers: {
        everything: { type: 'stdio', command: 'node', args: [everythingEntry, 'stdio'] },
        paged: { type: 'stdio', command: 'node', args: [paged] },
      },
    },
    async (wb) => {
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
      for (const other of [/^paged, /, /^demo, /]) {
        const row = tree.getByRole('treeitem', { name: other });
        if ((await row.count()) > 0 && (await row.getAttribute('aria-expanded')) === 'true') await row.click();
      }
      for (const group of [/^Tools/, /^Prompts/, /^Resources/]) {
        const row = tree.getByRole('treeitem', { name: group });
        if ((await row.count()) === 1 && (await row.getAttribute('aria-expanded')) === 'true') await row.click();
      }
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
    },
  );
});
