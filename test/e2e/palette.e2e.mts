import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newestResult, openQuickPick } from './steps.mjs';
import { withWorkbench } from './workbench.mjs';

test('the command palette lists MCP: Run Tool… once the extension is loaded, and MCP: Get Prompt… offers the prompts', async () => {
  await withWorkbench('palette', {}, async (wb) => {
    await wb.shot('workbench-loaded');
    await wb.openPalette('MCP: Run Tool…');
    await wb.shot('palette-lists-run-tool');
    await wb.page.keyboard.press('Escape');

    const row = wb.quickPickRow('Try the demo').filter({ hasText: 'demo' }).first();
    await openQuickPick(wb, 'MCP: Get Prompt…', 'MCP: Get Prompt', 'demo', row);
    await wb.shot('prompt-quick-pick');
    assert.equal(await wb.quickPickRow('Describe a file').count(), 0, 'tools are not offered as prompts');
    await row.click();
    await wb.webview().getByRole('heading', { level: 1, name: 'Try the demo' }).waitFor({ timeout: 30_000 });
    await wb.shot('prompt-form');
  });
});

test('the MCP view lists the configured server and, once it runs, its tools; a prompt clicked there opens its form and shows its messages', async () => {
  await withWorkbench('servers-view', {}, async (wb) => {
    await wb.page.locator('.activitybar [aria-label^="MCP"]').first().click();
    const view = wb.page.locator('.pane', { has: wb.page.locator('.pane-header', { hasText: 'Servers' }) });
    const server = view.locator('.monaco-list-row', { hasText: 'demo' }).first();
    await server.waitFor({ timeout: 30_000 });
    await wb.shot('servers-view');
    await wb.runCommand('MCP: Start Server');
    await wb.pick('demo');
    await view.locator('.monaco-list-row', { hasText: 'Describe a file' }).first().waitFor({ timeout: 30_000 });
    await wb.shot('server-running-with-tools');
    const rows = await view.locator('.monaco-list-row').allInnerTexts();
    for (const tool of ['Describe a file', 'Compare images', 'Count slowly']) {
      assert.ok(
        rows.some((r) => r.includes(tool)),
        `${tool} in ${rows.join(' | ')}`,
      );
    }

    // a prompt: clicked in the view, its arguments are a form, its messages the result
    await view.locator('.monaco-list-row', { hasText: 'Try the demo' }).first().click();
    const panel = wb.webview();
    await panel.getByRole('heading', { level: 1, name: 'Try the demo' }).waitFor({ timeout: 30_000 });
    await panel.getByRole('button', { name: 'Run' }).click();
    await panel.getByText('Required.').waitFor();
    await wb.shot('prompt-argument-required');
    await panel.getByRole('textbox', { name: /^file/i }).fill('notes.txt');
    await panel.getByRole('button', { name: 'Run' }).click();
    const result = newestResult(panel);
    await result.filter({ hasText: 'What is notes.txt?' }).waitFor({ timeout: 30_000 });
    await wb.shot('prompt-messages');
    assert.match(await result.innerText(), /User\s+(Markdown\s+)?What is notes\.txt\?\s+Assistant\s+(Markdown\s+)?Run "Describe a file" and choose notes\.txt/);
  });
});
