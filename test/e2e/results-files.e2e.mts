import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { acceptSaveDialog, answerDialog, chooseManyFromWorkspace, dialog, fileSlot, newestResult, runToolFromPalette } from './steps.mjs';
import { withWorkbench } from './workbench.mjs';

/** What export_report generates with its defaults (title "Weekly report", 5 rows). */
const REPORT = '# Weekly report\nday,visits,signups\n1,37,7\n2,74,1\n3,10,8\n4,47,2\n5,84,9\n';

test('results and files: an image array slot, a file output saved without overwriting, and confirmEveryCall', async () => {
  await withWorkbench('results-files', { settings: { 'mcpHost.confirmEveryCall': true } }, async (wb) => {
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
  });
});
