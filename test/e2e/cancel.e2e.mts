import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runToolFromPalette } from './steps.mjs';
import { withWorkbench } from './workbench.mjs';

test('a long-running tool shows its progress and stops when cancelled', async () => {
  await withWorkbench('6-cancel', {}, async (wb) => {
    const panel = await runToolFromPalette(wb, 'Count slowly');
    await panel.getByRole('spinbutton', { name: 'Seconds' }).fill('30');
    await panel.getByRole('button', { name: 'Run' }).click();
    await panel.getByText(/Counted \d+ of 150/).waitFor({ timeout: 30_000 });
    await wb.shot('running-with-progress');
    const started = Date.now();
    await panel.getByRole('button', { name: 'Cancel' }).click();
    await panel.getByText('Cancelled.').waitFor({ timeout: 10_000 });
    await wb.shot('cancelled');
    assert.ok(Date.now() - started < 10_000);
    // the count does not go on to a result
    await wb.page.waitForTimeout(2000);
    assert.equal(await panel.getByText(/Counted to 150/).count(), 0);
    assert.equal(await panel.getByRole('button', { name: 'Run' }).isEnabled(), true, 'the form can run again');
  });
});
