import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describePngFromWorkspace, newestResult, runToolFromPalette } from './steps.mjs';
import { withWorkbench } from './workbench.mjs';

test('a result is announced, its Markdown view survives hiding the panel, and reopening the tool shows it again', async () => {
  await withWorkbench('results-kept', {}, async (wb) => {
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
  });
});
