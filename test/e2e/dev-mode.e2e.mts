// Dev mode in the real workbench, as a person writing a server uses it: the server (test/fixtures/dev-server.mjs,
// copied into the workspace) starts with the window and its traffic shows in its output channel; editing its source
// in the editor restarts it within a few seconds, and a call under way ends saying so; with dev.debug, a breakpoint
// set in the editor on the tool's handler stops the call run from the panel, and Continue lets it answer.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { chooseFromPalette, runToolFromPalette } from './steps.mjs';
import { root, withWorkbench, type Workbench } from './workbench.mjs';

const fixture = readFileSync(join(root, 'test/fixtures/dev-server.mjs'), 'utf8');
const SOURCE = 'dev-server/server.mjs';
/** 1-based lines of the fixture. */
const lineOf = (text: string) => fixture.split('\n').findIndex((l) => l.includes(text)) + 1;

/** VS Code's own MCP support reads the same mcp.json and starts a server in dev mode too: here it is off. */
const settings = { 'chat.mcp.access': 'none' };

function devServer(dev: unknown) {
  return { type: 'stdio' as const, command: 'node', args: [`\${workspaceFolder}/${SOURCE}`], dev };
}

/** Opens the server's source at a line with Quick Open (`file:line`); `aside` opens it in the next editor group. */
async function openSource(wb: Workbench, line: number, aside = false): Promise<void> {
  await wb.runCommand('Go to File...');
  const input = wb.quickInput.locator('.quick-input-box input');
  await input.waitFor();
  await input.fill(`server.mjs:${line}`);
  await wb.quickPickRow('server.mjs').first().waitFor({ timeout: 15_000 });
  await wb.page.keyboard.press(aside ? 'ControlOrMeta+Enter' : 'Enter');
  await wb.page
    .locator('.monaco-editor .view-lines', { hasText: /VERSION/ })
    .first()
    .waitFor({ timeout: 15_000 });
}

test('dev mode: the server starts with the window, its traffic in its log; editing its source restarts it, ending the call under way', async () => {
  await withWorkbench(
    'dev-mode-watch',
    {
      servers: { 'my-server': devServer({ watch: 'dev-server/**/*.mjs' }) },
      files: { [SOURCE]: fixture },
      settings,
    },
    async (wb) => {
      // Nobody starts it: its output channel shows it running, with the JSON-RPC traffic at Info.
      await chooseFromPalette(wb, 'MCP: Show Server Output', 'my-server');
      const output = wb.page.locator('.output-view .view-lines, .panel .monaco-editor .view-lines').first();
      await output.filter({ hasText: /\[trace\]\s\[host\s->\sserver\]\s\{"method":"tools\/list","jsonrpc":"2\.0","id":\d+\}/ }).waitFor({ timeout: 30_000 });
      await output.filter({ hasText: /\[server\s->\shost\].*"serverInfo":\{"name":"dev-server","version":"v1"\}/ }).waitFor({ timeout: 30_000 });
      await wb.shot('traffic-in-output');

      // A call that takes a while, then the source edited and saved in the editor beside the panel.
      const panel = await runToolFromPalette(wb, 'Wait', 'my-server');
      await panel.getByRole('spinbutton', { name: 'Seconds' }).fill('30');
      await panel.getByRole('button', { name: 'Run' }).click();
      await panel.getByRole('button', { name: 'Cancel' }).waitFor({ timeout: 15_000 });
      await openSource(wb, lineOf("const VERSION = 'v1';"), true);
      await wb.page.keyboard.press('End');
      await wb.page.keyboard.press('ArrowLeft');
      await wb.page.keyboard.press('ArrowLeft');
      await wb.page.keyboard.press('Backspace');
      await wb.page.keyboard.type('2');
      await wb.shot('source-edited');
      const pressed = Date.now();
      await wb.page.keyboard.press('ControlOrMeta+S');
      // From the moment the file holds the edit (the editor's save takes its own time).
      for (const deadline = Date.now() + 15_000; !readFileSync(join(wb.folder, SOURCE), 'utf8').includes("const VERSION = 'v2';");) {
        assert.ok(Date.now() < deadline, 'the editor saved the file within 15 s');
        await new Promise((r) => setTimeout(r, 20));
      }
      const saved = Date.now();
      await panel.getByText(`Failed: tool "wait" ended: the server was restarted: ${SOURCE} changed (dev.watch)`).waitFor({ timeout: 15_000 });
      const ended = Date.now() - saved;
      // Its output channel (still shown below) has the new server's handshake within a few seconds of the save.
      await output.filter({ hasText: /\[server\s->\shost\].*"serverInfo":\{"name":"dev-server","version":"v2"\}/ }).waitFor({ timeout: 15_000 });
      const restarted = Date.now() - saved;
      await wb.shot('call-ended-by-restart');
      console.log(`dev mode e2e: saved ${saved - pressed} ms after Ctrl+S; then the call ended after ${ended} ms, the edited source ran after ${restarted} ms`);
      // (about 1.5 s on an idle machine, the integration test's bound is 5 s; here the browser and code-server add theirs)
      assert.ok(restarted < 10_000, `restarted ${restarted} ms after the save`);

      // The new source answers (in a panel of its own: the others closed).
      await wb.runCommand('View: Close All Editors');
      const versionPanel = await runToolFromPalette(wb, 'Server version', 'my-server');
      await versionPanel.getByRole('button', { name: 'Run' }).click();
      await versionPanel.getByText(/version v2 \(pid \d+\)/).waitFor({ timeout: 15_000 });
      await wb.shot('new-source-answers');
    },
  );
});

test("dev mode: a breakpoint in a node server's tool handler stops the call run from the panel", async () => {
  await withWorkbench(
    'dev-mode-debug',
    {
      servers: { 'my-server': devServer({ debug: { type: 'node' } }) },
      files: { [SOURCE]: fixture },
      settings,
    },
    async (wb) => {
      const line = lineOf('const answer = `version');
      await openSource(wb, line);
      await wb.page.keyboard.press('F9');
      await wb.page.locator('.monaco-editor .codicon-debug-breakpoint').first().waitFor({ timeout: 10_000 });
      await wb.shot('breakpoint-set');

      const panel = await runToolFromPalette(wb, 'Server version', 'my-server');
      await panel.getByRole('button', { name: 'Run' }).click();
      // The debugger stops in versionTool, at the breakpoint's line.
      await wb.page
        .getByText(/Paused on breakpoint/i)
        .first()
        .waitFor({ timeout: 60_000 });
      const frame = wb.page.locator('.debug-call-stack .monaco-list-row', { hasText: 'versionTool' }).first();
      await frame.waitFor({ timeout: 15_000 });
      assert.match(await frame.innerText(), new RegExp(`server\\.mjs\\s*${line}`));
      await wb.page.locator('.monaco-editor .debug-top-stack-frame-line').first().waitFor({ timeout: 15_000 });
      await wb.shot('paused-in-tool-handler');

      // Continue: the call answers in the panel.
      await wb.page.keyboard.press('F5');
      await wb.page.locator('.tab', { hasText: 'Server version' }).first().click();
      await wb
        .webview()
        .getByText(/version v1 \(pid \d+\)/)
        .waitFor({ timeout: 30_000 });
      await wb.shot('answered-after-continue');
    },
  );
});
