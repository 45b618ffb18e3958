// Sign-in from the Servers view against a real authorization server as it ships (oidc-provider in its default
// configuration, DPoP, Client ID Metadata Documents and registration on: test/fixtures/as-oidc-provider.ts) in
// front of a Bearer-only MCP server that checks each token's signature, audience and scopes: the tree action
// asks first, the browser tab of the authorization server is filled in by Playwright, the window reloads still
// signed in and a tool runs with a Bearer token, Sign Out forgets the tokens and the next start asks again. No
// token reaches a file of the user-data or workspace folders (settings, logs, output channels with trace on).
import assert from 'node:assert/strict';
import { copyFileSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { startOidcProviderMatrix } from '../fixtures/as-oidc-provider.js';
import { chooseFromPalette, newestResult, runToolFromPalette } from './steps.mjs';
import { withWorkbench, type Workbench } from './workbench.mjs';

function serverRow(wb: Workbench, name: string, state = '.*'): Locator {
  return wb.page.getByRole('tree', { name: 'Servers' }).getByRole('treeitem', { name: new RegExp(`^${name}, ${state}$`) });
}

/** The question before the browser opens. */
const ASKED = /MCP server "notes" asks you to sign in at \[::1\]:\d+/;

/** A notification, read in the notification centre (toasts stay hidden in this headless window). */
async function notification(wb: Workbench, text: RegExp): Promise<Locator> {
  const notice = wb.page.locator('.notifications-center .notification-list-item', { hasText: text });
  for (let attempt = 1; ; attempt++) {
    await wb.runCommand('Notifications: Show Notifications');
    try {
      await notice.first().waitFor({ timeout: 15_000 });
      return notice.first();
    } catch (e) {
      if (attempt >= 3) throw e;
    }
  }
}

/** The tree's inline "Sign In to Server…" action on the server's row. */
async function signInFromTree(wb: Workbench): Promise<void> {
  const row = serverRow(wb, 'notes');
  await row.hover();
  await row.getByRole('button', { name: 'Sign In to Server…' }).click();
}

/** oidc-provider's login and consent pages, as a person fills them in, until the loopback listener answers. */
async function signInAtAuthorizationServer(wb: Workbench, tab: Page, user: string): Promise<void> {
  await tab.locator('input[name="login"]').fill(user, { timeout: 30_000 });
  await tab.locator('input[name="password"]').fill('any-password');
  await tab.screenshot({ path: join(wb.artifacts, 'browser-login.png') });
  await tab.locator('button[type="submit"]').click();
  await tab.locator('button[type="submit"]', { hasText: /continue/i }).waitFor({ timeout: 15_000 });
  await tab.screenshot({ path: join(wb.artifacts, 'browser-consent.png') });
  await tab.locator('button[type="submit"]').click();
  await tab.getByRole('heading', { name: 'Signed in' }).waitFor({ timeout: 15_000 });
  // the redirect reaches the extension host's loopback listener through code-server's proxy (asExternalUri)
  assert.match(tab.url(), new RegExp(`^http://127\\.0\\.0\\.1:${wb.server.port}/proxy/\\d+/callback\\?`));
  await tab.screenshot({ path: join(wb.artifacts, 'browser-signed-in.png') });
}

/** "Sign In" in the notice; the authorization server's page that opens (VS Code may ask before the link first). */
async function agreeToSignIn(wb: Workbench, notice: Locator): Promise<Page> {
  const tabOpened = wb.browser.waitForEvent('page', { timeout: 30_000 });
  await notice.getByRole('button', { name: 'Sign In' }).click();
  // VS Code asks again before a link to a domain the user has not trusted (not for a loopback address)
  const linkDialog = wb.page.locator('.monaco-dialog-box', { hasText: 'open the external website' });
  const first = await Promise.race([tabOpened.then(() => 'tab'), linkDialog.waitFor({ timeout: 30_000 }).then(() => 'dialog')]);
  if (first === 'dialog') {
    await wb.shot('open-external-website');
    await linkDialog.getByRole('button', { name: 'Open', exact: true }).click();
  }
  const tab = await tabOpened;
  await tab.waitForLoadState();
  return tab;
}

/** Every file under `dir` (the user-data dir holds logs, settings, state databases). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

/** On failure, the server's output channel (its log file under the user-data dir) is kept with the screenshots. */
async function keepingServerLog(wb: Workbench, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (e) {
    for (const file of filesUnder(wb.server.userDataDir).filter((f) => /notes[^/]*\.log$/.test(f))) copyFileSync(file, join(wb.artifacts, basename(file)));
    throw e;
  }
}

async function runWhoami(wb: Workbench): Promise<string> {
  const panel = await runToolFromPalette(wb, 'whoami', 'notes');
  await panel.getByRole('button', { name: 'Run' }).click();
  const result = newestResult(panel);
  await result.waitFor({ timeout: 30_000 });
  await wb.shot('whoami-result');
  return result.innerText();
}

test("sign-in: from the Servers view through the authorization server's page, still signed in after a reload, asked again after Sign Out, no token in any file", async () => {
  // The authorization server on [::1], standing for another host: code-server would send a page of
  // 127.0.0.1 through its own proxy.
  const as = await startOidcProviderMatrix({ accessTtl: 300, host: '::1' });
  try {
    await withWorkbench('sign-in', { servers: { notes: { type: 'http', url: as.bearer.url } }, settings: { 'mcpHost.trace': true } }, (wb) =>
      keepingServerLog(wb, async () => {
        const opened: string[] = [];
        wb.browser.on('page', (p) => {
          opened.push(p.url());
        });

        // ── the tree action asks first; the browser opens only after "Sign In" ──
        await wb.page.locator('.activitybar [aria-label^="MCP"]').first().click();
        await serverRow(wb, 'notes').waitFor({ timeout: 30_000 });
        await signInFromTree(wb);
        const notice = await notification(wb, ASKED);
        await wb.shot('asked-to-sign-in');
        assert.deepEqual(opened, [], 'no browser tab before the user agreed');
        const tab = await agreeToSignIn(wb, notice);
        const authorization = new URL(opened[0] ?? tab.url());
        assert.equal(authorization.origin, as.issuer, `the authorization server's page opened: ${authorization.href}`);
        await signInAtAuthorizationServer(wb, tab, 'alice');
        await tab.close();
        await serverRow(wb, 'notes', 'signed in as alice').waitFor({ timeout: 30_000 });
        await wb.shot('signed-in');

        // ── after a reload the sign-in holds: the tool runs with no question and no browser ──
        // (The reload comes first: in this headless browser a webview opened after the sign-in tab at times stays
        // blank until the window reloads. The MCP view stays open across the reload.)
        await wb.load(serverRow(wb, 'notes', 'stopped'));
        const before = opened.length;
        assert.match(await runWhoami(wb), /^alice mcp:read/m);
        await serverRow(wb, 'notes', 'signed in as alice').waitFor({ timeout: 30_000 });
        await wb.shot('still-signed-in-after-reload');
        assert.equal(opened.length, before, 'no browser tab after the reload');

        // ── Sign Out forgets the tokens: the next start asks again; cancelling leaves "needs sign-in" ──
        await chooseFromPalette(wb, 'MCP: Sign Out of Server', 'notes');
        await notification(wb, /Signed out of MCP server "notes": its tokens are forgotten/);
        await serverRow(wb, 'notes', 'stopped').waitFor({ timeout: 15_000 });
        await wb.shot('signed-out');
        await wb.runCommand('Notifications: Clear All Notifications');
        await signInFromTree(wb);
        const again = await notification(wb, ASKED);
        await wb.shot('asked-again');
        await again.getByRole('button', { name: 'Cancel' }).click();
        await serverRow(wb, 'notes', 'needs sign-in').waitFor({ timeout: 30_000 });
        const retry = await notification(wb, /MCP server "notes" needs you to sign in \(the sign-in at \[::1\]:\d+ was cancelled\)/);
        assert.equal(await retry.getByRole('button', { name: 'Sign In' }).count(), 1, 'the notice offers to try again');
        await serverRow(wb, 'demo', 'running').waitFor();
        await wb.shot('sign-in-cancelled');
        assert.equal(opened.length, before, 'no browser tab for the cancelled sign-in');

        // ── refused at the authorization server: "sign-in failed", naming the reason, and Sign In tries again ──
        await wb.runCommand('Notifications: Clear All Notifications');
        await signInFromTree(wb);
        const denied = await agreeToSignIn(wb, await notification(wb, ASKED));
        await denied.getByRole('link', { name: /cancel/i }).click({ timeout: 30_000 });
        await denied.getByRole('heading', { name: 'Sign-in failed' }).waitFor({ timeout: 15_000 });
        await denied.close();
        await serverRow(wb, 'notes', 'sign-in failed').waitFor({ timeout: 30_000 });
        const failed = await notification(wb, /MCP server "notes" could not sign in: .*access_denied/);
        assert.equal(await failed.getByRole('button', { name: 'Sign In' }).count(), 1, 'the notice offers to try again');
        await serverRow(wb, 'demo', 'running').waitFor();
        await wb.shot('sign-in-failed');

        // ── no token in any file: settings, logs and output channels (trace on), workspace ──
        const bearer = [...as.bearer.accessTokens];
        const refresh = [...as.refreshTokens];
        assert.ok(bearer.length > 0 && refresh.length > 0, 'the server saw an access token and the authorization server issued a refresh token');
        const schemes = new Set(
          as.bearer.requests
            .filter((l) => !l.startsWith('refused'))
            .map((l) => l.split(' ')[2])
            .filter((x) => x !== '-'),
        );
        assert.deepEqual([...schemes], ['Bearer'], `the Bearer-only server got Bearer tokens only: ${as.bearer.requests.join('; ')}`);
        const files = [...filesUnder(wb.server.userDataDir), ...filesUnder(wb.folder)];
        let traced = false;
        for (const file of files) {
          if (statSync(file).size > 50 * 1024 * 1024) continue;
          const text = readFileSync(file, 'latin1');
          if (text.includes('[host -> server]')) traced = true;
          for (const secret of [...new Set([...bearer, ...refresh])]) {
            assert.ok(!text.includes(secret), `a token is in ${file}`);
          }
        }
        assert.ok(traced, `the trace reached a log file under the user-data dir (${files.length} files searched)`);
      }),
    );
  } finally {
    await as.close();
  }
});
