// Nothing from a cloned workspace runs unasked, and no server outlives its window: a workspace that turns
// on autoStart starts nothing; the first start of each workspace server shows its command line and asks;
// the answer holds across a reload for an unchanged definition only; reloading and closing the window leave
// no server process behind, even servers that ignore stdin closing or SIGTERM (checked in the process table).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { dialog } from './steps.mjs';
import { fixtureServer, withWorkbench, type Workbench } from './workbench.mjs';

/** Pids of the processes whose command line holds `token` (each server gets its own). */
function pidsWith(token: string): number[] {
  return execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(token) && !line.includes('ps -eo'))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

async function waitUntil(what: string, probe: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function startServer(wb: Workbench, name: string): Promise<void> {
  await wb.runCommand('MCP: Start Server');
  const row = wb.quickPickRowLabelled(name).first();
  await row.waitFor();
  await row.click();
}

/** Reconnection grace of code-server (5 s) + shutdown budget (3 s) + margin on a loaded machine. */
const GONE_WITHIN_MS = 15_000;

test('trust: autoStart from a workspace runs nothing, the first start asks with the command line, a changed command asks again; reload and close leave no server running', async () => {
  const fixture = await fixtureServer('sigterm-ignoring-server');
  const token = randomBytes(6).toString('hex');
  const ignoresStdin = `--e2e-${token}-stdin`;
  const ignoresTerm = `--e2e-${token}-term`;
  await withWorkbench(
    'trust-shutdown',
    {
      servers: {
        'ignores-stdin': { type: 'stdio', command: 'node', args: [fixture, '--exit-on-sigterm', ignoresStdin] },
        'ignores-term': { type: 'stdio', command: 'node', args: [fixture, ignoresTerm] },
      },
      settings: { 'mcpHost.trustWorkspaceServers': false },
      workspaceSettings: { 'mcpHost.autoStart': true, 'mcpHost.trustWorkspaceServers': true },
    },
    async (wb) => {
      // 1. The workspace's own autoStart (and trust setting) are not applied: nothing starts, nothing asks.
      await wb.openPalette('MCP: Start Server'); // the extension has activated (and would have auto-started)
      await wb.page.keyboard.press('Escape');
      await wb.page.waitForTimeout(3000);
      assert.deepEqual(pidsWith(token), [], 'no server started on its own');
      assert.equal(await dialog(wb).count(), 0, 'no question asked');
      await wb.shot('nothing-started');

      // 2. Run Tool… starts no untrusted server by itself: it offers to start it. The first start shows the
      //    exact command line and where it is defined; Trust and start runs it.
      await wb.runCommand('MCP: Run Tool…');
      const offer = wb.quickPickRow('Start ignores-term').filter({ hasText: 'asks for your trust' }).first();
      await offer.waitFor({ timeout: 30_000 });
      await wb.page.waitForTimeout(1000);
      assert.equal(await dialog(wb).count(), 0, 'opening Run Tool… asks nothing');
      assert.deepEqual(pidsWith(token), [], 'and starts nothing');
      await wb.shot('run-tool-offers-start');
      await offer.click();
      const box = dialog(wb);
      await box.waitFor({ timeout: 15_000 });
      const text = await box.innerText();
      assert.match(text, /Start the MCP server "ignores-term" defined in \.vscode\/mcp\.json\?/);
      assert.ok(text.includes(`Runs: node ${fixture} ${ignoresTerm}`), text);
      assert.ok(text.includes(join(wb.folder, '.vscode/mcp.json')), 'the file it is defined in');
      await wb.shot('trust-prompt');
      await box.getByRole('button', { name: 'Trust and start', exact: true }).click();
      await waitUntil('ignores-term runs', () => pidsWith(ignoresTerm).length > 0, 30_000);
      // Run Tool… opens again with the server's tools; closed here
      await wb.quickPickRow('hang').first().waitFor({ timeout: 30_000 });
      await wb.page.keyboard.press('Escape');
      await wb.quickInput.waitFor({ state: 'hidden' });
      await startServer(wb, 'ignores-stdin');
      await box.getByRole('button', { name: 'Trust and start', exact: true }).click();
      await waitUntil('ignores-stdin runs', () => pidsWith(ignoresStdin).length > 0, 30_000);
      await wb.shot('both-running');

      // 3. Reload: both servers are stopped (one ignores stdin closing, the other SIGTERM too).
      await wb.load();
      await waitUntil('no server survives the reload', () => pidsWith(token).length === 0, GONE_WITHIN_MS);
      await wb.shot('reloaded');

      // 4. An unchanged definition starts without asking.
      await startServer(wb, 'ignores-stdin');
      await waitUntil('ignores-stdin runs again', () => pidsWith(ignoresStdin).length > 0, 30_000);
      assert.equal(await dialog(wb).count(), 0, 'no question for a trusted, unchanged definition');

      // 5. A changed command asks again; Cancel starts nothing.
      const configFile = join(wb.folder, '.vscode/mcp.json');
      const config = JSON.parse(readFileSync(configFile, 'utf8'));
      config.servers['ignores-term'].args.push('--changed');
      writeFileSync(configFile, JSON.stringify(config, null, 2));
      await wb.page.waitForTimeout(2000);
      await startServer(wb, 'ignores-term');
      await box.waitFor({ timeout: 15_000 });
      assert.ok((await box.innerText()).includes(`${ignoresTerm} --changed`), 'the new command line is shown');
      await wb.shot('asked-again');
      await box.getByRole('button', { name: 'Cancel', exact: true }).click();
      await wb.page.waitForTimeout(1500);
      assert.deepEqual(pidsWith(ignoresTerm), [], 'not started without trust');

      // 6. Closing the window stops the server still running.
      assert.ok(pidsWith(ignoresStdin).length > 0);
      await wb.page.close();
      await waitUntil('no server survives the closed window', () => pidsWith(token).length === 0, GONE_WITHIN_MS);
    },
  );
});

test('Restricted Mode: a workspace server does not start, a user-level server does, without a question', async () => {
  const fixture = await fixtureServer('sigterm-ignoring-server');
  const token = randomBytes(6).toString('hex');
  const inWorkspace = `--e2e-${token}-workspace`;
  const ofUser = `--e2e-${token}-user`;
  await withWorkbench(
    'restricted-mode',
    {
      restrictedMode: true,
      servers: { 'from-workspace': { type: 'stdio', command: 'node', args: [fixture, '--exit-on-sigterm', inWorkspace] } },
      userServers: { 'from-user': { type: 'stdio', command: 'node', args: [fixture, '--exit-on-sigterm', ofUser] } },
    },
    async (wb) => {
      await wb.page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).first().waitFor({ timeout: 30_000 });
      await wb.shot('restricted-mode');

      await startServer(wb, 'from-workspace');
      // (toasts stay hidden in this headless window: the message is read in the notification centre)
      await wb.runCommand('Notifications: Show Notifications');
      await wb.page
        .locator('.notifications-center .notification-list-item', { hasText: /"from-workspace" could not start: .*Restricted Mode/ })
        .first()
        .waitFor({ timeout: 15_000 });
      await wb.shot('workspace-server-refused');
      await wb.page.keyboard.press('Escape');
      assert.deepEqual(pidsWith(inWorkspace), [], 'the workspace server did not run');
      assert.equal(await dialog(wb).count(), 0, 'nothing was asked');

      await startServer(wb, 'from-user');
      await waitUntil('the user-level server runs', () => pidsWith(ofUser).length > 0, 30_000);
      assert.equal(await dialog(wb).count(), 0, 'a user-level server is not asked about');
      await wb.shot('user-server-running');

      // The status bar counts the workspace's servers (from-workspace, demo) as waiting; the Explorer entry names
      // them, says why, and offers the workspace's trust, not a start.
      await wb.page.locator('.statusbar-item', { hasText: '2 need your trust' }).first().waitFor({ timeout: 15_000 });
      await wb.explorerMenu('photo.png', 'Run MCP Tool with This File…');
      const box = dialog(wb);
      await box.waitFor({ timeout: 30_000 });
      assert.match(await box.innerText(), /from-workspace: Restricted Mode/);
      assert.equal(await box.getByRole('button', { name: /^Start/ }).count(), 0, 'no button starts it');
      await box.getByRole('button', { name: 'Manage Workspace Trust', exact: true }).waitFor();
      await wb.shot('explorer-restricted');
      await box.getByRole('button', { name: 'Cancel', exact: true }).click();
      assert.deepEqual(pidsWith(inWorkspace), [], 'the workspace server still did not run');
    },
  );
  await waitUntil('no server left after the window closed', () => pidsWith(token).length === 0, GONE_WITHIN_MS);
});
