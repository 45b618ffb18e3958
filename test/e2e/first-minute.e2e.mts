// The first minute in a freshly cloned repository whose servers are not trusted yet: the status bar says they
// wait for trust and opens the MCP view; the Explorer's "Run MCP Tool with This File…" names the servers that did
// not start and why, and its button leads through one trust question to the tools that take the file; in
// MCP: Run Tool… the "Start …" rows stay whatever is typed, and picking one while a tool's name is typed asks for
// trust once, then opens that tool's form. In a second clone of the same repository (same definitions, not
// trusted there yet) the tools seen before are offered by name and start their server when picked.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dialog } from './steps.mjs';
import { demoServer, fixtureServer, withWorkbench, type Workbench } from './workbench.mjs';

/** The status bar's MCP item. */
function statusItem(wb: Workbench, text: string) {
  return wb.page.locator('.statusbar-item', { hasText: text }).first();
}

/** Answers the trust question about `server` (which must be the only question), and waits for it to close. */
async function trustOnce(wb: Workbench, server: string): Promise<void> {
  const box = dialog(wb);
  await box.waitFor({ timeout: 15_000 });
  assert.match(await box.innerText(), new RegExp(`Start the MCP server "${server}" defined in \\.vscode/mcp\\.json\\?`));
  await wb.shot(`trust-${server}`);
  await box.getByRole('button', { name: 'Trust and start', exact: true }).click();
  await box.waitFor({ state: 'hidden' });
}

/** The tool form's heading, once the panel is open. */
async function toolForm(wb: Workbench, heading: string): Promise<void> {
  const panel = wb.webview();
  await panel.getByRole('heading', { level: 1, name: heading }).waitFor({ timeout: 30_000 });
  await panel.getByRole('button', { name: 'Run' }).waitFor({ timeout: 10_000 });
}

/** Opens MCP: Run Tool… and types `typed` into it. */
async function runToolTyping(wb: Workbench, typed: string): Promise<void> {
  await wb.runCommand('MCP: Run Tool…');
  await wb.quickInput.locator('.quick-input-title', { hasText: 'MCP: Run Tool' }).waitFor({ timeout: 30_000 });
  await wb.quickInput.locator('.quick-input-box input').fill(typed);
}

test('first minute: waiting servers in the status bar, the Explorer entry and Run Tool lead through one trust question each to the tool', async () => {
  const files = await fixtureServer('file-server');
  await withWorkbench(
    'first-minute',
    {
      servers: {
        files: { type: 'stdio', command: 'node', args: [files] },
        keyed: { type: 'stdio', command: 'node', args: [demoServer], env: { DEMO_TOKEN: '${input:token}' } },
      },
      inputs: [{ type: 'promptString', id: 'token', description: 'The demo token', password: true }],
      settings: { 'mcpHost.trustWorkspaceServers': false },
    },
    async (wb) => {
      // 1. The status bar counts the servers waiting for a decision and opens the MCP view.
      const waiting = statusItem(wb, '3 need your trust');
      await waiting.waitFor({ timeout: 30_000 });
      assert.match(await waiting.innerText(), /^\s*0\s+3 need your trust\s*$/);
      await wb.shot('status-bar-waiting');
      await waiting.click();
      const servers = wb.page.getByRole('tree', { name: 'Servers' });
      await servers.getByRole('treeitem', { name: 'demo, needs your trust' }).waitFor({ timeout: 15_000 });
      await wb.shot('mcp-view-needs-trust');
      assert.equal(await dialog(wb).count(), 0, 'nothing asked yet');

      // 2. Explorer › Run MCP Tool with This File… on a PNG: no server runs, so it names the servers not started
      //    and why; "Start demo…" asks for trust once, then the demo's tools that take the file are offered.
      await wb.runCommand('View: Show Explorer');
      await wb.explorerMenu('photo.png', 'Run MCP Tool with This File…');
      const box = dialog(wb);
      await box.waitFor({ timeout: 30_000 });
      const message = await box.innerText();
      assert.match(message, /No running MCP server has a tool that takes photo\.png: 3 configured servers were not started/);
      assert.match(message, /demo: not trusted yet/);
      assert.match(message, /files: not trusted yet/);
      assert.match(message, /keyed: not trusted yet, inputs needed/);
      await wb.shot('explorer-servers-not-started');
      await box.getByRole('button', { name: 'Start demo…', exact: true }).click();
      await trustOnce(wb, 'demo');
      const describe = wb.quickPickRow('Describe a file').first();
      await describe.waitFor({ timeout: 30_000 });
      const offered = await wb.quickInput.locator('.monaco-list-row').allInnerTexts();
      assert.ok(
        offered.some((t) => t.includes('Compare images')),
        `offered: ${offered.join(' | ')}`,
      );
      assert.ok(
        offered.some((t) => t.includes('Start files…') && t.includes('not trusted yet')),
        `the other servers stay offered: ${offered.join(' | ')}`,
      );
      assert.equal(await dialog(wb).count(), 0, 'one question only');
      await wb.shot('explorer-compatible-tools');
      await describe.click();
      await wb.webview().getByRole('list', { name: 'Chosen files for File' }).getByText('photo.png').waitFor({ timeout: 30_000 });
      await wb.shot('explorer-form-with-file');
      await statusItem(wb, '2 need your trust').waitFor({ timeout: 15_000 });

      // 3. Run Tool…, typing a tool of a server not started: its Start row stays (saying what starting asks);
      //    picked, it asks for trust once, then opens the typed tool's form. Nothing is made up for servers never seen.
      await runToolTyping(wb, 'inspect_image');
      const startFiles = wb.quickPickRow('Start files…').filter({ hasText: 'asks for your trust' }).first();
      await startFiles.waitFor({ timeout: 30_000 });
      await wb.quickPickRow('Start keyed…').filter({ hasText: 'asks for your trust, then its inputs' }).first().waitFor();
      const rows = await wb.quickInput.locator('.monaco-list-row').allInnerTexts();
      assert.ok(!rows.some((t) => /, not started/.test(t)), `no tool of a server never seen is offered: ${rows.join(' | ')}`);
      await wb.shot('run-tool-start-rows-stay');
      await startFiles.click();
      await trustOnce(wb, 'files');
      await toolForm(wb, 'inspect_image');
      assert.equal(await dialog(wb).count(), 0, 'one question only');
      await wb.shot('run-tool-typed-tool-form');
      await statusItem(wb, '1 needs your trust').waitFor({ timeout: 15_000 });

      // 4. A second clone of the repository: its servers wait for trust again, and the tools seen in the first clone
      //    are offered by name; picking one asks for trust once and opens it.
      await wb.openClone();
      await statusItem(wb, '3 need your trust').waitFor({ timeout: 30_000 });
      await runToolTyping(wb, 'compare_images');
      const known = wb.quickPickRow('Compare images').filter({ hasText: 'demo, not started' }).first();
      await known.waitFor({ timeout: 30_000 });
      assert.match(await known.innerText(), /Starts demo \(asks for your trust\)/);
      await wb.quickPickRow('Start demo…').first().waitFor();
      await wb.shot('clone-run-tool-known-tool');
      await known.click();
      await trustOnce(wb, 'demo');
      await toolForm(wb, 'Compare images');
      assert.equal(await dialog(wb).count(), 0, 'one question only');
      await wb.shot('clone-known-tool-form');
      await statusItem(wb, '2 need your trust').waitFor({ timeout: 15_000 });
    },
  );
});
