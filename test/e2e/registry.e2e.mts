// The MCP view's registry section, then MCP: Browse Servers… against our registry fixture: search as you type,
// the server's details, Install in Workspace, its package argument chosen in the form, the command line shown
// before writing, then the trust question before the first start (npx fetches the pinned package), and a tool of
// the installed server run. Then, in the same window, VS Code's chat.mcp.access turned to "none": the gallery
// leaves the palette and the MCP view at once.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after } from 'node:test';
import { EVERYTHING_VERSION, startRegistryFixture } from '../fixtures/registry-server.js';
import { answerDialog, chooseFromPalette, dialog, newestResult, pollUntil } from './steps.mjs';
import { scenariosInOneWorkbench, type Workbench } from './workbench.mjs';

const registry = await startRegistryFixture();
after(() => registry.stop());

async function browseAndInstall(wb: Workbench): Promise<void> {
  // The MCP view's registry section: read once it is expanded, its first page shown.
  await wb.page.locator('.activitybar [aria-label^="MCP"]').first().click();
  await wb.page.locator('.pane-header', { hasText: 'MCP Registry' }).click();
  const section = wb.page.getByRole('tree', { name: 'MCP Registry' });
  await section.getByRole('treeitem', { name: /^io\.example\/bundle, 1\.0\.0 · mcpb$/ }).waitFor({ timeout: 30_000 });
  await wb.shot('registry-section');

  await wb.runCommand('MCP: Browse Servers…');
  const input = wb.quickInput.locator('.quick-input-box input');
  await wb.quickPickRow('io.example/filler-01').first().waitFor({ timeout: 30_000 });
  await wb.shot('first-page');
  // 33 servers, 30 a page: the rest come with Load more, the list going on from the first new one; the
  // deprecated server is marked.
  assert.equal(await wb.quickPickRow('io.example/old-tool').count(), 0, 'old-tool is on the second page');
  // The row is last in a list longer than the view: scroll there as a keyboard user would.
  for (let i = 0; i < 5; i++) await wb.page.keyboard.press('PageDown');
  await wb.pick('Load more…');
  const old = wb.quickPickRow('io.example/old-tool').first();
  await old.waitFor({ timeout: 30_000 });
  assert.match(await old.innerText(), /0\.9\.0\s+deprecated · npm/);
  await wb.shot('second-page');
  await input.fill('everything');
  const row = wb.quickPickRow('Everything (io.github.modelcontextprotocol/everything)').first();
  // The registry's answer (after the debounce) replaces the list with its one match.
  const rows = wb.quickInput.locator('.monaco-list-row');
  await pollUntil(wb, async () => (await rows.count()) === 1, 30_000);
  assert.equal(await rows.count(), 1, 'the search replaced the list with its one match');
  await row.waitFor({ timeout: 30_000 });
  assert.match(await row.innerText(), new RegExp(`${EVERYTHING_VERSION.replace(/\./g, '\\.')} · npm`));
  await wb.shot('searched');
  await row.click();

  const details = dialog(wb);
  await details.waitFor({ timeout: 30_000 });
  assert.match(await details.innerText(), /Repository: https:\/\/github\.com\/modelcontextprotocol\/servers/);
  await answerDialog(wb, 'Install in Workspace');

  const form = wb.webview();
  const transport = form.getByLabel('transport');
  await transport.waitFor({ timeout: 30_000 });
  await transport.selectOption('stdio');
  await wb.shot('install-form');
  await form.getByRole('button', { name: 'Save' }).click();

  const confirm = dialog(wb);
  await confirm.waitFor({ timeout: 15_000 });
  assert.match(await confirm.innerText(), new RegExp(`npx -y @modelcontextprotocol/server-everything@${EVERYTHING_VERSION.replace(/\./g, '\\.')} stdio`));
  await answerDialog(wb, 'Add Server');

  const written = async (): Promise<unknown> => {
    for (let i = 0; i < 100; i++) {
      // The editor may be caught between truncating the file and writing it: that read is tried again.
      const config = (() => {
        try {
          return JSON.parse(readFileSync(join(wb.folder, '.vscode/mcp.json'), 'utf8')) as { servers?: Record<string, unknown> };
        } catch {
          return undefined;
        }
      })();
      if (config?.servers?.everything) return config.servers.everything;
      await new Promise((r) => setTimeout(r, 100));
    }
    return undefined;
  };
  assert.deepEqual(await written(), {
    type: 'stdio',
    command: 'npx',
    args: ['-y', `@modelcontextprotocol/server-everything@${EVERYTHING_VERSION}`, 'stdio'],
  });

  // The first start of a workspace server asks for trust, naming the exact command line.
  await chooseFromPalette(wb, 'MCP: Run Tool…', 'Start everything');
  const trust = dialog(wb);
  await trust.waitFor({ timeout: 15_000 });
  assert.match(await trust.innerText(), /npx -y @modelcontextprotocol\/server-everything@/);
  await answerDialog(wb, 'Trust and start');
  // npx fetches the pinned package on its first run.
  const echo = wb.quickPickRow('Echo Tool').filter({ hasText: 'everything' }).first();
  await echo.waitFor({ timeout: 180_000 });
  await wb.shot('installed-server-tools');
  await echo.click();
  const panel = wb.webview();
  await panel.getByRole('heading', { level: 1, name: 'Echo Tool' }).waitFor({ timeout: 30_000 });
  await panel.getByLabel('message').fill('from the registry');
  await panel.getByRole('button', { name: 'Run' }).click();
  const result = newestResult(panel);
  await result.waitFor({ timeout: 60_000 });
  await wb.shot('result');
  assert.match(await result.innerText(), /Echo: from the registry/);
}

async function accessNone(wb: Workbench): Promise<void> {
  await wb.addUserSettings({ 'chat.mcp.access': 'none' });
  // The section goes as soon as the setting reaches the window; only then is the palette's absence telling.
  await wb.page.locator('.activitybar [aria-label^="MCP"]').first().click();
  await wb.page.locator('.pane-header', { hasText: 'Servers' }).first().waitFor({ timeout: 30_000 });
  await wb.page.locator('.pane-header', { hasText: 'MCP Registry' }).waitFor({ state: 'detached', timeout: 30_000 });
  await wb.openPalette('MCP: Add Server…');
  await wb.quickInput.locator('.quick-input-box input').fill('>MCP: Browse Servers');
  await wb.page.waitForTimeout(1000);
  await wb.shot('palette-without-browse');
  assert.equal(await wb.quickPickRow('MCP: Browse Servers…').count(), 0);
  await wb.page.keyboard.press('Escape');
  assert.equal(await wb.page.locator('.pane-header', { hasText: 'MCP Registry' }).count(), 0, 'no registry section');
}

scenariosInOneWorkbench('registry', { settings: { 'mcpHost.registry.url': registry.url(), 'mcpHost.trustWorkspaceServers': false } }, [
  {
    title: 'browse the registry, install a server in the workspace with its argument from the form, trust it, run its tool',
    scenario: 'registry-install',
    body: browseAndInstall,
  },
  {
    title: 'VS Code\'s chat.mcp.access turned to "none": the gallery leaves the MCP view and the palette',
    scenario: 'registry-access-none',
    body: accessNone,
  },
]);
