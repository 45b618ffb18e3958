// MCP Apps examples from npm, and apps' permissions and endings, in one window run in turn (see
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
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { appFrame, appsFixtureRecord, dialog, pollUntil, runToolFromPalette } from './steps.mjs';
import { fixtureServer, root, scenariosInOneWorkbench, type Workbench } from './workbench.mjs';

const example = (name: string) => ({
  type: 'stdio' as const,
  command: 'node',
  args: [join(root, `node_modules/@modelcontextprotocol/server-${name}/dist/index.js`), '--stdio'],
});

const record = join(tmpdir(), `apps-endings-record-${process.pid}-${Date.now()}.jsonl`);
writeFileSync(record, '');
after(() => rmSync(record, { force: true }));
const servers = {
  threejs: example('threejs'),
  sheet: example('sheet-music'),
  pdf: example('pdf'),
  apps: { type: 'stdio' as const, command: 'node', args: [await fixtureServer('apps-server')], env: { APPS_FIXTURE_RECORD: record } },
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

scenariosInOneWorkbench('apps-examples-permissions', { servers }, [
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
]);
