// The confirmation a chat agent's call of mcpHost_callTool gets outside a chat session (vscode.lm.invokeTool without a
// toolInvocationToken): VS Code's own modal dialog, with the title and text the extension prepared. Cancel: the
// extension's tool is never invoked, the server receives nothing, and the caller gets VS Code's cancellation. Yes: the
// workspace image reaches describe_file. The call is made by the test model extension's "Invoke a Language Model
// Tool" command, as an agent would; the demo server runs behind the recording proxy.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { dialog } from './steps.mjs';
import { demoServer, fixtureServer, withWorkbench, type Workbench } from './workbench.mjs';

const CALL = `mcpHost_callTool ${JSON.stringify({ server: 'recorded', tool: 'describe_file', arguments: { file: 'photo.png' } })}`;

function notice(wb: Workbench, text: string) {
  return wb.page.locator('.notifications-center .notification-list-item', { hasText: text });
}

test("an agent's tool call outside chat: VS Code's dialog names the file, the tool and the server; Cancel sends nothing, Yes sends the file", async () => {
  const records = mkdtempSync(join(tmpdir(), 'agent-confirm-'));
  const recordFile = join(records, 'calls.jsonl');
  const calls = () => (existsSync(recordFile) ? readFileSync(recordFile, 'utf8').split('\n').filter(Boolean) : []);
  const servers = {
    recorded: {
      type: 'stdio' as const,
      command: 'node',
      args: [await fixtureServer('recording-proxy')],
      env: { RECORDING_PROXY_SCRIPT: demoServer, RECORDING_PROXY_FILE: recordFile },
    },
  };
  try {
    await withWorkbench('agent-confirm', { servers, testModel: true }, async (wb) => {
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
    });
  } finally {
    rmSync(records, { recursive: true, force: true });
  }
});
