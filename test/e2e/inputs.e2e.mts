import assert from 'node:assert/strict';
import { test } from 'node:test';
import { demoServer, withWorkbench } from './workbench.mjs';

const servers = { 'with-token': { type: 'stdio' as const, command: 'node', args: [demoServer], env: { DEMO_TOKEN: '${input:token}' } } };
const inputs = [{ type: 'promptString', id: 'token', description: 'The demo token', password: true }];

test("a server's inputs are asked once, kept, and reused after the window reloads", async () => {
  await withWorkbench('8-server-inputs', { servers, inputs }, async (wb) => {
    await wb.runCommand('MCP: Run Tool…');
    const start = wb.quickPickRow('Start with-token').first();
    await start.waitFor({ timeout: 30_000 });
    await wb.shot('asks-for-inputs');
    await start.click();

    const form = wb.webview();
    const token = form.locator('input[type="password"]');
    await token.waitFor({ timeout: 30_000 });
    await token.fill('s3cret-token');
    await wb.shot('inputs-form');
    await form.getByRole('button', { name: 'Save' }).click();
    // the server starts with the value and its tools are offered
    await wb.quickPickRow('Describe a file').filter({ hasText: 'with-token' }).first().waitFor({ timeout: 30_000 });
    await wb.shot('started-with-inputs');
    await wb.page.keyboard.press('Escape');

    await wb.load();
    await wb.shot('reloaded');
    await wb.runCommand('MCP: Run Tool…');
    await wb.quickPickRow('Describe a file').filter({ hasText: 'with-token' }).first().waitFor({ timeout: 30_000 });
    await wb.shot('started-without-asking');
    assert.equal(await wb.quickPickRow('Start with-token').count(), 0, 'no second request for the inputs');
    assert.equal(await wb.page.locator('iframe.webview.ready').count(), 0, 'no inputs form opened');
  });
});
