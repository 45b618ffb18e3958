import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newestResult, runToolFromPalette, statusItem } from './steps.mjs';
import { fixtureServer, withWorkbench } from './workbench.mjs';

test('a server that dies mid-call: the call fails naming the exit, a notification offers Restart, and the restarted server runs tools again', async () => {
  const servers = { flaky: { type: 'stdio' as const, command: 'node', args: [await fixtureServer('era2025-server')] } };
  await withWorkbench('crash-restart', { servers }, async (wb) => {
    let panel = await runToolFromPalette(wb, 'crash', 'flaky');
    await panel.getByRole('button', { name: 'Run' }).click();
    await panel.getByText(/tool "crash" failed: the server exited \(exit code 3\)/).waitFor({ timeout: 30_000 });
    assert.equal(await panel.getByRole('button', { name: 'Run' }).isEnabled(), true, 'the form can run again');

    await statusItem(wb, 'MCP servers: 1 running, 1 failed, 2 configured').waitFor();
    // the error notification (toasts stay hidden in this headless window, so it is read in the notification centre)
    await wb.runCommand('Notifications: Show Notifications');
    const notice = wb.page.locator('.notifications-center .notification-list-item', { hasText: 'MCP server "flaky" stopped unexpectedly' });
    await notice.waitFor({ timeout: 15_000 });
    assert.match(await notice.innerText(), /the server exited \(exit code 3\)/);
    await wb.shot('crash-reported');
    await notice.getByRole('button', { name: 'Restart' }).click();

    // the restarted server answers: roots lists the workspace folder
    panel = await runToolFromPalette(wb, 'roots', 'flaky');
    await panel.getByRole('button', { name: 'Run' }).click();
    const result = newestResult(panel);
    await result.filter({ hasText: 'file://' }).waitFor({ timeout: 30_000 });
    await wb.shot('restarted-and-ran');
    assert.match(
      await result.innerText(),
      new RegExp(
        wb.folder
          .split('/')
          .pop()!
          .replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
      ),
    );
    await statusItem(wb, 'MCP servers: 2 running, 2 configured').waitFor();
  });
});
