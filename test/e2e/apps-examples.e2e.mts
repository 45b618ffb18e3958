// Three more MCP Apps examples from npm in the real workbench, each rendered from its server's tool result:
// server-threejs draws its scene on a canvas, server-sheet-music engraves its ABC tune, and server-pdf shows a
// workspace PDF, which its app reads from its server in chunks (the app-only tool read_pdf_bytes, through the
// bridge and the host).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import type { FrameLocator } from 'playwright-core';
import { dialog, runToolFromPalette } from './steps.mjs';
import { root, withWorkbench } from './workbench.mjs';

const example = (name: string) => ({
  type: 'stdio' as const,
  command: 'node',
  args: [join(root, `node_modules/@modelcontextprotocol/server-${name}/dist/index.js`), '--stdio'],
});

function appFrame(panel: FrameLocator): FrameLocator {
  return panel.getByRole('region', { name: 'App' }).frameLocator('iframe.app-frame');
}

test('MCP Apps examples from npm: three.js, sheet music and a workspace PDF render and call their servers', async () => {
  const servers = { threejs: example('threejs'), sheet: example('sheet-music'), pdf: example('pdf') };
  await withWorkbench('apps-examples', { servers }, async (wb) => {
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
  });
});
