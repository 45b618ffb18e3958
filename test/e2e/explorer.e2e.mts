import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runAndSend } from './steps.mjs';
import { withWorkbench } from './workbench.mjs';

test('the Explorer menu "Run MCP Tool with This File…" opens describe_file with the file already chosen', async () => {
  await withWorkbench('4-explorer-menu', {}, async (wb) => {
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
  });
});
