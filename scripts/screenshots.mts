// `npm run screenshots`: the pictures of the README (the Marketplace listing) and of the walkthrough, taken
// in the real workbench by the end-to-end harness on the demo workspace, then made small with sharp:
//   docs/images/main-flow.gif         Run Tool from the palette → form → From workspace… → confirmation → result
//   docs/images/elicitation.png       a server's question with a file field
//   docs/images/structured-result.png a result with structured content
//   docs/images/mcp-view.png          the MCP view: servers, tools, prompts, resources
//   media/walkthrough/*.png           one picture per walkthrough step (these go into the .vsix)
// Self-contained: installs what is missing, builds, and fails (exit 1) if a step or a size limit fails.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Locator } from 'playwright-core';
import sharp from 'sharp';
import { answerDialog, describePngFromWorkspace, fillReceiptAnswer, newestResult, runToolFromPalette } from '../test/e2e/steps.mjs';
import { root, withWorkbench, type Workbench } from '../test/e2e/workbench.mjs';
import { packageVsix } from './package.mjs';
import { ensurePrerequisites } from './prerequisites.mjs';

/** Each listing image stays under this, so the Marketplace page loads fast. */
const LISTING_MAX_BYTES = 400 * 1024;
/** Walkthrough pictures ship in the .vsix: smaller. */
const WALKTHROUGH_MAX_BYTES = 200 * 1024;
const LISTING_WIDTH = 1000;
const WALKTHROUGH_WIDTH = 800;

const docsImages = join(root, 'docs/images');
const walkthroughImages = join(root, 'media/walkthrough');

/** The main flow's frames: the step screenshots `describePngFromWorkspace` takes, and how long each shows. */
const MAIN_FLOW: { shot: string; ms: number }[] = [
  { shot: 'palette', ms: 1600 },
  { shot: 'run-tool-quick-pick', ms: 1600 },
  { shot: 'tool-form', ms: 1600 },
  { shot: 'workspace-files-photo.png', ms: 1600 },
  { shot: 'file-chosen', ms: 1400 },
  { shot: 'confirmation', ms: 2200 },
  { shot: 'result', ms: 4000 },
];

/** The screenshot a step took, by the name it gave `wb.shot` (the newest, when taken more than once). */
function shotFile(wb: Workbench, name: string): string {
  const files = readdirSync(wb.artifacts)
    .filter((f) => f.endsWith(`-${name}.png`))
    .sort();
  if (files.length === 0) throw new Error(`no screenshot named ${name} in ${wb.artifacts}`);
  return join(wb.artifacts, files[files.length - 1]!);
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A palette-PNG of `input` (cut to `box`, when given) at `width`, made smaller until it fits in `maxBytes`. */
async function stillImage(input: Buffer | string, width: number, maxBytes: number, box?: Box): Promise<Buffer> {
  let region: { left: number; top: number; width: number; height: number } | undefined;
  if (box) {
    const { width: imageWidth = 0, height: imageHeight = 0 } = await sharp(input).metadata();
    const left = Math.max(0, Math.round(box.x));
    const top = Math.max(0, Math.round(box.y));
    region = { left, top, width: Math.min(Math.round(box.width), imageWidth - left), height: Math.min(Math.round(box.height), imageHeight - top) };
  }
  const source = region ? await sharp(input).extract(region).toBuffer() : input;
  for (let w = Math.min(width, region?.width ?? width); ; w = Math.round(w * 0.9)) {
    const out = await sharp(source).resize({ width: w }).png({ palette: true, colours: 128, effort: 10, compressionLevel: 9 }).toBuffer();
    if (out.length <= maxBytes) return out;
    if (w < width / 2) throw new Error(`a picture stays over ${maxBytes} bytes even at ${w} px wide`);
  }
}

/** An animated GIF of the frames, each shown for its time, made smaller until it fits in `maxBytes`. */
async function animation(frames: { file: string; ms: number }[], width: number, maxBytes: number): Promise<Buffer> {
  for (let w = width; ; w = Math.round(w * 0.9)) {
    const resized = await Promise.all(frames.map((f) => sharp(f.file).resize({ width: w }).png().toBuffer()));
    const out = await sharp(resized, { join: { animated: true } })
      .gif({ delay: frames.map((f) => f.ms), loop: 0, colours: 128, effort: 10, interFrameMaxError: 4, interPaletteMaxError: 8 })
      .toBuffer();
    if (out.length <= maxBytes) return out;
    if (w < width / 2) throw new Error(`the animation stays over ${maxBytes} bytes even at ${w} px wide`);
  }
}

/** A README picture, docs/images/<name>. */
async function listingImage(name: string, input: Buffer | string): Promise<void> {
  write(join(docsImages, name), await stillImage(input, LISTING_WIDTH, LISTING_MAX_BYTES), LISTING_MAX_BYTES);
}

/** A walkthrough step's picture, media/walkthrough/<name>: the part of the window the step is about. */
async function walkthroughImage(name: string, input: Buffer | string, box: Box): Promise<void> {
  write(join(walkthroughImages, name), await stillImage(input, WALKTHROUGH_WIDTH, WALKTHROUGH_MAX_BYTES, box), WALKTHROUGH_MAX_BYTES);
}

function write(file: string, data: Buffer, maxBytes: number): void {
  if (data.length > maxBytes) throw new Error(`${file} is ${data.length} bytes, over ${maxBytes}`);
  writeFileSync(file, data);
  console.log(`${relative(root, file)}: ${(data.length / 1024).toFixed(0)} KB`);
}

/** Types a line into the integrated terminal and waits until `expect` shows in it. */
async function terminalLine(wb: Workbench, line: string, expect?: RegExp): Promise<void> {
  await wb.page.keyboard.type(line);
  await wb.page.keyboard.press('Enter');
  if (expect) await wb.page.locator('.terminal-wrapper.active .xterm-rows').filter({ hasText: expect }).first().waitFor({ timeout: 30_000 });
}

async function takeScreenshots(): Promise<void> {
  mkdirSync(docsImages, { recursive: true });
  mkdirSync(walkthroughImages, { recursive: true });
  // the extension as users get it: the packaged .vsix, installed (no "Extension Development Host" in the title)
  const vsix = packageVsix(join(root, '.cache/mcp-host-screenshots.vsix'));
  // the terminal's DOM renderer, so the CLI's output can be waited for as text
  const settings = { 'terminal.integrated.gpuAcceleration': 'off' };
  await withWorkbench('screenshots', { folderName: 'my-project', vsix, settings }, async (wb) => {
    // ── the main flow ──
    await wb.openPalette('MCP: Run Tool…');
    await wb.shot('palette');
    await wb.page.keyboard.press('Escape');
    await describePngFromWorkspace(wb);
    write(
      join(docsImages, 'main-flow.gif'),
      await animation(
        MAIN_FLOW.map((f) => ({ file: shotFile(wb, f.shot), ms: f.ms })),
        LISTING_WIDTH,
        LISTING_MAX_BYTES,
      ),
      LISTING_MAX_BYTES,
    );
    const editor = await box(wb.page.locator('.part.editor'));
    await walkthroughImage('run-tool.png', shotFile(wb, 'result'), editor);
    await walkthroughImage('attach-file.png', shotFile(wb, 'confirmation'), editor);

    // ── a structured result ──
    const report = await runToolFromPalette(wb, 'Export a report');
    await report.getByRole('button', { name: 'Run' }).click();
    const structured = newestResult(report)
      .filter({ hasText: /Generated Weekly-report\.csv/ })
      .locator('details.structured');
    await structured.getByRole('group').first().waitFor({ timeout: 30_000 });
    await structured.scrollIntoViewIfNeeded();
    await listingImage('structured-result.png', await readShot(wb, 'structured-result'));

    // ── a server's question with a file field ──
    const receipt = await runToolFromPalette(wb, 'Record a receipt');
    await receipt.getByRole('button', { name: 'Run' }).click();
    const question = wb.webview();
    await question.getByLabel('Message').waitFor({ timeout: 30_000 });
    await fillReceiptAnswer(wb, question);
    const elicitation = await readShot(wb, 'elicitation');
    await listingImage('elicitation.png', elicitation);
    await walkthroughImage('answer-question.png', elicitation, editor);
    await question.getByRole('button', { name: 'Accept' }).click();
    await answerDialog(wb, 'Send');
    await newestResult(wb.webview())
      .filter({ hasText: /Recorded a receipt/ })
      .waitFor({ timeout: 30_000 });

    // ── the MCP view, the demo server's tools shown ──
    await wb.page.locator('.activitybar [aria-label^="MCP"]').first().click();
    const tree = wb.page.getByRole('tree', { name: 'Servers' });
    const demo = tree.getByRole('treeitem', { name: /^demo, / });
    await demo.waitFor({ timeout: 30_000 });
    if ((await demo.getAttribute('aria-expanded')) !== 'true') await demo.click();
    await tree.getByRole('treeitem').filter({ hasText: 'Describe a file' }).first().waitFor({ timeout: 30_000 });
    await listingImage('mcp-view.png', await readShot(wb, 'mcp-view'));

    // ── MCP: Add Server… ──
    await wb.runCommand('MCP: Add Server…');
    await wb.quickPickRow('Command (stdio)').first().waitFor({ timeout: 15_000 });
    // the quick pick with the MCP view beside it
    const pick = await box(wb.quickInput);
    const sideBar = await box(wb.page.locator('.part.sidebar'));
    await walkthroughImage('add-server.png', await readShot(wb, 'add-server'), {
      x: 0,
      y: 0,
      width: pick.x + pick.width + 24,
      height: Math.max(pick.y + pick.height + 24, sideBar.height * 0.45),
    });
    await wb.page.keyboard.press('Escape');

    // ── the CLI in the integrated terminal, on the workspace's .vscode/mcp.json ──
    await wb.runCommand('Terminal: Create New Terminal');
    const terminal = wb.page.locator('.terminal-wrapper.active .xterm').first();
    await terminal.locator('.xterm-rows').filter({ hasText: /[$#>]/ }).waitFor({ timeout: 30_000 }); // the shell's prompt
    await terminal.click();
    await terminal.locator('textarea.xterm-helper-textarea').and(wb.page.locator(':focus')).waitFor({ timeout: 10_000 });
    await terminalLine(wb, `export PS1='$ '; alias mcp-host='node ${join(root, 'dist/cli.js')}'; clear`);
    await wb.page.waitForTimeout(1000);
    await terminalLine(wb, 'mcp-host tools --server demo', /export_report/);
    await terminalLine(wb, 'mcp-host call describe_file --file file=photo.png --server demo', /64 × 48 pixels/);
    await walkthroughImage('cli.png', await readShot(wb, 'cli'), await box(wb.page.locator('.part.panel')));
  });
}

/** Where an element is in the window. */
async function box(element: Locator): Promise<Box> {
  const found = await element.boundingBox();
  if (!found) throw new Error(`${element} is not shown`);
  return found;
}

/** A screenshot of the whole window, kept with the others, as bytes. */
async function readShot(wb: Workbench, name: string): Promise<Buffer> {
  await wb.page.waitForTimeout(300); // let the last layout and fade settle
  return readFileSync(await wb.shot(name));
}

await ensurePrerequisites({ workbench: true });
const build = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(1);
try {
  await takeScreenshots();
  for (const dir of [docsImages, walkthroughImages]) {
    for (const f of readdirSync(dir)) console.log(`  ${relative(root, join(dir, f))} ${statSync(join(dir, f)).size} bytes`);
  }
} catch (e) {
  console.error(`screenshots failed: ${(e as Error).stack ?? e}`);
  process.exit(1);
}
process.exit(0);
