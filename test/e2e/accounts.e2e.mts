// Sign-in with an account VS Code already has: the test account provider (test/extensions/test-accounts, loaded
// with the test model) serves the authorization server of test/fixtures/account-server.ts, as GitHub's provider
// serves github.com. MCP: Sign In to Server… offers that account, VS Code asks for consent in its own dialog,
// the server gets the account's token and no browser tab opens; Sign Out forgets the choice, and the next sign-in
// asks again, naming the account VS Code is still signed in to. The user setting mcpHost.oauth.accountProviders
// points the authorization server at another provider (as one would a GitHub Enterprise server).
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Locator } from 'playwright-core';
import { chooseFromPalette } from './steps.mjs';
import { root, withWorkbench, type Workbench } from './workbench.mjs';

const ACCOUNT = 'tester@example.test (Test Accounts)';

function serverRow(wb: Workbench, state = '.*', name = 'with-account'): Locator {
  return wb.page.getByRole('tree', { name: 'Servers' }).getByRole('treeitem', { name: new RegExp(`^${name}, ${state}$`) });
}

async function signIn(wb: Workbench, name = 'with-account'): Promise<void> {
  await chooseFromPalette(wb, 'MCP: Sign In to Server', name);
  await wb.quickInput.locator('.quick-input-title', { hasText: `MCP server "${name}" asks you to sign in` }).waitFor({ timeout: 30_000 });
}

/** Starts test/fixtures/account-server.ts; its MCP endpoint's URL. */
async function startAccountServer(children: ChildProcess[]): Promise<string> {
  const fixture = spawn(process.execPath, ['--import', 'tsx', join(root, 'test/fixtures/account-server.ts')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(fixture);
  const port = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`account-server.ts did not start: ${out}`)), 30_000);
    fixture.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /listening (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    fixture.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`account-server.ts exited with ${code}`));
    });
  });
  return `http://127.0.0.1:${port}/mcp`;
}

/** Escape, as the user closes the question (a first Escape may only dismiss the hover of its placeholder). */
async function closeQuestion(wb: Workbench): Promise<void> {
  for (let i = 0; i < 3 && (await wb.quickInput.isVisible()); i++) {
    await wb.page.keyboard.press('Escape');
    await wb.page.waitForTimeout(300);
  }
}

test('accounts: Sign In offers the VS Code account, the server gets its token without a browser; Sign Out forgets the choice, not the account', async () => {
  const children: ChildProcess[] = [];
  try {
    const url = await startAccountServer(children);
    // A second such server, whose authorization server the user setting gives to GitHub's provider (ahead of the contribution).
    const enterprise = await startAccountServer(children);
    const seen = async () => (await (await fetch(new URL('/_seen', url))).json()) as { path: string; authorization?: string }[];
    const servers = { 'with-account': { type: 'http' as const, url }, enterprise: { type: 'http' as const, url: enterprise } };
    const settings = { 'mcpHost.oauth.accountProviders': { [`${new URL(enterprise).origin}/test-accounts`]: 'github' } };
    await withWorkbench('accounts', { servers, settings, testModel: true }, async (wb) => {
      const opened: string[] = [];
      wb.browser.on('page', (p) => {
        opened.push(p.url());
      });
      await wb.page.locator('.activitybar [aria-label^="MCP"]').first().click();
      await serverRow(wb).waitFor({ timeout: 30_000 });

      // ── the choice: nobody is signed in to Test Accounts yet, so the account is offered without a name ──
      await signIn(wb);
      await wb.shot('choice');
      assert.equal(await wb.quickPickRow(/in the browser/).count(), 1, 'the browser sign-in is offered too');
      await wb.pick(/^\s*(\$\(account\)\s*)?Sign in with your Test Accounts account\s*$/);
      // VS Code's own consent: MCP Host wants to sign in using Test Accounts.
      const consent = wb.page.locator('.monaco-dialog-box', { hasText: 'Test Accounts' });
      await consent.waitFor({ timeout: 30_000 });
      await wb.shot('vscode-consent');
      await consent.getByRole('button', { name: 'Allow' }).click();
      await serverRow(wb, `signed in as ${ACCOUNT.replace(/[()]/g, '\\$&')}`).waitFor({ timeout: 30_000 });
      await wb.shot('signed-in-with-account');

      const requests = await seen();
      assert.ok(
        requests.some((r) => r.path === '/mcp' && /^Bearer test-account\.\d+\.read$/.test(r.authorization ?? '')),
        "the account's token reached the server",
      );
      assert.ok(
        requests.every((r) => !r.path.startsWith('/test-accounts')),
        `nothing went to the authorization server's endpoints: ${requests.map((r) => r.path).join(', ')}`,
      );
      assert.deepEqual(opened, [], 'no browser tab');

      // ── Sign Out forgets the choice; VS Code stays signed in (the next question names the account) ──
      await chooseFromPalette(wb, 'MCP: Sign Out of Server', 'with-account');
      await serverRow(wb, 'stopped').waitFor({ timeout: 15_000 });
      await signIn(wb);
      const named = wb.quickPickRow('Sign in with your Test Accounts account (tester@example.test)');
      await named.waitFor({ timeout: 15_000 });
      await wb.shot('asked-again');
      await named.click();
      // Consent was given once: no dialog this time.
      await serverRow(wb, `signed in as ${ACCOUNT.replace(/[()]/g, '\\$&')}`).waitFor({ timeout: 30_000 });
      assert.deepEqual(opened, [], 'no browser tab');

      // ── the user setting gives the other server's authorization server to GitHub's provider ──
      await signIn(wb, 'enterprise');
      await wb.quickPickRow('Sign in with your GitHub account').waitFor({ timeout: 15_000 });
      assert.equal(await wb.quickPickRow('Test Accounts').count(), 0, 'the setting comes before the contributions');
      await wb.shot('setting-maps-to-github');
      await closeQuestion(wb);
      await serverRow(wb, 'needs sign-in', 'enterprise').waitFor({ timeout: 15_000 });
    });
  } finally {
    for (const child of children) child.kill();
  }
});
