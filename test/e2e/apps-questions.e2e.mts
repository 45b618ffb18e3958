// App-rendered questions (SEP-3118), sampling and display modes from an app, in the real workbench: a question
// naming a good app is answered in it (the app sees only the question: the host capabilities it is given say
// so); an app that answers out of schema, one whose resource cannot be read and one that never starts each give
// way to the native form, which says why; the same in an MRTR (input_required) round of a 2026-07-28 server; a
// tool's app asking for picture-in-picture keeps its mode (pip is not offered), and its sampling request opens
// the approval panel naming the app and its server.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FrameLocator } from 'playwright-core';
import { newestResult, runToolFromPalette } from './steps.mjs';
import { fixtureServer, withWorkbench, type Workbench } from './workbench.mjs';

function appFrame(panel: FrameLocator): FrameLocator {
  return panel.getByRole('region', { name: 'App' }).frameLocator('iframe.app-frame');
}

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

test('app-rendered questions: a good app answers; a broken, silent or out-of-schema one gives way to the form; MRTR too; sampling and pip from an app', async () => {
  const servers = {
    questions: { type: 'stdio' as const, command: 'node', args: [await fixtureServer('app-questions-server')] },
    mrtr: { type: 'stdio' as const, command: 'node', args: [await fixtureServer('app-questions-era2026-server')] },
  };
  await withWorkbench('apps-questions', { servers, testModel: true }, async (wb) => {
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
    await good.getByRole('button', { name: 'Green' }).click();
    let panel = await toolTab(wb, 'ask (questions)');
    await newestResult(panel)
      .filter({ hasText: 'app-rendered answer: {"action":"accept","content":{"color":"green","count":3}}' })
      .waitFor({ timeout: 30_000 });

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
    await mrtrApp.getByRole('button', { name: 'Red' }).click();
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
  });
});
