// Explain and allow, in the real workbench with the real sandbox (bubblewrap): a sandboxed server's write outside
// its folder is refused; the notification names the path and the entry, the MCP view lists the refusal under the
// server (marked sandboxed); Allow adds exactly that entry to the server's sandbox block in .vscode/mcp.json and
// restarts the server, and the same call then succeeds.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { newestResult, pollUntil, runToolFromPalette, statusItem, workspaceServers } from './steps.mjs';
import { fixtureServer, withWorkbench } from './workbench.mjs';

test('a sandboxed server is refused a write; Allow adds the exact entry, restarts it, and the same call succeeds', async () => {
  const outside = mkdtempSync(join(tmpdir(), 'mcp-sandbox-e2e-outside-'));
  const target = join(outside, 'new.txt');
  const servers = { guarded: { type: 'stdio' as const, command: 'node', args: [await fixtureServer('sandbox-server')], sandboxEnabled: true } };
  try {
    await withWorkbench('sandbox-allow', { servers }, async (wb) => {
      const write = async () => {
        const panel = await runToolFromPalette(wb, 'write', 'guarded');
        await panel
          .getByRole('combobox', { name: /^path/ })
          .or(panel.getByRole('textbox', { name: /^path/ }))
          .first()
          .fill(target);
        await panel.getByRole('button', { name: 'Run' }).click();
        return { panel, result: newestResult(panel) };
      };
      // 1. Refused: the result is the server's error, the file is not there.
      let { result } = await write();
      await result.filter({ hasText: 'EROFS' }).waitFor({ timeout: 60_000 });
      assert.equal(existsSync(target), false, 'nothing was written outside the folder');

      // 2. The notification names the path and the entry (toasts stay hidden in this headless window: the
      //    notification centre shows it).
      await wb.runCommand('Notifications: Show Notifications');
      // (a write is known from the server's own error output, and the notification says so)
      const notice = wb.page.locator('.notifications-center .notification-list-item', { hasText: 'MCP server "guarded" says the sandbox refused it' });
      await notice.waitFor({ timeout: 15_000 });
      const text = await notice.innerText();
      assert.ok(text.includes(`write ${target}`), text);
      assert.ok(text.includes(`sandbox.filesystem.allowWrite: "${outside}"`), text);
      await wb.shot('refused-notification');

      // 3. The MCP view marks the server sandboxed and lists the refusal under it.
      await wb.page.locator('.activitybar [aria-label^="MCP"]').first().click();
      const tree = wb.page.getByRole('tree', { name: 'Servers' });
      const guarded = tree.getByRole('treeitem', { name: /^guarded, running · sandboxed$/ });
      await guarded.waitFor({ timeout: 30_000 });
      const escaped = target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const refusedRow = tree.getByRole('treeitem', { name: new RegExp(`^Refused: write ${escaped}`) });
      // On a busy machine the workbench has been seen to leave an expanded server's rows unrendered after a refresh
      // (the list is right: collapsing and expanding the server shows it), as a person would do.
      await refusedRow.waitFor({ timeout: 15_000 }).catch(async () => {
        await guarded.click();
        await wb.page.keyboard.press('ArrowLeft');
        await wb.page.keyboard.press('ArrowRight');
        await refusedRow.waitFor({ timeout: 30_000 });
      });
      await wb.shot('refused-in-view');

      // 4. Allow: the entry is added to the server's own block, nothing else changes, and the server restarts.
      if (!(await notice.isVisible())) await wb.runCommand('Notifications: Show Notifications');
      await notice.getByRole('button', { name: 'Allow' }).click();
      await pollUntil(wb, () => workspaceServers(wb)?.guarded?.sandbox, 30_000);
      const entry = workspaceServers(wb)?.guarded;
      assert.deepEqual(entry?.sandbox, { filesystem: { allowWrite: [outside] } });
      assert.equal(entry?.sandboxEnabled, true);
      await statusItem(wb, /MCP servers: 2 running/).waitFor({ timeout: 60_000 });
      await wb.shot('allowed');

      // 5. The same call succeeds.
      ({ result } = await write());
      await result.filter({ hasText: `wrote ${target}` }).waitFor({ timeout: 60_000 });
      assert.equal(readFileSync(target, 'utf8'), 'written');
      await wb.shot('written');
    });
  } finally {
    rmSync(outside, { recursive: true, force: true });
  }
});
