// Finding, installing and trusting servers, in one window whose workspace servers are not trusted by default (see
// `scenariosInOneWorkbench`), run in turn:
// - the MCP view's registry section, then MCP: Browse Servers… against our registry fixture: search as you type, the
//   server's details, Install in Workspace, its package argument chosen in the form, the command line shown before
//   writing, then the trust question before the first start (npx fetches the pinned package), and a tool of the
//   installed server run;
// - MCP: Install MCP Bundle… from the Explorer: a bundle packed with @anthropic-ai/mcpb's own packer lies in the
//   workspace; its user_config is asked in the form, the command line shown before anything is written, the entry
//   written into the workspace's mcp.json; the first start asks for trust and for the sensitive value (a password
//   field), and the bundle's tool runs with what was given;
// - the trust prompt of a server that is not sandboxed, and Trust and run sandboxed;
// - VS Code's chat.mcp.access turned to "none": the gallery leaves the palette and the MCP view at once.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { fileURLToPath } from 'node:url';
import { packExtension } from '@anthropic-ai/mcpb';
import { build } from 'esbuild';
import { EVERYTHING_VERSION, startRegistryFixture } from '../fixtures/registry-server.js';
import { answerDialog, chooseFromPalette, dialog, newestResult, pollUntil, workspaceServers } from './steps.mjs';
import { fixtureServer, scenariosInOneWorkbench, type Workbench } from './workbench.mjs';

const registry = await startRegistryFixture();
after(() => registry.stop());

const MANIFEST = {
  manifest_version: '0.3',
  name: 'carry-test-bundle',
  display_name: 'Carry Test',
  version: '1.2.3',
  description: 'A bundle for the tests',
  author: { name: 'MCP Host tests' },
  server: {
    type: 'node',
    entry_point: 'server/index.js',
    mcp_config: {
      command: 'node',
      args: ['${__dirname}/server/index.js'],
      env: { GREETING: '${user_config.greeting}', API_TOKEN: '${user_config.api_token}' },
    },
  },
  user_config: {
    greeting: { type: 'string', title: 'Greeting', description: 'Said first', required: true },
    api_token: { type: 'string', title: 'API token', description: 'The service token', sensitive: true, required: true },
  },
};

async function packedBundle(): Promise<Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-host-e2e-bundle-'));
  try {
    mkdirSync(join(dir, 'source', 'server'), { recursive: true });
    writeFileSync(join(dir, 'source', 'manifest.json'), JSON.stringify(MANIFEST));
    // The server the bundle carries, in one file (as test/helpers/bundle.ts builds servers for the unit tests).
    const root = fileURLToPath(new URL('../..', import.meta.url));
    await build({
      entryPoints: [join(root, 'test/fixtures/bundle-server.ts')],
      outfile: join(dir, 'source', 'server', 'index.js'),
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      logLevel: 'silent',
      absWorkingDir: root,
    });
    assert.equal(await packExtension({ extensionPath: join(dir, 'source'), outputPath: join(dir, 'carry-test.mcpb'), silent: true }), true);
    return readFileSync(join(dir, 'carry-test.mcpb'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

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

  await pollUntil(wb, () => workspaceServers(wb)?.everything, 30_000);
  assert.deepEqual(workspaceServers(wb)?.everything, {
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

async function bundleInstall(wb: Workbench): Promise<void> {
  await wb.explorerMenu('carry-test.mcpb', 'Install MCP Bundle…');

  const form = wb.webview();
  const greeting = form.getByLabel('Greeting');
  await greeting.waitFor({ timeout: 30_000 });
  assert.equal(await form.locator('input[type="password"]').count(), 0, 'the sensitive value is not in the install form');
  await greeting.fill('Hello from the Explorer');
  await wb.shot('bundle-form');
  await form.getByRole('button', { name: 'Save' }).click();

  // "Workspace", not "User configuration" (whose description says "every workspace").
  const workspaceRow = wb.quickPickRowLabelled('Workspace').first();
  await workspaceRow.waitFor({ timeout: 15_000 });
  await workspaceRow.click();
  const confirm = dialog(wb);
  await confirm.waitFor({ timeout: 15_000 });
  assert.match(await confirm.innerText(), /node '<bundle folder>\/server\/index\.js'/);
  await wb.shot('bundle-confirm');
  await answerDialog(wb, 'Install');

  await pollUntil(wb, () => workspaceServers(wb)?.['carry-test-bundle'], 30_000);
  const entry = workspaceServers(wb)?.['carry-test-bundle'];
  assert.ok(entry, 'the entry is written');
  assert.deepEqual(entry.env, { GREETING: 'Hello from the Explorer', API_TOKEN: '${input:carry-test-bundle-api_token}' });
  assert.match(String((entry.args as string[])[0]), /bundles\/carry-test-bundle-1\.2\.3\/server\/index\.js$/);

  await chooseFromPalette(wb, 'MCP: Run Tool…', 'Start carry-test-bundle');
  const trust = dialog(wb);
  await trust.waitFor({ timeout: 15_000 });
  assert.match(await trust.innerText(), /carry-test-bundle-1\.2\.3\/server\/index\.js/);
  await answerDialog(wb, 'Trust and start');
  const secrets = wb.webview();
  const token = secrets.locator('input[type="password"]');
  await token.waitFor({ timeout: 30_000 });
  await token.fill('s3cret-value');
  await wb.shot('bundle-secret');
  await secrets.getByRole('button', { name: 'Save' }).click();

  // The tool list goes on with the started server's tools, under the other servers' (filtered, as a person would).
  await wb.quickInput.locator('.quick-input-box input').fill('whoami');
  const whoami = wb.quickPickRow('whoami').filter({ hasText: 'carry-test-bundle' }).first();
  await whoami.waitFor({ timeout: 60_000 });
  await whoami.click();
  const panel = wb.webview();
  await panel.getByRole('button', { name: 'Run' }).click();
  const result = newestResult(panel);
  await result.waitFor({ timeout: 60_000 });
  await wb.shot('bundle-result');
  const text = await result.innerText();
  assert.match(text, /Hello from the Explorer/);
  assert.match(text, /"tokenLength":\s*12/);
}

async function sandboxTrust(wb: Workbench): Promise<void> {
  await wb.runCommand('MCP: Start Server');
  const row = wb.quickPickRowLabelled('plain').first();
  await row.waitFor({ timeout: 30_000 });
  await row.click();
  const box = dialog(wb);
  await box.waitFor({ timeout: 15_000 });
  assert.match(await box.innerText(), /Not sandboxed: it runs with your full rights/);
  await wb.shot('trust-prompt');
  await box.getByRole('button', { name: 'Trust and run sandboxed', exact: true }).click();
  const tree = async () => {
    await wb.page.locator('.activitybar [aria-label^="MCP"]').first().click();
    return wb.page.getByRole('tree', { name: 'Servers' });
  };
  await (await tree()).getByRole('treeitem', { name: /^plain, running · sandboxed$/ }).waitFor({ timeout: 60_000 });
  assert.equal(workspaceServers(wb)?.plain?.sandboxEnabled, true);
  assert.equal(await dialog(wb).count(), 0, 'the sandboxed definition is not asked about again');
  await wb.shot('running-sandboxed');
}

scenariosInOneWorkbench(
  'install',
  {
    servers: { plain: { type: 'stdio', command: 'node', args: [await fixtureServer('sandbox-server')] } },
    settings: { 'mcpHost.registry.url': registry.url(), 'mcpHost.trustWorkspaceServers': false },
    files: { 'carry-test.mcpb': await packedBundle() },
  },
  [
    {
      title: 'browse the registry, install a server in the workspace with its argument from the form, trust it, run its tool',
      scenario: 'registry-install',
      body: browseAndInstall,
    },
    {
      title: 'install an MCP Bundle from the Explorer, its setting from the form, trust it, give its secret, run its tool',
      scenario: 'bundle-install',
      body: bundleInstall,
    },
    {
      title: 'the trust prompt says a server is not sandboxed; Trust and run sandboxed writes sandboxEnabled and starts it so',
      scenario: 'sandbox-trust',
      body: sandboxTrust,
    },
    {
      title: 'VS Code\'s chat.mcp.access turned to "none": the gallery leaves the MCP view and the palette',
      scenario: 'registry-access-none',
      body: accessNone,
    },
  ],
);
