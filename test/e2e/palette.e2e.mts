// The demo server from the MCP view and the palette: its tools and prompts listed, a prompt's form, a question
// answered with a workspace file, and a long call cancelled. One window runs them in turn (see
// `scenariosInOneWorkbench`); the MCP view's comes first, as it starts the server itself.
import assert from 'node:assert/strict';
import { answerDialog, chooseFromPalette, fillReceiptAnswer, newestResult, openQuickPick, runToolFromPalette } from './steps.mjs';
import { scenariosInOneWorkbench, type Workbench } from './workbench.mjs';

async function serversView(wb: Workbench): Promise<void> {
  await wb.page.locator('.activitybar [aria-label^="MCP"]').first().click();
  const view = wb.page.locator('.pane', { has: wb.page.locator('.pane-header', { hasText: 'Servers' }) });
  const server = view.locator('.monaco-list-row', { hasText: 'demo' }).first();
  await server.waitFor({ timeout: 30_000 });
  await wb.shot('servers-view');
  await chooseFromPalette(wb, 'MCP: Start Server', 'demo');
  await view.locator('.monaco-list-row', { hasText: 'Describe a file' }).first().waitFor({ timeout: 30_000 });
  await wb.shot('server-running-with-tools');
  const rows = await view.locator('.monaco-list-row').allInnerTexts();
  for (const tool of ['Describe a file', 'Compare images', 'Count slowly']) {
    assert.ok(
      rows.some((r) => r.includes(tool)),
      `${tool} in ${rows.join(' | ')}`,
    );
  }

  // a prompt: clicked in the view, its arguments are a form, its messages the result
  await view.locator('.monaco-list-row', { hasText: 'Try the demo' }).first().click();
  const panel = wb.webview();
  await panel.getByRole('heading', { level: 1, name: 'Try the demo' }).waitFor({ timeout: 30_000 });
  await panel.getByRole('button', { name: 'Run' }).click();
  await panel.getByText('Required.').waitFor();
  await wb.shot('prompt-argument-required');
  await panel.getByRole('textbox', { name: /^file/i }).fill('notes.txt');
  await panel.getByRole('button', { name: 'Run' }).click();
  const result = newestResult(panel);
  await result.filter({ hasText: 'What is notes.txt?' }).waitFor({ timeout: 30_000 });
  await wb.shot('prompt-messages');
  assert.match(await result.innerText(), /User\s+(Markdown\s+)?What is notes\.txt\?\s+Assistant\s+(Markdown\s+)?Run "Describe a file" and choose notes\.txt/);
}

async function palette(wb: Workbench): Promise<void> {
  await wb.shot('workbench-loaded');
  await wb.openPalette('MCP: Run Tool…');
  await wb.shot('palette-lists-run-tool');
  await wb.page.keyboard.press('Escape');

  const row = wb.quickPickRow('Try the demo').filter({ hasText: 'demo' }).first();
  await openQuickPick(wb, 'MCP: Get Prompt…', 'MCP: Get Prompt', 'demo', row);
  await wb.shot('prompt-quick-pick');
  assert.equal(await wb.quickPickRow('Describe a file').count(), 0, 'tools are not offered as prompts');
  await row.click();
  await wb.webview().getByRole('heading', { level: 1, name: 'Try the demo' }).waitFor({ timeout: 30_000 });
  await wb.shot('prompt-form');
}

/** Runs the tool from its open panel and waits for the server's question. */
async function runAndWaitForQuestion(wb: Workbench): Promise<void> {
  await wb.webview().getByRole('button', { name: 'Run' }).click();
  const question = wb.webview().getByLabel('Message');
  await question.waitFor({ timeout: 30_000 });
  assert.match(await question.innerText(), /Please choose a photo of the receipt/);
}

async function toolResult(wb: Workbench, pattern: RegExp): Promise<string> {
  const result = newestResult(wb.webview()).filter({ hasText: pattern });
  await result.waitFor({ timeout: 30_000 });
  return result.innerText();
}

async function elicitation(wb: Workbench): Promise<void> {
  await runToolFromPalette(wb, 'Record a receipt');

  // 1. accept, with a photo from the workspace
  await runAndWaitForQuestion(wb);
  await wb.shot('question');
  const question = wb.webview();
  await fillReceiptAnswer(wb, question);
  await wb.shot('answer-filled');
  await question.getByRole('button', { name: 'Accept' }).click();
  await answerDialog(wb, 'Send');
  const accepted = await toolResult(wb, /Recorded a receipt/);
  await wb.shot('accepted-result');
  assert.match(accepted, /Recorded a receipt from Corner Café \(other\): 12\.50/);
  assert.match(accepted, /image\/png, 7214 bytes, 64 × 48/);

  // 2. decline
  await runAndWaitForQuestion(wb);
  await wb.webview().getByRole('button', { name: 'Decline' }).click();
  await toolResult(wb, /you chose decline/);
  await wb.shot('declined-result');

  // 3. cancel
  await runAndWaitForQuestion(wb);
  await wb.webview().getByRole('button', { name: 'Cancel' }).click();
  await toolResult(wb, /you chose cancel/);
  await wb.shot('cancelled-result');
}

async function cancel(wb: Workbench): Promise<void> {
  const panel = await runToolFromPalette(wb, 'Count slowly');
  await panel.getByRole('spinbutton', { name: 'Seconds' }).fill('30');
  await panel.getByRole('button', { name: 'Run' }).click();
  await panel.getByText(/Counted \d+ of 150/).waitFor({ timeout: 30_000 });
  await wb.shot('running-with-progress');
  const started = Date.now();
  await panel.getByRole('button', { name: 'Cancel' }).click();
  await panel.getByText('Cancelled.').waitFor({ timeout: 10_000 });
  await wb.shot('cancelled');
  assert.ok(Date.now() - started < 10_000);
  // the count does not go on to a result
  await wb.page.waitForTimeout(2000);
  assert.equal(await panel.getByText(/Counted to 150/).count(), 0);
  assert.equal(await panel.getByRole('button', { name: 'Run' }).isEnabled(), true, 'the form can run again');
}

scenariosInOneWorkbench('demo-palette', {}, [
  {
    title: 'the MCP view lists the configured server and, once it runs, its tools; a prompt clicked there opens its form and shows its messages',
    scenario: 'servers-view',
    body: serversView,
  },
  {
    title: 'the command palette lists MCP: Run Tool… once the extension is loaded, and MCP: Get Prompt… offers the prompts',
    scenario: 'palette',
    body: palette,
  },
  {
    title: 'receipt_from_photo asks for a photo: accept sends it, decline and cancel are reported as such',
    scenario: '5-elicitation',
    body: elicitation,
  },
  { title: 'a long-running tool shows its progress and stops when cancelled', scenario: '6-cancel', body: cancel },
]);
