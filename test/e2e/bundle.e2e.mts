// MCP: Install MCP Bundle… from the Explorer: a bundle packed with @anthropic-ai/mcpb's own packer lies in the
// workspace; its user_config is asked in the form, the command line shown before anything is written, the entry
// written into the workspace's mcp.json; the first start asks for trust and for the sensitive value (a password
// field), and the bundle's tool runs with what was given.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { packExtension } from '@anthropic-ai/mcpb';
import { build } from 'esbuild';
import { answerDialog, chooseFromPalette, dialog, newestResult } from './steps.mjs';
import { withWorkbench } from './workbench.mjs';

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

test('install an MCP Bundle from the Explorer, its setting from the form, trust it, give its secret, run its tool', async () => {
  const bytes = await packedBundle();
  await withWorkbench('bundle-install', { settings: { 'mcpHost.trustWorkspaceServers': false }, files: { 'carry-test.mcpb': bytes } }, async (wb) => {
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

    const written = async (): Promise<Record<string, unknown> | undefined> => {
      for (let i = 0; i < 300; i++) {
        const config = (() => {
          try {
            return JSON.parse(readFileSync(join(wb.folder, '.vscode/mcp.json'), 'utf8')) as { servers?: Record<string, Record<string, unknown>> };
          } catch {
            return undefined;
          }
        })();
        if (config?.servers?.['carry-test-bundle']) return config.servers['carry-test-bundle'];
        await new Promise((r) => setTimeout(r, 100));
      }
      return undefined;
    };
    const entry = await written();
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
  });
});
