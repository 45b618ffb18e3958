// MCP Apps in the real workbench, permissions and endings: an app asking to write to the clipboard may only once the
// person allowed it (asked once a session; the host's capabilities say so only then), and a cancelled call's app is
// told why and closes itself (tool-cancelled, request-teardown, then ui/resource-teardown).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { FrameLocator } from 'playwright-core';
import { appsFixtureRecord, dialog, runToolFromPalette } from './steps.mjs';
import { fixtureServer, withWorkbench } from './workbench.mjs';

function appFrame(panel: FrameLocator): FrameLocator {
  return panel.getByRole('region', { name: 'App' }).frameLocator('iframe.app-frame');
}

test("MCP Apps permissions and endings: clipboardWrite only once allowed; a cancelled call's app is told and closes itself", async () => {
  const record = join(tmpdir(), `apps-endings-record-${process.pid}-${Date.now()}.jsonl`);
  writeFileSync(record, '');
  const servers = { apps: { type: 'stdio' as const, command: 'node', args: [await fixtureServer('apps-server')], env: { APPS_FIXTURE_RECORD: record } } };
  await withWorkbench('apps-permissions', { servers }, async (wb) => {
    const { reports } = appsFixtureRecord(record);
    // 1. An app that asks to write to the clipboard: asked at its first run (not again); allowed, its frame may
    //     write and the host's capabilities say so. The same app at another URI, declined: it cannot, nor is told it may.
    const clip = await runToolFromPalette(wb, 'show_clipboard', 'apps');
    await clip.getByRole('button', { name: 'Run' }).click();
    const clipAsk = dialog(wb);
    await clipAsk.waitFor({ timeout: 30_000 });
    assert.match(await clipAsk.innerText(), /The app ui:\/\/clipboard\/app\.html of "show_clipboard" \(apps\) asks to write to your clipboard/);
    await clipAsk.getByRole('button', { name: 'Allow' }).click();
    await clipAsk.waitFor({ state: 'hidden' });
    const clipSection = clip.getByRole('region', { name: 'App' });
    await clipSection.and(clip.locator('[data-app-state="running"]')).waitFor({ timeout: 30_000 });
    assert.equal(await clipSection.locator('iframe.app-frame').getAttribute('allow'), 'clipboard-write');
    const clipApp = appFrame(clip);
    await clipApp.locator('#sandbox', { hasText: '{"permissions":{"clipboardWrite":{}}}' }).waitFor({ timeout: 15_000 });
    await clipApp.getByRole('button', { name: 'Copy' }).click();
    await clipApp.locator('#copied', { hasText: /\S/ }).waitFor({ timeout: 15_000 });
    assert.equal(await clipApp.locator('#copied').innerText(), 'written');
    await clip.getByRole('button', { name: 'Run' }).click();
    await clip.locator('section.results article.result').nth(1).waitFor({ state: 'attached', timeout: 30_000 });
    await clipSection.and(clip.locator('[data-app-state="running"]')).waitFor({ timeout: 30_000 });
    assert.equal(await dialog(wb).count(), 0, 'asked once');
    await wb.shot('app-clipboard-allowed');
    const declined = await runToolFromPalette(wb, 'show_clipboard_other', 'apps');
    await declined.getByRole('button', { name: 'Run' }).click();
    const declineAsk = dialog(wb);
    await declineAsk.waitFor({ timeout: 30_000 });
    await declineAsk.getByRole('button', { name: 'Cancel', exact: true }).click();
    await declineAsk.waitFor({ state: 'hidden' });
    const declinedSection = declined.getByRole('region', { name: 'App' });
    await declinedSection.and(declined.locator('[data-app-state="running"]')).waitFor({ timeout: 30_000 });
    assert.equal(await declinedSection.locator('iframe.app-frame').getAttribute('allow'), '');
    assert.match(await declinedSection.innerText(), /The app asked for clipboardWrite; not granted here\./);
    const declinedApp = appFrame(declined);
    await declinedApp.locator('#sandbox', { hasText: 'sandbox: null' }).waitFor({ timeout: 15_000 });
    await declinedApp.getByRole('button', { name: 'Copy' }).click();
    await declinedApp.locator('#copied', { hasText: /\S/ }).waitFor({ timeout: 15_000 });
    assert.match(await declinedApp.locator('#copied').innerText(), /^blocked: NotAllowedError/);
    const clipboardReports = reports()
      .filter((c) => c.arguments.findings?.clipboard)
      .map((c) => c.arguments.findings?.clipboard);
    assert.deepEqual(clipboardReports, ['written', 'blocked: NotAllowedError']);

    // 2. A call cancelled while its app shows: the app is told why (tool-cancelled), asks to be closed
    //     (request-teardown) and is torn down.
    // (the keyboard back in the workbench from the app's frame: the palette is opened with F1)
    await wb.page.locator('.tabs-container .tab', { hasText: 'show_clipboard_other (apps)' }).click();
    await wb.page.waitForTimeout(500);
    const slow = await runToolFromPalette(wb, 'show_slow', 'apps');
    await slow.getByRole('button', { name: 'Run' }).click();
    await appFrame(slow).locator('#state', { hasText: 'input received' }).waitFor({ timeout: 30_000 });
    await slow.getByRole('button', { name: 'Cancel', exact: true }).click();
    const slowClosed = slow.locator('section.app[data-app-state="closed"]');
    await slowClosed.waitFor({ timeout: 30_000 });
    assert.equal(await slowClosed.locator('.app-status').innerText(), 'The app closed itself.');
    for (let i = 0; i < 50 && !reports().some((c) => c.arguments.findings?.slowTeardown); i++) await wb.page.waitForTimeout(200);
    const slowFindings = reports()
      .map((c) => c.arguments.findings)
      .filter((f) => f?.cancelled || f?.slowTeardown);
    assert.deepEqual(slowFindings, [{ cancelled: 'The call was cancelled.' }, { slowTeardown: true }]);
  });
});
