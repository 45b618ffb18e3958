// MCP Apps examples from npm, apps' permissions and endings, and apps that misbehave, in one window run in turn (see
// `scenariosInOneWorkbench`).
//
// Three more MCP Apps examples from npm in the real workbench, each rendered from its server's tool result:
// server-threejs draws its scene on a canvas, server-sheet-music engraves its ABC tune, and server-pdf shows a
// workspace PDF, which its app reads from its server in chunks (the app-only tool read_pdf_bytes, through the
// bridge and the host).
//
// MCP Apps in the real workbench, permissions and endings: an app asking to write to the clipboard may only once the
// person allowed it (asked once a session; the host's capabilities say so only then), and a cancelled call's app is
// told why and closes itself (tool-cancelled, request-teardown, then ui/resource-teardown).
//
// MCP Apps that misbehave (last: the hostile app's flood keeps the window busy for a while): an app that never
// initialises is closed with a note; a hostile app's attempts (storage, the parent document, the webview API, an
// outside origin, an app-only or another server's tool, javascript: and file: links, a forged submit) each fail and
// its flood cuts it off; an app too large is refused with the text result kept; an app its server updates is reloaded
// in place, and told of list changes; and the budget allocator example from npm renders.
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import type { Page } from 'playwright-core';
import { appFrame, appsFixtureRecord, dialog, newestResult, pollUntil, runToolFromPalette } from './steps.mjs';
import { fixtureServer, root, scenariosInOneWorkbench, type Workbench } from './workbench.mjs';

const example = (name: string) => ({
  type: 'stdio' as const,
  command: 'node',
  args: [join(root, `node_modules/@modelcontextprotocol/server-${name}/dist/index.js`), '--stdio'],
});

const record = join(tmpdir(), `apps-record-${process.pid}-${Date.now()}.jsonl`);
writeFileSync(record, '');
after(() => rmSync(record, { force: true }));
/** An origin outside every app's policy: a request that reaches it is counted. */
let outsideHits = 0;
const outside = createServer((_req, res) => {
  outsideHits++;
  res.setHeader('access-control-allow-origin', '*');
  res.end('reached');
});
await new Promise<void>((resolve) => outside.listen(0, '127.0.0.1', resolve));
after(() => outside.close());
const outsidePort = (outside.address() as { port: number }).port;
const servers = {
  threejs: example('threejs'),
  sheet: example('sheet-music'),
  pdf: example('pdf'),
  budget: example('budget-allocator'),
  apps: {
    type: 'stdio' as const,
    command: 'node',
    args: [await fixtureServer('apps-server')],
    env: { APPS_FIXTURE_RECORD: record, APPS_FIXTURE_OUTSIDE_ORIGIN: `http://127.0.0.1:${outsidePort}/` },
  },
};

async function examples(wb: Workbench): Promise<void> {
  // 1. server-threejs: the default scene is drawn on a canvas of the app's size.
  const three = await runToolFromPalette(wb, 'Show Three.js Scene', 'threejs');
  await three.getByRole('button', { name: 'Run' }).click();
  await three.locator('section.app[data-app-state="running"]').waitFor({ timeout: 30_000 });
  const canvas = appFrame(three).locator('canvas').first();
  await canvas.waitFor({ timeout: 30_000 });
  const size = await canvas.evaluate((c: HTMLCanvasElement) => [c.width, c.height]);
  assert.ok(size[0]! > 50 && size[1]! > 50, `the scene's canvas is ${size.join('×')}`);
  await wb.shot('threejs-app');

  // 2. server-sheet-music: the tune's title and staff are engraved as SVG.
  const sheet = await runToolFromPalette(wb, 'Play Sheet Music', 'sheet');
  await sheet.getByRole('button', { name: 'Run' }).click();
  await sheet.locator('section.app[data-app-state="running"]').waitFor({ timeout: 30_000 });
  const music = appFrame(sheet).locator('#sheet-music svg').first();
  await music.waitFor({ timeout: 30_000 });
  assert.match((await music.textContent()) ?? '', /Twinkle, Twinkle Little Star/);
  await wb.shot('sheet-music-app');

  // 3. server-pdf: a workspace PDF (under the roots the host offers) is read by the app through the bridge and shown.
  const pdf = await runToolFromPalette(wb, 'Display PDF', 'pdf');
  // The server asks for the roots once initialised and does not wait for them: a call before they arrive is refused
  // ("not in allowed directories"). A person takes longer than that; the test waits for the server to say it has them.
  await pollUntil(wb, () => wb.extensionLogText().includes(`Root directory allowed: ${wb.folder}`), 30_000);
  await pdf.getByLabel('url').fill(join(wb.folder, 'report.pdf'));
  await pdf.getByRole('button', { name: 'Run' }).click();
  // Its app declares clipboardWrite (copying text out of the PDF): the person is asked first, and allows it.
  const clipboardAsk = dialog(wb);
  await clipboardAsk.waitFor({ timeout: 30_000 });
  assert.match(await clipboardAsk.innerText(), /The app ui:\/\/pdf-viewer\/mcp-app\.html of "display_pdf" \(pdf\) asks to write to your clipboard/);
  await clipboardAsk.getByRole('button', { name: 'Allow' }).click();
  await pdf.locator('section.app[data-app-state="running"]').waitFor({ timeout: 30_000 });
  const viewer = appFrame(pdf);
  const shown = viewer.locator('#text-layer', { hasText: 'MCP Host sample report' });
  const failed = viewer.locator('#error-message').filter({ visible: true });
  // The viewer is a 4 MB document that starts pdf.js and its worker before it asks for the file: on a busy
  // two-core machine that alone has taken over 30 s.
  await shown.or(failed).first().waitFor({ timeout: 90_000 });
  assert.equal(await failed.count(), 0, `the viewer failed: ${await failed.allInnerTexts()}`);
  assert.match(await viewer.locator('#total-pages').innerText(), /1/);
  await wb.shot('pdf-app');
}

async function permissions(wb: Workbench): Promise<void> {
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
  // The app shows its outcome before it reports it (a tool call through the host): wait for the report.
  const clipboardReports = () =>
    reports()
      .filter((c) => c.arguments.findings?.clipboard)
      .map((c) => c.arguments.findings?.clipboard);
  await pollUntil(wb, () => clipboardReports().length >= 2, 15_000);
  assert.deepEqual(clipboardReports(), ['written', 'blocked: NotAllowedError']);

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
  await pollUntil(wb, () => reports().some((c) => c.arguments.findings?.slowTeardown), 10_000);
  const slowFindings = reports()
    .map((c) => c.arguments.findings)
    .filter((f) => f?.cancelled || f?.slowTeardown);
  assert.deepEqual(slowFindings, [{ cancelled: 'The call was cancelled.' }, { slowTeardown: true }]);
}

async function contained(wb: Workbench): Promise<void> {
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
  // Its app floods again, and is cut off again; the 20,000 messages it queued are still delivered (and dropped)
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
}

scenariosInOneWorkbench('apps-window', { servers }, [
  {
    title: 'MCP Apps examples from npm: three.js, sheet music and a workspace PDF render and call their servers',
    scenario: 'apps-examples',
    body: examples,
  },
  {
    title: "MCP Apps permissions and endings: clipboardWrite only once allowed; a cancelled call's app is told and closes itself",
    scenario: 'apps-permissions',
    body: permissions,
  },
  {
    title: 'MCP Apps contained: a silent app is closed, a hostile one fails at every attempt, a large one is refused, an updated one reloads',
    scenario: 'apps-contained',
    body: contained,
  },
]);
