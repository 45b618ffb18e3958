// SEP-3221 secure parameters in the real workbench: the tool panel shows the tool's secure values as their own
// section of the form; entered once (the key as a password), they reach the server as secureArguments, the
// server's echo is masked in the result, and after a reload the section says they are kept (no value shown) and
// the next run sends them again. No message from the host to the webview, no log (trace on), no setting and no
// file of the workspace holds them; the secret one is not in any file of the user-data dir either.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { FrameLocator } from 'playwright-core';
import { newestResult, openQuickPick, runToolFromPalette } from './steps.mjs';
import { fixtureServer, withWorkbench, type Workbench } from './workbench.mjs';

const TENANT = 'tenant-e2e-41b7c9';
const TENANT_EDITED = 'tenant-e2e-edited-83f0';
const KEY = 'sk-fixture-good';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

/** Records every message the extension posts to the tool's webview (as JSON text), where it reaches the inner frame. */
async function recordHostMessages(wb: Workbench): Promise<() => Promise<string[]>> {
  const outer = await (await wb.page.locator('iframe.webview.ready').filter({ visible: true }).first().elementHandle())?.contentFrame();
  const inner = await (await outer?.$('iframe#active-frame'))?.contentFrame();
  assert.ok(inner, 'the webview frame');
  await inner.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { mcpHostSeen: string[] }).mcpHostSeen = seen;
    window.addEventListener(
      'message',
      (event) => {
        seen.push(JSON.stringify(event.data) ?? '');
      },
      true,
    );
  });
  return () => inner.evaluate(() => (window as unknown as { mcpHostSeen: string[] }).mcpHostSeen);
}

async function run(wb: Workbench, panel: FrameLocator, sql: string): Promise<string> {
  const before = await panel.locator('article.result').count();
  await panel.getByLabel('sql').fill(sql);
  await panel.getByRole('button', { name: 'Run' }).click();
  await panel.locator('article.result').nth(before).waitFor({ timeout: 30_000 });
  const text = await newestResult(panel).innerText();
  await wb.shot(`result-${sql.replace(/\W+/g, '-')}`);
  return text;
}

test('secure values: entered once in the tool panel, masked, kept after a reload, in no log, message or setting', async () => {
  const server = await fixtureServer('secure-era2026-server');
  const record = join(process.cwd(), '.artifacts/e2e/secure-params-calls.jsonl');
  const servers = {
    secure: { type: 'stdio', command: 'node', args: [server], env: { SECURE_FIXTURE_RECORD: record }, secureArguments: { region: 'eu' } },
  } as never;
  await withWorkbench('secure-params', { servers, settings: { 'mcpHost.trace': true } }, async (wb) => {
    const calls = () =>
      existsSync(record)
        ? readFileSync(record, 'utf8')
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l) as Record<string, unknown>)
        : [];
    const already = calls().length;
    // code-server keeps VS Code's secrets sealed in the page's localStorage, written after SecretStorage.store resolves
    const secretsBefore = await wb.page.evaluate(() => localStorage.getItem('secrets.provider'));
    let panel = await runToolFromPalette(wb, 'query', 'secure');
    const section = panel.getByRole('region', { name: 'Secure values' });
    await section.waitFor();
    // region comes from mcp.json and is not asked; the key is a password field
    assert.equal(await section.getByLabel('Region').count(), 0);
    assert.equal(await section.getByLabel('API key').getAttribute('type'), 'password');
    const hostMessages = await recordHostMessages(wb);

    // Run without them: the same form engine's checks name the secure fields; nothing is sent.
    await panel.getByLabel('sql').fill('select 0');
    await panel.getByRole('button', { name: 'Run' }).click();
    await section.getByText('Required.').first().waitFor();
    await wb.shot('secure-values-required');
    assert.equal(calls().length, already, 'nothing was sent');

    await section.getByLabel('Tenant').fill(TENANT);
    await section.getByLabel('API key').fill(KEY);
    await wb.shot('secure-values-typed');
    const first = await run(wb, panel, 'select 1');
    assert.match(first, /ran select 1 for \*{8}/, 'the server echoed the tenant; the result masks it');
    assert.deepEqual(calls().at(-1)?.secureArguments, { tenant: TENANT, api_key: KEY, region: 'eu' });
    assert.deepEqual(calls().at(-1)?.arguments, { sql: 'select 1' });
    // the section now says they are kept, and shows no value
    await section.getByText('Kept for this workspace; leave empty to keep it.').first().waitFor();
    assert.equal(await section.getByLabel('Tenant').inputValue(), '');
    assert.equal(await section.getByLabel('API key').inputValue(), '');
    const posted = await hostMessages();
    assert.ok(
      posted.some((m) => m.includes('"type":"result"')),
      `the host's messages were seen (${posted.length})`,
    );
    for (const m of posted) assert.ok(!m.includes(TENANT) && !m.includes(KEY), `a message to the webview holds a secure value: ${m.slice(0, 200)}`);

    // ── after a reload: asked nothing, the values are sent again ──
    // A reload before code-server wrote the secret would lose it (as closing the browser tab then would).
    await wb.page.waitForFunction((before) => localStorage.getItem('secrets.provider') !== before, secretsBefore, { timeout: 30_000 });
    await wb.load();
    await wb.shot('reloaded');
    panel = await runToolFromPalette(wb, 'query', 'secure');
    const again = panel.getByRole('region', { name: 'Secure values' });
    await again.getByText('Kept for this workspace; leave empty to keep it.').first().waitFor();
    const reloadedMessages = await recordHostMessages(wb);
    const second = await run(wb, panel, 'select 2');
    assert.match(second, /ran select 2 for \*{8}/);
    assert.deepEqual(calls().at(-1)?.secureArguments, { tenant: TENANT, api_key: KEY, region: 'eu' });
    for (const m of await reloadedMessages()) assert.ok(!m.includes(TENANT) && !m.includes(KEY), 'a message to the webview holds a secure value');

    // ── edited later: MCP: Edit Secure Values… replaces the tenant; the key is kept ──
    // (the tool panel that just ran can take the focus a moment later, closing the pick: openQuickPick opens it again)
    await openQuickPick(wb, 'MCP: Edit Secure Values…', undefined, 'secure', wb.quickPickRow('secure').first(), {});
    const editor = wb.webview();
    await editor.getByRole('heading', { level: 1, name: 'Secure values for secure' }).waitFor({ timeout: 30_000 });
    assert.equal(await editor.getByLabel('Tenant').inputValue(), '', 'the kept value is not shown');
    // a secret-looking number (connect's writeOnly PIN) is typed masked like a secret string; a port is not
    assert.equal(await editor.getByLabel('PIN').getAttribute('type'), 'password');
    assert.equal(await editor.getByLabel('Port').getAttribute('type'), 'number');
    await editor.getByLabel('Tenant').fill(TENANT_EDITED);
    await wb.shot('edit-secure-values');
    await editor.getByRole('button', { name: 'Save' }).click();
    await wb.page.getByText('The secure values for "secure" are saved for this workspace.').first().waitFor({ timeout: 15_000 });
    panel = await runToolFromPalette(wb, 'query', 'secure');
    assert.match(await run(wb, panel, 'select 3'), /ran select 3 for \*{8}/);
    assert.deepEqual(calls().at(-1)?.secureArguments, { tenant: TENANT_EDITED, api_key: KEY, region: 'eu' });

    // ── no log (trace on), setting or workspace file holds them; the key is in no file of the user-data dir ──
    let traced = false;
    for (const file of [...filesUnder(wb.server.userDataDir), ...filesUnder(wb.folder)]) {
      if (statSync(file).size > 50 * 1024 * 1024) continue;
      const text = readFileSync(file, 'latin1');
      if (text.includes('secureArguments')) traced = true;
      assert.ok(!text.includes(KEY), `the secret key is in ${file}`);
      // The tenant (not secret-looking) is kept in the workspace state (a database), nowhere else.
      if (!/workspaceStorage[\\/][^\\/]+[\\/]state\.vscdb/.test(file)) {
        for (const tenant of [TENANT, TENANT_EDITED]) assert.ok(!text.includes(tenant), `the tenant is in ${file}`);
      }
    }
    assert.ok(traced, 'the trace of the calls reached a log file');
  });
});
