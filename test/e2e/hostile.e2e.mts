import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runToolFromPalette } from './steps.mjs';
import { fixtureServer, withWorkbench } from './workbench.mjs';

const MARKUP_PARTS = ['<img src=x onerror="alert(1)">', '<script>alert(2)</script>', '[link](javascript:alert(3))'];

test("a hostile server's markup appears as literal text in the tool panel and its question, and nothing runs", async () => {
  const servers = { hostile: { type: 'stdio' as const, command: 'node', args: [await fixtureServer('hostile-server')] } };
  await withWorkbench('7-hostile-markup', { servers }, async (wb) => {
    const dialogs: string[] = [];
    wb.page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    const panel = await runToolFromPalette(wb, 'onerror', 'hostile');
    const heading = await panel.getByRole('heading').first().innerText();
    for (const part of MARKUP_PARTS.slice(0, 2)) assert.ok(heading.includes(part), `heading shows ${part} literally: ${heading}`);

    await panel.getByRole('button', { name: 'Run' }).click();
    const question = wb.webview();
    const message = question.getByLabel('Message');
    await message.waitFor({ timeout: 30_000 });
    await wb.shot('question-with-markup');
    const text = await message.innerText();
    for (const part of MARKUP_PARTS) assert.ok(text.includes(part), `the message shows ${part} literally: ${text}`);
    // nothing was turned into elements or run
    assert.equal(await question.locator('img, a[href^="javascript:"]').count(), 0);
    const scripts = await question.locator('script').evaluateAll((all) => all.map((s) => s.textContent ?? ''));
    assert.ok(!scripts.some((s) => s.includes('alert(2)')), 'no script element holds the server text');
    await wb.page.waitForTimeout(1000);
    assert.deepEqual(dialogs, []);
    await question.getByRole('button', { name: 'Cancel' }).click();
    await wb.shot('after-cancel');
  });
});
