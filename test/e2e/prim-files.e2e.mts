// Files in prompts and apps, in the real workbench. A prompt whose argument is a file (x-mcp-file): MCP: Get
// Prompt… opens its form with a file slot, a workspace binary is chosen, the confirmation names it, and the
// server's answer carries the sha-256 of exactly those bytes. An app that asks to download a file
// (ui/download-file): the host declared downloadFile, the person is asked, chooses where, and the saved file
// holds the app's bytes; a request over the bound is refused. A chat agent's call with a large result shows in the
// tool's panel whole, marked with the preview its model was given. No byte of either file reaches a log (trace on).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { FrameLocator } from 'playwright-core';
import { acceptSaveDialog, answerDialog, chooseFromWorkspace, dialog, fileSlot, newestResult, openQuickPick, runToolFromPalette } from './steps.mjs';
import { fixtureServer, withWorkbench } from './workbench.mjs';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

/** What the download app embeds (test/fixtures/download-app-server.ts). */
function appBytes(): Buffer {
  const b = Buffer.alloc(64 * 1024);
  for (let i = 0; i < b.length; i++) b[i] = (i * 7 + (i >> 8)) & 0xff;
  return b;
}

test("a prompt takes a workspace file intact; an app's download is saved where the person chose; an agent's large result shows whole, marked", async () => {
  // Every byte value (NULs, invalid UTF-8): what a text path would corrupt.
  const binary = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), Buffer.from(Array.from({ length: 4000 }, (_, i) => (i * 31) & 0xff))]);
  const servers = {
    prompts: { type: 'stdio' as const, command: 'node', args: [await fixtureServer('prompt-files-server')] },
    exports: { type: 'stdio' as const, command: 'node', args: [await fixtureServer('download-app-server')] },
  };
  await withWorkbench('prim-files', { servers, testModel: true, settings: { 'mcpHost.trace': true } }, async (wb) => {
    writeFileSync(join(wb.folder, 'sample.bin'), binary);

    // ── a prompt with a file argument, from MCP: Get Prompt… ──
    const row = wb.quickPickRow('summarize_document').filter({ hasText: 'prompts' }).first();
    await openQuickPick(wb, 'MCP: Get Prompt…', 'MCP: Get Prompt', 'summarize_document', row, { beforeClick: () => wb.shot('get-prompt-pick') });
    const panel = wb.webview();
    await panel.getByRole('heading', { level: 1, name: 'summarize_document' }).waitFor({ timeout: 30_000 });
    await fileSlot(panel, 'document').getByRole('button', { name: 'From workspace…' }).waitFor();
    await chooseFromWorkspace(wb, panel, 'document', 'sample.bin');
    await panel.getByRole('list', { name: 'Chosen files for document' }).getByText('sample.bin').waitFor();
    await wb.shot('prompt-file-chosen');
    await panel.getByRole('button', { name: 'Run' }).click();
    const box = dialog(wb);
    await box.waitFor({ timeout: 15_000 });
    assert.match(await box.innerText(), /sample\.bin/);
    assert.match(await box.innerText(), /prompts/);
    await answerDialog(wb, 'Send');
    const result = newestResult(panel);
    await result.waitFor({ timeout: 30_000 });
    const text = await result.innerText();
    assert.match(text, new RegExp(`document: application/octet-stream, ${binary.length} bytes, sha-256 ${sha256(binary)}`));
    // the file name companion was filled from the same pick
    assert.match(text, /file_name=sample\.bin/);
    await wb.shot('prompt-result');

    // ── an app asks to download: asked, saved where chosen, verified ──
    const appPanel = await runToolFromPalette(wb, 'Export data', 'exports');
    await appPanel.getByRole('button', { name: 'Run' }).click();
    await newestResult(appPanel).waitFor({ timeout: 30_000 });
    const app: FrameLocator = appPanel.getByRole('region', { name: 'App' }).frameLocator('iframe.app-frame');
    await app.getByText('downloadFile declared').waitFor({ timeout: 30_000 });
    await app.getByRole('button', { name: 'Download chart' }).click();
    const ask = dialog(wb);
    await ask.waitFor({ timeout: 15_000 });
    const asked = await ask.innerText();
    assert.match(asked, /The app of "Export data" \(exports\) offers a file to save/);
    assert.match(asked, /chart\.bin \(64 KiB, application\/octet-stream\)/);
    await answerDialog(wb, 'Save…');
    await acceptSaveDialog(wb, 'chart.bin');
    await app.getByText('saved', { exact: true }).waitFor({ timeout: 15_000 });
    assert.equal(sha256(readFileSync(join(wb.folder, 'chart.bin'))), sha256(appBytes()));

    // a resource link: read from the app's own server, then saved
    await app.getByRole('button', { name: 'Download report' }).click();
    await answerDialog(wb, 'Save…');
    await acceptSaveDialog(wb, 'report.csv');
    assert.equal(readFileSync(join(wb.folder, 'report.csv'), 'utf8'), 'region,total\nnorth,12\nsouth,7\n');

    // over the bound: refused before anything is asked, the app told so
    await app.getByRole('button', { name: 'Download 21 files' }).click();
    await app.getByText(/^refused: .*at most 20/).waitFor({ timeout: 15_000 });
    assert.equal(await dialog(wb).count(), 0);
    await wb.shot('app-download-refused');

    // ── a chat agent's call with a large result: the panel shows it whole, marked with what the model got ──
    // (keys typed in the app's frame stay there: the workbench gets focus back through the panel's tab)
    await wb.page.locator('.tabs-container .tab', { hasText: 'Export data (exports)' }).click();
    await wb.runCommand('Test Model: Invoke a Language Model Tool');
    await wb.answerQuickInput(`mcpHost_callTool ${JSON.stringify({ server: 'exports', tool: 'long_report', arguments: {} })}`);
    const confirm = dialog(wb);
    await confirm.waitFor({ timeout: 60_000 });
    await confirm.getByRole('button', { name: 'Yes', exact: true }).click();
    await confirm.waitFor({ state: 'hidden' });
    const reportPanel = await runToolFromPalette(wb, 'Long report', 'exports');
    const agentResult = newestResult(reportPanel);
    await agentResult.waitFor({ timeout: 30_000 });
    const note = agentResult.getByRole('note');
    assert.match(
      await note.innerText(),
      /Called by a chat agent; its model was given a preview of [\d,]+ characters \(handle r\d+, which it reads in ranges\)\. The whole result is below\./,
    );
    assert.match(await agentResult.innerText(), /MIDDLE-OF-REPORT/, 'the panel shows the whole result');
    const given = agentResult.locator('details.model-given');
    await given.locator('summary').click();
    const givenText = await given.locator('pre').innerText();
    assert.match(givenText, /report line 1\b/);
    assert.doesNotMatch(givenText, /MIDDLE-OF-REPORT/, 'the model got a preview, not the middle');
    await wb.shot('agent-result-in-panel');

    // ── no byte of either file in any log or state file (trace on) ──
    const needles = [binary.toString('base64').slice(0, 40), appBytes().toString('base64').slice(0, 40)];
    let traced = false;
    for (const file of filesUnder(wb.server.userDataDir)) {
      if (statSync(file).size > 50 * 1024 * 1024) continue;
      const content = readFileSync(file, 'latin1');
      if (content.includes('[host -> server]')) traced = true;
      for (const needle of needles) assert.ok(!content.includes(needle), `file bytes in ${file}`);
    }
    assert.ok(traced, 'the trace reached a log file');
  });
});
