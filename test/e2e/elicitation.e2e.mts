import assert from 'node:assert/strict';
import { test } from 'node:test';
import { answerDialog, chooseFromWorkspace, newestResult, runToolFromPalette } from './steps.mjs';
import { withWorkbench, type Workbench } from './workbench.mjs';

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

test('receipt_from_photo asks for a photo: accept sends it, decline and cancel are reported as such', async () => {
  await withWorkbench('5-elicitation', {}, async (wb) => {
    await runToolFromPalette(wb, 'Record a receipt');

    // 1. accept, with a photo from the workspace
    await runAndWaitForQuestion(wb);
    await wb.shot('question');
    const question = wb.webview();
    await chooseFromWorkspace(wb, question, 'Receipt photo', 'photo.png');
    await question.getByRole('list', { name: 'Chosen files for Receipt photo' }).getByText('photo.png').waitFor();
    await question.getByRole('textbox', { name: 'Merchant' }).fill('Corner Café');
    await question
      .getByRole('spinbutton', { name: 'Total' })
      .or(question.getByRole('textbox', { name: 'Total' }))
      .fill('12.5');
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
  });
});
