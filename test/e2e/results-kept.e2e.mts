import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chooseFromWorkspace, describePngFromWorkspace, newestResult, runToolFromPalette } from './steps.mjs';
import { withWorkbench } from './workbench.mjs';

test('a result is announced, its Markdown view and a half-filled form survive hiding the panel, and reopening the tool shows the result again', async () => {
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
  });
});
