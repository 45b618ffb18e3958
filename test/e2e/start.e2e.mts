import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { freePort, openBrowserContext } from '../../scripts/code-server.mjs';
import { root } from './workbench.mjs';

async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url);
    return true;
  } catch {
    return false;
  }
}

test('npm start serves VS Code with the extension on the demo workspace, and Ctrl-C stops it', async () => {
  const port = await freePort();
  // the test run has built already
  const start = spawn(process.execPath, ['scripts/start.mjs', '--port', String(port), '--no-build'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  start.stdout.on('data', (d) => (output += d));
  start.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => start.on('exit', (code) => resolve(code)));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL printed within 60 s:\n${output}`)), 60_000);
      start.stdout.on('data', () => {
        const m = /http:\/\/127\.0\.0\.1:\d+\/\?folder=\S+/.exec(output);
        if (m) {
          clearTimeout(timer);
          resolve(m[0]);
        }
      });
    });
    assert.ok(url.startsWith(`http://127.0.0.1:${port}/`), url);
    assert.ok(decodeURIComponent(url).endsWith(join(root, 'examples/workspace')), url);

    const browser = await openBrowserContext();
    try {
      const page = browser.pages()[0] ?? (await browser.newPage());
      await page.goto(url);
      await page.locator('.explorer-folders-view .monaco-list-row[aria-label="photo.png"]').waitFor({ timeout: 60_000 });
      // the extension is installed (not a development host) and its view lists the demo server
      assert.doesNotMatch(await page.title(), /Extension Development Host/);
      await page.locator('.activitybar [aria-label^="MCP"]').first().click();
      await page.locator('.pane .monaco-list-row', { hasText: 'demo' }).first().waitFor({ timeout: 30_000 });
      mkdirSync(join(root, '.artifacts/e2e/npm-start'), { recursive: true });
      await page.screenshot({ path: join(root, '.artifacts/e2e/npm-start/01-demo-workspace-with-servers-view.png') });
    } finally {
      await browser.close();
    }
  } finally {
    start.kill('SIGINT');
  }
  assert.equal(await exited, 130);
  const deadline = Date.now() + 10_000;
  while ((await answers(`http://127.0.0.1:${port}/healthz`)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  assert.equal(await answers(`http://127.0.0.1:${port}/healthz`), false, 'code-server stopped with npm start');
});
