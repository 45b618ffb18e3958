// MCP Apps that misbehave, in the real workbench: an app that never initialises is closed with a note; a hostile
// app's attempts (storage, the parent document, the webview API, an outside origin, an app-only or another server's
// tool, javascript: and file: links, a forged submit) each fail and its flood cuts it off; an app too large is refused
// with the text result kept; an app its server updates is reloaded in place, and told of list changes; and the
// budget allocator example from npm renders.
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { appFrame, appsFixtureRecord, dialog, newestResult, pollUntil, runToolFromPalette } from './steps.mjs';
import { fixtureServer, root, withWorkbench } from './workbench.mjs';

const budgetEntry = join(root, 'node_modules/@modelcontextprotocol/server-budget-allocator/dist/index.js');

test('MCP Apps contained: a silent app is closed, a hostile one fails at every attempt, a large one is refused, an updated one reloads', async () => {
  const record = join(tmpdir(), `apps-record-${process.pid}-${Date.now()}.jsonl`);
  writeFileSync(record, '');
  let outsideHits = 0;
  const outside = createServer((_req, res) => {
    outsideHits++;
    res.setHeader('access-control-allow-origin', '*');
    res.end('reached');
  });
  await new Promise<void>((resolve) => outside.listen(0, '127.0.0.1', resolve));
  const outsidePort = (outside.address() as { port: number }).port;
  const servers = {
    budget: { type: 'stdio' as const, command: 'node', args: [budgetEntry, '--stdio'] },
    apps: {
      type: 'stdio' as const,
      command: 'node',
      args: [await fixtureServer('apps-server')],
      env: { APPS_FIXTURE_RECORD: record, APPS_FIXTURE_OUTSIDE_ORIGIN: `http://127.0.0.1:${outsidePort}/` },
    },
  };
  try {
    await withWorkbench('apps-contained', { servers }, async (wb) => {
      const popups: Page[] = [];
      wb.browser.on('page', (p) => popups.push(p));
      const { records, reports } = appsFixtureRecord(record);

      // 1. An app that never initialises is closed with a note.
      const silent = await runToolFromPalette(wb, 'show_silent', 'apps');
      await silent.getByRole('button', { name: 'Run' }).click();
      const silentNote = silent.getByRole('region', { name: 'App' }).getByRole('alert');
      await silentNote.waitFor({ timeout: 60_000 });
      assert.match(await silentNote.innerText(), /did not start within \d+ s/);

      // 2. A hostile app: every attempt fails, and its flood cuts it off with a note.
      const hostile = await runToolFromPalette(wb, 'show_hostile', 'apps');
      await hostile.getByRole('button', { name: 'Run' }).click();
      await newestResult(hostile).waitFor({ timeout: 30_000 });
      const cutOff = hostile.getByRole('region', { name: 'App' }).getByRole('alert');
      await cutOff.waitFor({ timeout: 60_000 });
      assert.match(await cutOff.innerText(), /more than \d+ messages in a second/);
      await wb.shot('hostile-cut-off');
      const calls = reports().filter((c) => c.tool === 'show_hostile' || c.arguments.findings?.parentPostMessage);
      const findings = calls.find((c) => c.tool === 'report')?.arguments.findings as Record<string, string> | undefined;
      assert.ok(findings, `the app reported: ${JSON.stringify(calls)}`);
      console.log(`hostile app findings: ${JSON.stringify(findings)}`);
      assert.equal(findings.initialize, 'ok');
      for (const key of ['cookie', 'localStorage', 'parentDocument', 'vscodeApi', 'fetchOutside'])
        assert.match(findings[key]!, /^blocked/, `${key}: ${findings[key]}`);
      assert.match(findings.callModelOnly!, /^refused: .*not available to apps/);
      assert.match(findings.openJavascript!, /^refused: javascript: links are not opened/);
      assert.match(findings.openFile!, /^refused: file: links are not opened/);
      assert.match(findings.readOtherServer!, /^refused/);
      assert.equal(outsideHits, 0, "nothing reached the origin outside the app's policy");
      assert.deepEqual(
        calls.map((c) => c.tool),
        ['show_hostile', 'report'],
        'the forged submit ran nothing',
      );
      assert.ok(!reports().some((c) => c.tool === 'model_only'), 'model_only never ran');
      assert.equal(await hostile.getByText('FORGED BY APP').count(), 0);
      assert.equal(await dialog(wb).count(), 0, 'refused links asked nothing');
      assert.equal(popups.length, 0);
      // the panel still works
      await hostile.getByRole('button', { name: 'Run' }).click();
      await hostile.getByRole('region', { name: 'Results' }).locator('article.result').nth(1).waitFor({ timeout: 30_000 });
      // Its app floods again, and is cut off again; the 100,000 messages it queued are still delivered (and dropped)
      // for a while after that, which on a busy machine keeps the window from drawing: the next step waits until it does.
      await cutOff.filter({ hasText: /more than \d+ messages in a second/ }).waitFor({ timeout: 60_000 });
      await wb.shot('hostile-run-again', 120_000);

      // 3. An app over the size limit is refused with its size; the text result is shown.
      const big = await runToolFromPalette(wb, 'show_big', 'apps');
      await big.getByRole('button', { name: 'Run' }).click();
      const failed = big.locator('.app-failed');
      await failed.waitFor({ timeout: 60_000 });
      assert.match(await failed.innerText(), /is 8(\.\d+)? MiB; the limit is 5 MiB/);
      assert.match(await newestResult(big).innerText(), /show_big done/);
      await wb.shot('big-app-refused');

      // 4. An app its server updates: subscribed while it shows, reloaded with the same call's result when the
      //     server reports the resource updated; unsubscribed once it is closed.
      const versioned = await runToolFromPalette(wb, 'show_versioned', 'apps');
      await versioned.getByRole('button', { name: 'Run' }).click();
      await versioned.locator('section.app[data-app-state="running"]').waitFor({ timeout: 30_000 });
      const versionedApp = appFrame(versioned);
      await versionedApp.locator('#version', { hasText: 'Version 1' }).waitFor({ timeout: 15_000 });
      await versionedApp.locator('#result', { hasText: 'show_versioned done' }).waitFor({ timeout: 15_000 });
      await pollUntil(wb, () => records().some((r) => r.subscribe === 'ui://versioned/app.html'), 10_000);
      assert.ok(
        records().some((r) => r.subscribe === 'ui://versioned/app.html'),
        'subscribed while the app shows',
      );
      await versionedApp.getByRole('button', { name: 'Update the app' }).click();
      await versionedApp.locator('#version', { hasText: 'Version 2' }).waitFor({ timeout: 30_000 });
      await versionedApp.locator('#result', { hasText: 'show_versioned done' }).waitFor({ timeout: 15_000 });
      assert.equal(await versioned.locator('section.app:not(.standby)').count(), 1, 'one app shown, reloaded in place');
      await wb.shot('app-reloaded');
      // The server's lists change while the app shows: the app is told of each (and is not reloaded).
      await versionedApp.getByRole('button', { name: 'Announce list changes' }).click();
      await versionedApp.locator('#lists', { hasText: 'resources changed' }).waitFor({ timeout: 15_000 });
      await versionedApp.locator('#lists', { hasText: 'tools changed' }).waitFor({ timeout: 15_000 });
      await versionedApp.locator('#version', { hasText: 'Version 2' }).waitFor();
      await versioned.getByRole('button', { name: 'Close app' }).click();
      await pollUntil(wb, () => records().some((r) => r.unsubscribe === 'ui://versioned/app.html'), 10_000);
      assert.ok(
        records().some((r) => r.unsubscribe === 'ui://versioned/app.html'),
        'unsubscribed once the app closed',
      );

      // 5. A second npm example, server-budget-allocator (Chart.js), renders its interface from the tool's result.
      const budget = await runToolFromPalette(wb, 'Get Budget Data', 'budget');
      await budget.getByRole('button', { name: 'Run' }).click();
      await budget.locator('section.app[data-app-state="running"]').waitFor({ timeout: 30_000 });
      const budgetApp = appFrame(budget);
      await budgetApp.locator('#sliders-container .slider').first().waitFor({ timeout: 30_000 });
      assert.ok((await budgetApp.locator('#sliders-container .slider').count()) >= 3);
      await wb.shot('budget-app-rendered');
    });
  } finally {
    outside.close();
    rmSync(record, { force: true });
  }
});
