import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileSlot, runAndSend, runToolFromPalette } from './steps.mjs';
import { withWorkbench } from './workbench.mjs';

test('Browse… picks a file through VS Code’s file dialog and describe_file reports a PDF', async () => {
  await withWorkbench('3-browse', {}, async (wb) => {
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
  });
});
