// MCP Apps in the real workbench: the npm example's app renders in the tool panel, its button calls the
// server's tool through the bridge, a link it opens is asked about first (full URL shown), a message it
// sends is shown (and offered to chat after consent), a theme switch reaches it; a well-behaved app gets its
// context, a looping one can be closed. (Apps that misbehave, and the budget allocator example: apps-contained.)
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { appFrame, appsFixtureRecord, dialog, newestResult, openQuickPick, pollUntil, runToolFromPalette } from './steps.mjs';
import { fixtureServer, root, withWorkbench } from './workbench.mjs';

const vanillaEntry = join(root, 'node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js');

test('MCP Apps: the example app renders, calls its tool, asks before a link, follows the theme; a looping app can be closed', async () => {
  const record = join(tmpdir(), `apps-record-${process.pid}-${Date.now()}.jsonl`);
  writeFileSync(record, '');
  const servers = {
    vanilla: { type: 'stdio' as const, command: 'node', args: [vanillaEntry, '--stdio'] },
    apps: { type: 'stdio' as const, command: 'node', args: [await fixtureServer('apps-server')], env: { APPS_FIXTURE_RECORD: record } },
  };
  try {
    await withWorkbench('apps', { servers, settings: { 'workbench.colorTheme': 'Default Light Modern' } }, async (wb) => {
      const popups: Page[] = [];
      wb.browser.on('page', (p) => popups.push(p));

      // 1. The tool is marked as an app in Run Tool; its app renders above the plain result, which stays.
      const pickRow = wb.quickPickRow('Get Time').filter({ hasText: 'vanilla' }).first();
      await openQuickPick(wb, 'MCP: Run Tool…', 'MCP: Run Tool', 'Get Time', pickRow);
      assert.match(await pickRow.innerText(), /App — Returns the current server time/);
      assert.equal(await wb.quickPickRow('report').count(), 0, 'an app-only tool is not offered');
      await wb.page.keyboard.press('Escape');
      const panel = await runToolFromPalette(wb, 'Get Time', 'vanilla');
      // The app is loaded ahead as the panel opens (hidden, not an App region), so Run shows it at once.
      await panel.locator('section.app.standby').waitFor({ state: 'attached', timeout: 30_000 });
      assert.equal(await panel.getByRole('region', { name: 'App' }).count(), 0);
      await panel.getByRole('button', { name: 'Run' }).click();
      await newestResult(panel).waitFor({ timeout: 30_000 });
      const section = panel.getByRole('region', { name: 'App' });
      await section.and(panel.locator('[data-app-state="running"]')).waitFor({ timeout: 30_000 });
      const app = appFrame(panel);
      const time = app.locator('#server-time');
      await time.filter({ hasText: /^\d{4}-\d\d-\d\dT/ }).waitFor({ timeout: 15_000 });
      const first = await time.innerText();
      assert.match(
        await newestResult(panel).innerText(),
        new RegExp(first.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
        'the app shows the tool result the plain view shows',
      );
      await wb.shot('app-rendered');

      // 2. Its sandbox: an opaque origin with the declared (empty) policy, no permissions.
      const frameAttrs = await section.locator('iframe.app-frame').evaluate((f: HTMLIFrameElement) => [f.getAttribute('sandbox'), f.getAttribute('allow')]);
      assert.deepEqual(frameAttrs, ['allow-scripts', '']);
      assert.equal(await app.locator('html').evaluate(() => window.origin), 'null');

      // 3. Its button calls get-time through the bridge and the host; the app shows the new answer.
      await app.getByRole('button', { name: 'Get Server Time' }).click();
      await time.filter({ hasNotText: first }).waitFor({ timeout: 30_000 });
      assert.match(await time.innerText(), /^\d{4}-\d\d-\d\dT/);
      await wb.shot('app-called-tool');

      // 4. A message from the app is shown in the panel, as text, and offered to chat only if the person agrees.
      await app.locator('#message-text').fill('<b>hello</b> from the app');
      await app.getByRole('button', { name: 'Send Message' }).click();
      const notes = panel.getByRole('log', { name: 'Messages from the app' });
      await notes.getByText('<b>hello</b> from the app').waitFor({ timeout: 15_000 });
      assert.equal(await notes.locator('b').count(), 0);
      const offer = dialog(wb);
      await offer.waitFor({ timeout: 15_000 });
      assert.match(await offer.innerText(), /The app ui:\/\/get-time\/mcp-app\.html \(vanilla\) offers a message for chat\.[\s\S]*<b>hello<\/b> from the app/);
      await offer.getByRole('button', { name: 'Cancel', exact: true }).click();
      await offer.waitFor({ state: 'hidden' });

      // 5. A link is asked about first, with the full URL; declined, nothing opens.
      const url = await app.locator('#link-url').inputValue();
      await app.getByRole('button', { name: 'Open Link' }).click();
      const box = dialog(wb);
      await box.waitFor({ timeout: 15_000 });
      assert.ok((await box.innerText()).includes(new URL(url).href), `the dialog shows ${url}`);
      await wb.shot('app-link-consent');
      await box.getByRole('button', { name: 'Cancel', exact: true }).click();
      await box.waitFor({ state: 'hidden' });
      await wb.page.waitForTimeout(500);
      assert.equal(popups.length, 0, 'nothing opened without consent');

      // 6. The theme reaches the app: light now, then dark after switching VS Code's theme.
      const theme = () => app.locator('html').getAttribute('data-theme');
      assert.equal(await theme(), 'light');
      const lightBackground = await app.locator('html').evaluate((el) => el.style.getPropertyValue('--color-background-primary'));
      await wb.runCommand('Preferences: Toggle between Light/Dark Themes');
      await pollUntil(wb, async () => (await theme()) === 'dark', 10_000);
      assert.equal(await theme(), 'dark');
      const darkBackground = await app.locator('html').evaluate((el) => el.style.getPropertyValue('--color-background-primary'));
      assert.ok(lightBackground && darkBackground && lightBackground !== darkBackground, `${lightBackground} -> ${darkBackground}`);
      await wb.shot('app-dark-theme');

      // 7. A well-behaved app gets the tool's input and result and the host context; malformed messages and an
      //    unknown method do not break it; fullscreen maximises the panel; a newer result tears it down first.
      const { reports } = appsFixtureRecord(record);
      const polite = await runToolFromPalette(wb, 'show_polite', 'apps');
      await polite.getByLabel('note').fill('hi');
      await polite.getByRole('button', { name: 'Run' }).click();
      await polite.locator('section.app.fullscreen[data-app-state="running"]').waitFor({ timeout: 30_000 });
      await wb.page.locator('.part.sidebar').waitFor({ state: 'hidden', timeout: 10_000 });
      await wb.shot('app-fullscreen');
      // The app reports what it was given after it asks for fullscreen (the report is a tool call through the host).
      const findStarted = () => reports().find((c) => c.tool === 'report' && c.arguments.findings?.input)?.arguments.findings;
      await pollUntil(wb, findStarted, 15_000);
      const started = findStarted();
      assert.ok(started, JSON.stringify(reports()));
      assert.deepEqual(started.input, { note: 'hi' });
      assert.deepEqual(started.result, { tool: 'show_polite' });
      assert.equal(started.theme, 'dark');
      assert.equal(started.displayMode, 'inline');
      assert.deepEqual(started.availableDisplayModes, ['inline', 'fullscreen']);
      assert.equal(started.platform, 'desktop');
      assert.ok(typeof started.locale === 'string' && (started.width as number) > 100 && (started.variables as number) > 10, JSON.stringify(started));
      assert.equal(started.unknownMethod, -32601);
      assert.equal(started.fullscreen, 'fullscreen');
      // The context it offers a model is kept by the host for @mcp's next turn, and shown as text.
      assert.equal(started.modelContext, 'accepted');
      const offered = polite.getByRole('log', { name: 'Messages from the app' }).locator('.app-note', { hasText: 'kept for the next turn of @mcp in chat' });
      await offered.filter({ hasText: 'The polite app was given note=hi' }).waitFor({ state: 'attached', timeout: 15_000 });
      await polite.getByRole('button', { name: 'Exit full screen' }).click();
      await wb.page.locator('.part.sidebar').waitFor({ state: 'visible', timeout: 10_000 });
      await polite.getByRole('button', { name: 'Run' }).click();
      // (hidden, and so not a region to getByRole, while the new app is fullscreen)
      await polite.locator('section.results article.result').nth(1).waitFor({ state: 'attached', timeout: 30_000 });
      const order = () => reports().map((c) => (c.arguments.findings?.teardown ? 'teardown' : c.arguments.findings?.input ? 'started' : c.tool));
      await pollUntil(wb, () => order().filter((o) => o === 'started').length >= 2, 20_000);
      const seen = order();
      assert.ok(
        seen.indexOf('teardown') > seen.indexOf('started') && seen.indexOf('teardown') < seen.lastIndexOf('started'),
        `the first app was torn down before the second started: ${seen.join(', ')}`,
      );
      await polite.locator('section.app.fullscreen[data-app-state="running"]').waitFor({ timeout: 30_000 });
      await polite.getByRole('button', { name: 'Exit full screen' }).click();
      await wb.page.locator('.part.sidebar').waitFor({ state: 'visible', timeout: 10_000 });
      // the keyboard back in the workbench (the palette is opened with F1)
      await wb.page.locator('.tabs-container .tab', { hasText: 'show_polite (apps)' }).click();
      await wb.page.waitForTimeout(500);

      // 8. An app that loops forever: the panel stays responsive and the app can be closed.
      const looping = await runToolFromPalette(wb, 'show_loop', 'apps');
      await looping.getByRole('button', { name: 'Run' }).click();
      await looping.locator('section.app[data-app-state="running"]').waitFor({ timeout: 30_000 });
      await wb.page.waitForTimeout(1000);
      await looping.getByRole('button', { name: 'Close app' }).click({ timeout: 10_000 });
      await looping.locator('section.app[data-app-state="closed"]').waitFor({ timeout: 10_000 });
      // (the next run's standby goes too, after its teardown request, waited for at most 1.5 s)
      await pollUntil(wb, async () => (await looping.locator('iframe.app-frame').count()) === 0, 10_000);
      assert.equal(await looping.locator('iframe.app-frame').count(), 0);
      await wb.shot('looping-app-closed');
      // Panels shown again: a running app comes back with its panel, a closed one stays closed.
      await wb.page.locator('.tabs-container .tab', { hasText: 'Get Time (vanilla)' }).click();
      await wb.webview().locator('section.app[data-app-state="running"]').waitFor({ timeout: 30_000 });
      await wb.page.locator('.tabs-container .tab', { hasText: 'show_loop (apps)' }).click();
      const loopAgain = wb.webview();
      await loopAgain.getByRole('heading', { level: 1, name: 'show_loop' }).waitFor({ timeout: 15_000 });
      await loopAgain.locator('section.results article.result').first().waitFor({ timeout: 15_000 });
      assert.equal(await loopAgain.locator('section.app').count(), 0, 'a closed app stays closed, and is not loaded ahead either');
    });
  } finally {
    rmSync(record, { force: true });
  }
});
