// What a language model does through the host, files in prompts and apps, and questions an app renders, in one
// window with the test model, run in turn (see `scenariosInOneWorkbench`).
//
// The confirmation a chat agent's call of mcpHost_callTool gets outside a chat session (vscode.lm.invokeTool without a
// toolInvocationToken): VS Code's own modal dialog, with the title and text the extension prepared. Cancel: the
// extension's tool is never invoked, the server receives nothing, and the caller gets VS Code's cancellation. Yes: the
// workspace image reaches describe_file. The call is made by the test model extension's "Invoke a Language Model
// Tool" command, as an agent would; the demo server runs behind the recording proxy.
//
// Sampling through VS Code's language models: server-everything's trigger-sampling-request opens the
// approval panel (server, system prompt, message, maxTokens, the test model preselected), Approve streams the
// test model's answer into it, Send answer returns it to the server; a second request is edited before the
// model sees it and its answer before the server gets it; a third is declined. A request with an image and an
// audio clip (test/fixtures/sampling-server.ts) shows both, decoded by the panel under its CSP.
//
// Files in prompts and apps, in the real workbench. A prompt whose argument is a file (x-mcp-file): MCP: Get
// Prompt… opens its form with a file slot, a workspace binary is chosen, the confirmation names it, and the
// server's answer carries the sha-256 of exactly those bytes. An app that asks to download a file
// (ui/download-file): the host declared downloadFile, the person is asked, chooses where, and the saved file
// holds the app's bytes; a request over the bound is refused. A chat agent's call with a large result shows in the
// tool's panel whole, marked with the preview its model was given. No byte of either file reaches a log (trace on).
//
// App-rendered questions (SEP-3118), sampling and display modes from an app, in the real workbench: a question
// naming a good app is answered in it (the app sees only the question: the host capabilities it is given say
// so); an app that answers out of schema, one whose resource cannot be read and one that never starts each give
// way to the native form, which says why; the same in an MRTR (input_required) round of a 2026-07-28 server; a
// tool's app asking for picture-in-picture keeps its mode (pip is not offered), and its sampling request opens
// the approval panel naming the app and its server.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import type { FrameLocator } from 'playwright-core';
import {
  acceptSaveDialog,
  answerDialog,
  appFrame,
  chooseFromWorkspace,
  clickClosingItsFrame,
  dialog,
  fileSlot,
  newestResult,
  openQuickPick,
  runToolFromPalette,
} from './steps.mjs';
import { demoServer, fixtureServer, root, scenariosInOneWorkbench, type Workbench } from './workbench.mjs';

const CALL = `mcpHost_callTool ${JSON.stringify({ server: 'recorded', tool: 'describe_file', arguments: { file: 'photo.png' } })}`;

function notice(wb: Workbench, text: string) {
  return wb.page.locator('.notifications-center .notification-list-item', { hasText: text });
}

const everythingEntry = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const TOOL = 'Trigger Sampling Request Tool';
/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/** 0.1 s of silence: a WAV of 8 kHz, 8-bit mono samples. */
function silentWav(): Buffer {
  const samples = 800;
  const wav = Buffer.alloc(44 + samples, 128);
  wav.write('RIFF', 0);
  wav.writeUInt32LE(36 + samples, 4);
  wav.write('WAVEfmt ', 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(8000, 24);
  wav.writeUInt32LE(8000, 28);
  wav.writeUInt16LE(1, 32);
  wav.writeUInt16LE(8, 34);
  wav.write('data', 36);
  wav.writeUInt32LE(samples, 40);
  return wav;
}

async function toolResult(wb: Workbench, pattern: RegExp): Promise<string> {
  await wb.page
    .locator('.tabs-container .tab', { hasText: `${TOOL} (everything)` })
    .first()
    .click();
  const result = newestResult(wb.webview()).filter({ hasText: pattern });
  await result.waitFor({ timeout: 30_000 });
  return result.innerText();
}

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

// Every byte value (NULs, invalid UTF-8): what a text path would corrupt.
const binary = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), Buffer.from(Array.from({ length: 4000 }, (_, i) => (i * 31) & 0xff))]);

async function toolTab(wb: Workbench, title: string): Promise<FrameLocator> {
  await wb.page.locator('.tabs-container .tab', { hasText: title }).first().click();
  return wb.webview();
}

async function ask(wb: Workbench, tool: FrameLocator, app: string): Promise<FrameLocator> {
  await tool.getByLabel('app').selectOption(app);
  await tool.getByRole('button', { name: 'Run' }).click();
  const question = wb.webview();
  await question.getByRole('heading', { level: 1, name: 'questions asks' }).waitFor({ timeout: 30_000 });
  return question;
}

/** The native form the question fell back to: its note says why; answered Red, it reaches the server. */
async function answerInForm(wb: Workbench, question: FrameLocator, why: RegExp, result: RegExp, tab: string): Promise<void> {
  const note = question.locator('.warning', { hasText: 'could not answer this question' });
  await note.waitFor({ timeout: 30_000 });
  assert.match(await note.innerText(), why);
  await question.getByLabel('Colour').selectOption('red');
  await question.getByRole('button', { name: 'Accept' }).click();
  const tool = await toolTab(wb, tab);
  await newestResult(tool).filter({ hasText: result }).waitFor({ timeout: 30_000 });
}

const records = mkdtempSync(join(tmpdir(), 'agent-confirm-'));
after(() => rmSync(records, { recursive: true, force: true }));
const recordFile = join(records, 'calls.jsonl');
const calls = () => (existsSync(recordFile) ? readFileSync(recordFile, 'utf8').split('\n').filter(Boolean) : []);
const servers = {
  recorded: {
    type: 'stdio' as const,
    command: 'node',
    args: [await fixtureServer('recording-proxy')],
    env: { RECORDING_PROXY_SCRIPT: demoServer, RECORDING_PROXY_FILE: recordFile },
  },
  everything: { type: 'stdio' as const, command: 'node', args: [everythingEntry, 'stdio'] },
  mediafixture: { type: 'stdio' as const, command: 'node', args: [await fixtureServer('sampling-server')] },
  prompts: { type: 'stdio' as const, command: 'node', args: [await fixtureServer('prompt-files-server')] },
  exports: { type: 'stdio' as const, command: 'node', args: [await fixtureServer('download-app-server')] },
  questions: { type: 'stdio' as const, command: 'node', args: [await fixtureServer('app-questions-server')] },
  mrtr: { type: 'stdio' as const, command: 'node', args: [await fixtureServer('app-questions-era2026-server')] },
};

async function agentConfirm(wb: Workbench): Promise<void> {
  await wb.runCommand('Test Model: Invoke a Language Model Tool');
  await wb.answerQuickInput(CALL);
  const box = dialog(wb);
  await box.waitFor({ timeout: 60_000 });
  const asked = await box.innerText();
  assert.match(asked, /Run "describe_file" on "recorded" with 1 file\?/);
  assert.match(asked, /photo\.png \(image\/png, 7 KiB\)/);
  await wb.shot('agent-confirmation');
  await box.getByRole('button', { name: 'Cancel', exact: true }).click();
  await box.waitFor({ state: 'hidden' });

  // toasts stay hidden in this headless window, so the outcome is read in the notification centre
  await wb.runCommand('Notifications: Show Notifications');
  const declined = notice(wb, 'invokeTool mcpHost_callTool failed');
  await declined.waitFor({ timeout: 15_000 });
  assert.match(await declined.innerText(), /Canceled/);
  assert.deepEqual(calls(), [], 'the server received nothing');
  await wb.shot('agent-declined');

  await wb.runCommand('Test Model: Invoke a Language Model Tool');
  await wb.answerQuickInput(CALL);
  await box.waitFor({ timeout: 30_000 });
  await box.getByRole('button', { name: 'Yes', exact: true }).click();
  await box.waitFor({ state: 'hidden' });
  const sent = notice(wb, 'invokeTool mcpHost_callTool returned');
  await sent.waitFor({ timeout: 30_000 });
  assert.match(await sent.innerText(), /Type: image\/png/);
  assert.equal(calls().length, 1, 'the confirmed call reached the server once');
  await wb.shot('agent-confirmed');
}

async function sampling(wb: Workbench): Promise<void> {
  const prompt = 'tides [slow] rise and fall twice a day along most coasts of the world';
  const tool = await runToolFromPalette(wb, TOOL, 'everything');
  await tool.getByRole('textbox', { name: 'prompt', exact: true }).fill(prompt);
  await tool.getByRole('button', { name: 'Run' }).click();

  const panel = wb.webview();
  const approve = panel.getByRole('button', { name: 'Approve' });
  await approve.waitFor({ timeout: 30_000 });
  assert.equal(await panel.getByRole('heading', { level: 1 }).innerText(), 'everything asks a language model');
  assert.match(await panel.locator('.system-prompt').innerText(), /You are a helpful test server\./);
  assert.equal(await panel.locator('.sampling-message .text-block').innerText(), `Resource trigger-sampling-request context: ${prompt}`);
  assert.equal(await panel.getByLabel('Max tokens').innerText(), '100');
  const model = panel.getByRole('combobox', { name: 'Model' });
  assert.match(await model.locator('option:checked').innerText(), /Test Echo.* \(mcp-host-test\)/);
  await model.selectOption({ label: 'Test Echo (mcp-host-test)' });
  await wb.shot('sampling-request');

  await approve.click();
  // [slow]: the test model streams three words every 400 ms, so the panel shows the answer growing.
  await panel.getByText('The model is answering…').waitFor({ timeout: 30_000 });
  const answer = panel.getByRole('textbox', { name: 'Answer text' });
  await panel.locator('textarea.answer-text').waitFor({ timeout: 30_000 });
  const partial = await answer.inputValue();
  await wb.shot('sampling-streaming');
  const send = panel.getByRole('button', { name: 'Send answer' });
  await send.waitFor({ timeout: 30_000 });
  const expected = `test-echo: Resource trigger-sampling-request context: ${prompt}`;
  assert.equal(await answer.inputValue(), expected);
  assert.ok(expected.startsWith(partial) && partial.length < expected.length, `streamed: first "${partial}"`);
  await wb.shot('sampling-answer');
  await send.click();

  const result = await toolResult(wb, /LLM sampling result/);
  assert.ok(result.includes(`"text": "${expected}"`), result);
  assert.match(result, /"model": "test-echo"/);
  await wb.shot('sampling-result');

  // Edit: the message is changed before the model sees it, and the answer before the server gets it.
  await wb.webview().getByRole('button', { name: 'Run' }).click();
  const edited = wb.webview();
  await edited.getByRole('button', { name: 'Edit' }).click();
  await edited.getByRole('textbox', { name: 'Message 1', exact: true }).fill('what makes the tides?');
  await wb.shot('sampling-edit');
  await edited.getByRole('button', { name: 'Approve' }).click();
  const editedAnswer = edited.getByRole('textbox', { name: 'Answer text' });
  await edited.getByRole('button', { name: 'Send answer' }).waitFor({ timeout: 30_000 });
  assert.equal(await editedAnswer.inputValue(), 'test-echo: what makes the tides?');
  await editedAnswer.fill('The moon, mostly.');
  await edited.getByRole('button', { name: 'Send answer' }).click();
  assert.match(await toolResult(wb, /The moon, mostly\./), /"text": "The moon, mostly\."/);

  // A declined request is an error to the server that says so.
  await wb.webview().getByRole('button', { name: 'Run' }).click();
  const again = wb.webview();
  await again.getByRole('button', { name: 'Approve' }).waitFor({ timeout: 30_000 });
  await again.getByRole('button', { name: 'Decline' }).click();
  const declined = await toolResult(wb, /User rejected sampling request/);
  assert.match(declined, /User rejected sampling request: the user declined it/);
  await wb.shot('sampling-declined');

  // Media: the image and the audio clip the server sends are shown, and they decode.
  const media = await runToolFromPalette(wb, 'sample', 'mediafixture');
  const params = {
    maxTokens: 50,
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'what is in this picture and this recording?' },
          { type: 'image', mimeType: 'image/png', data: PNG },
          { type: 'audio', mimeType: 'audio/wav', data: silentWav().toString('base64') },
        ],
      },
    ],
  };
  await media.getByRole('textbox', { name: 'params', exact: true }).fill(JSON.stringify(params));
  await media.getByRole('button', { name: 'Run' }).click();
  const asked = wb.webview();
  await asked.getByRole('button', { name: 'Approve' }).waitFor({ timeout: 30_000 });
  const image = asked.getByRole('img', { name: 'image (image/png, 68 bytes)' });
  await image.waitFor({ timeout: 10_000 });
  await asked.locator('img.sampling-media').evaluate((img: HTMLImageElement) => img.decode());
  assert.equal(await asked.locator('img.sampling-media').evaluate((img: HTMLImageElement) => img.naturalWidth), 1);
  const audio = asked.locator('audio.sampling-media');
  assert.equal(await audio.getAttribute('aria-label'), 'audio (audio/wav, 844 bytes)');
  const duration = await audio.evaluate(
    (a: HTMLAudioElement) =>
      new Promise<number>((resolve, reject) => {
        if (a.readyState >= 1) resolve(a.duration);
        a.addEventListener('loadedmetadata', () => resolve(a.duration));
        a.addEventListener('error', () => reject(new Error(`audio error ${a.error?.code}`)));
        setTimeout(() => reject(new Error('no audio metadata within 10 s')), 10_000);
      }),
  );
  assert.ok(Math.abs(duration - 0.1) < 0.01, `duration ${duration}`);
  await wb.shot('sampling-media');
  await asked.getByRole('button', { name: 'Decline' }).click();
}

async function primitiveFiles(wb: Workbench): Promise<void> {
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
}

async function appQuestions(wb: Workbench): Promise<void> {
  // 1. A good app: shown in the question panel with the server's message, sent the question unchanged; it is
  //    offered nothing else (its host capabilities), and its answer (checked) reaches the server.
  const tool = await runToolFromPalette(wb, 'ask', 'questions');
  let question = await ask(wb, tool, 'good');
  assert.equal(await question.getByLabel('Message', { exact: true }).innerText(), 'Which colour?');
  const good = appFrame(question);
  await good.locator('#question', { hasText: 'Which colour? (color, count)' }).waitFor({ timeout: 30_000 });
  assert.deepEqual(JSON.parse(await good.locator('#caps').innerText()), { logging: {}, elicitation: {} });
  assert.equal(await question.getByRole('button', { name: 'Answer in a form instead' }).count(), 1);
  await wb.shot('app-question');
  await clickClosingItsFrame(good.getByRole('button', { name: 'Green' }));
  let panel = await toolTab(wb, 'ask (questions)');
  await newestResult(panel).filter({ hasText: 'app-rendered answer: {"action":"accept","content":{"color":"green","count":3}}' }).waitFor({ timeout: 30_000 });

  // 2. An app answering out of schema: the form instead, saying what did not fit.
  question = await ask(wb, panel, 'wrong');
  await answerInForm(
    wb,
    question,
    /does not fit the question: .*\/color: Must be one of the listed choices.*\/count: Must be at most 5/,
    /app-rendered answer: \{"action":"accept","content":\{"color":"red"\}\}/,
    'ask (questions)',
  );
  await wb.shot('out-of-schema-fallback');

  // 3. An app whose resource cannot be read: the form at once.
  panel = await toolTab(wb, 'ask (questions)');
  question = await ask(wb, panel, 'missing');
  await answerInForm(
    wb,
    question,
    /ui:\/\/questions\/missing\.html could not answer this question: .*no resource/,
    /app-rendered answer: \{"action":"accept","content":\{"color":"red"\}\}/,
    'ask (questions)',
  );

  // 4. An app that never completes its handshake: the form after the start limit.
  panel = await toolTab(wb, 'ask (questions)');
  question = await ask(wb, panel, 'silent');
  await question.getByRole('region', { name: 'App' }).waitFor({ timeout: 30_000 });
  await answerInForm(wb, question, /did not start within \d+ s/, /app-rendered answer: \{"action":"accept","content":\{"color":"red"\}\}/, 'ask (questions)');
  await wb.shot('silent-app-fallback');

  // 5. The same question in an input_required (MRTR) round of a 2026-07-28 server: answered by its app.
  const mrtr = await runToolFromPalette(wb, 'ask_mrtr', 'mrtr');
  await mrtr.getByRole('button', { name: 'Run' }).click();
  const again = wb.webview();
  await again.getByRole('heading', { level: 1, name: 'mrtr asks' }).waitFor({ timeout: 30_000 });
  const mrtrApp = appFrame(again);
  await mrtrApp.locator('#question', { hasText: 'Which colour, again?' }).waitFor({ timeout: 30_000 });
  await clickClosingItsFrame(mrtrApp.getByRole('button', { name: 'Red' }));
  const mrtrPanel = await toolTab(wb, 'ask_mrtr (mrtr)');
  await newestResult(mrtrPanel).filter({ hasText: 'mrtr answer: {"action":"accept","content":{"color":"red","count":3}}' }).waitFor({ timeout: 30_000 });

  // 6. A tool's app: offered inline and fullscreen only; asking for pip keeps it inline. Its sampling request
  //    opens the approval panel, which names the app and its server; the model's answer reaches the app.
  const sampler = await runToolFromPalette(wb, 'sample_from_app', 'questions');
  await sampler.getByRole('button', { name: 'Run' }).click();
  // (beside the tool's panel, so the app keeps running meanwhile: the second visible webview)
  const approval = wb.page.locator('iframe.webview.ready').filter({ visible: true }).nth(1).contentFrame().frameLocator('iframe#active-frame');
  const approve = approval.getByRole('button', { name: 'Approve' });
  await approve.waitFor({ timeout: 30_000 });
  assert.equal(await approval.getByRole('heading', { level: 1 }).innerText(), 'The app ui://sampler/app.html of questions asks a language model');
  await wb.shot('app-sampling-approval');
  await approve.click();
  await approval.getByRole('button', { name: 'Send answer' }).click({ timeout: 30_000 });
  await wb.page.locator('.tabs-container .tab', { hasText: 'asks a model' }).waitFor({ state: 'detached', timeout: 15_000 });
  const samplerPanel = wb.webview();
  const samplerApp = appFrame(samplerPanel);
  await samplerApp.locator('#sampled', { hasText: 'model said: test-echo: a haiku about lighthouses' }).waitFor({ timeout: 30_000 });
  assert.equal(await samplerApp.locator('#modes').innerText(), 'offered: inline,fullscreen; now inline');
  assert.equal(await samplerApp.locator('#pip').innerText(), 'pip answered: inline');
  const caps = JSON.parse(await samplerApp.locator('#caps').innerText()) as Record<string, unknown>;
  assert.deepEqual(Object.keys(caps).sort(), [
    'downloadFile',
    'logging',
    'message',
    'openLinks',
    'sampling',
    'serverResources',
    'serverTools',
    'updateModelContext',
  ]);
  await wb.shot('app-sampled');
}

// the trace is on for the files scenario's check that no byte of its files reaches a log
scenariosInOneWorkbench('language-model', { servers, testModel: true, settings: { 'mcpHost.trace': true } }, [
  {
    title: "an agent's tool call outside chat: VS Code's dialog names the file, the tool and the server; Cancel sends nothing, Yes sends the file",
    scenario: 'agent-confirm',
    body: agentConfirm,
  },
  {
    title: 'sampling: the approval panel shows the request, the streamed answer is approved and returned; Edit changes both; a decline is reported',
    scenario: 'sampling',
    body: sampling,
  },
  {
    title: "a prompt takes a workspace file intact; an app's download is saved where the person chose; an agent's large result shows whole, marked",
    scenario: 'prim-files',
    body: primitiveFiles,
  },
  {
    title: 'app-rendered questions: a good app answers; a broken, silent or out-of-schema one gives way to the form; MRTR too; sampling and pip from an app',
    scenario: 'apps-questions',
    body: appQuestions,
  },
]);
