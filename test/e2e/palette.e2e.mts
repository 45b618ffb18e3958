// The demo server from the MCP view and the palette: its tools and prompts listed, a prompt's form, a question
// answered with a workspace file, and a long call cancelled. One window runs them in turn (see
// `scenariosInOneWorkbench`); the MCP view's comes first, as it starts the server itself.
//
// Then record, replay, assert: a run with a file is kept in the MCP view's History, run again (its file checked and
// confirmed again), saved as a call, its expectation written in the editor with the completion the saved-calls
// schema gives, run from the view; a run from the Explorer's menu is kept too; then the same file runs with
// `mcp-host run`: it passes, and after the server's answer changes it fails naming the difference (last: it changes
// the workspace's mcp.json).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { parseSavedCalls } from '../../src/core/replay/savedCalls.js';
import {
  answerDialog,
  chooseFromPalette,
  collapseTreeItems,
  describePngFromWorkspace,
  expandTreeItem,
  fillReceiptAnswer,
  inReplacedPanel,
  newestResult,
  openQuickPick,
  runAndSend,
  runToolFromPalette,
} from './steps.mjs';
import { root, scenariosInOneWorkbench, type Workbench } from './workbench.mjs';

async function serversView(wb: Workbench): Promise<void> {
  await wb.page.locator('.activitybar [aria-label^="MCP"]').first().click();
  const view = wb.page.locator('.pane', { has: wb.page.locator('.pane-header', { hasText: 'Servers' }) });
  const server = view.locator('.monaco-list-row', { hasText: 'demo' }).first();
  await server.waitFor({ timeout: 30_000 });
  await wb.shot('servers-view');
  await chooseFromPalette(wb, 'MCP: Start Server', 'demo');
  await view.locator('.monaco-list-row', { hasText: 'Describe a file' }).first().waitFor({ timeout: 30_000 });
  await wb.shot('server-running-with-tools');
  const rows = await view.locator('.monaco-list-row').allInnerTexts();
  for (const tool of ['Describe a file', 'Compare images', 'Count slowly']) {
    assert.ok(
      rows.some((r) => r.includes(tool)),
      `${tool} in ${rows.join(' | ')}`,
    );
  }

  // a prompt: clicked in the view, its arguments are a form, its messages the result
  await view.locator('.monaco-list-row', { hasText: 'Try the demo' }).first().click();
  const panel = wb.webview();
  await panel.getByRole('heading', { level: 1, name: 'Try the demo' }).waitFor({ timeout: 30_000 });
  await panel.getByRole('button', { name: 'Run' }).click();
  await panel.getByText('Required.').waitFor();
  await wb.shot('prompt-argument-required');
  await panel.getByRole('textbox', { name: /^file/i }).fill('notes.txt');
  await panel.getByRole('button', { name: 'Run' }).click();
  const result = newestResult(panel);
  await result.filter({ hasText: 'What is notes.txt?' }).waitFor({ timeout: 30_000 });
  await wb.shot('prompt-messages');
  assert.match(await result.innerText(), /User\s+(Markdown\s+)?What is notes\.txt\?\s+Assistant\s+(Markdown\s+)?Run "Describe a file" and choose notes\.txt/);
}

async function palette(wb: Workbench): Promise<void> {
  await wb.shot('workbench-loaded');
  await wb.openPalette('MCP: Run Tool…');
  await wb.shot('palette-lists-run-tool');
  await wb.page.keyboard.press('Escape');

  const row = wb.quickPickRow('Try the demo').filter({ hasText: 'demo' }).first();
  await openQuickPick(wb, 'MCP: Get Prompt…', 'MCP: Get Prompt', 'demo', row);
  await wb.shot('prompt-quick-pick');
  assert.equal(await wb.quickPickRow('Describe a file').count(), 0, 'tools are not offered as prompts');
  await row.click();
  await wb.webview().getByRole('heading', { level: 1, name: 'Try the demo' }).waitFor({ timeout: 30_000 });
  await wb.shot('prompt-form');
}

/** Runs the tool from its open panel and waits for the server's question. */
async function runAndWaitForQuestion(wb: Workbench): Promise<void> {
  await wb.webview().getByRole('button', { name: 'Run' }).click();
  const question = wb.webview().getByLabel('Message');
  await question.waitFor({ timeout: 30_000 });
  assert.match(await question.innerText(), /Please choose a photo of the receipt/);
}

async function toolResult(wb: Workbench, pattern: RegExp): Promise<string> {
  const result = newestResult(wb.webview()).filter({ hasText: pattern });
  await result.waitFor({ timeout: 30_000 });
  return result.innerText();
}

async function elicitation(wb: Workbench): Promise<void> {
  await runToolFromPalette(wb, 'Record a receipt');

  // 1. accept, with a photo from the workspace
  await runAndWaitForQuestion(wb);
  await wb.shot('question');
  const question = wb.webview();
  await fillReceiptAnswer(wb, question);
  await wb.shot('answer-filled');
  await question.getByRole('button', { name: 'Accept' }).click();
  await answerDialog(wb, 'Send');
  const accepted = await toolResult(wb, /Recorded a receipt/);
  await wb.shot('accepted-result');
  assert.match(accepted, /Recorded a receipt from Corner Café \(other\): 12\.50/);
  assert.match(accepted, /image\/png, 7214 bytes, 64 × 48/);

  // 2. decline
  await runAndWaitForQuestion(wb);
  await wb.webview().getByRole('button', { name: 'Decline' }).click();
  await toolResult(wb, /you chose decline/);
  await wb.shot('declined-result');

  // 3. cancel
  await runAndWaitForQuestion(wb);
  await wb.webview().getByRole('button', { name: 'Cancel' }).click();
  await toolResult(wb, /you chose cancel/);
  await wb.shot('cancelled-result');
}

async function cancel(wb: Workbench): Promise<void> {
  const panel = await runToolFromPalette(wb, 'Count slowly');
  await panel.getByRole('spinbutton', { name: 'Seconds' }).fill('30');
  await panel.getByRole('button', { name: 'Run' }).click();
  await panel.getByText(/Counted \d+ of 150/).waitFor({ timeout: 30_000 });
  await wb.shot('running-with-progress');
  const started = Date.now();
  await panel.getByRole('button', { name: 'Cancel' }).click();
  await panel.getByText('Cancelled.').waitFor({ timeout: 10_000 });
  await wb.shot('cancelled');
  assert.ok(Date.now() - started < 10_000);
  // the count does not go on to a result
  await wb.page.waitForTimeout(2000);
  assert.equal(await panel.getByText(/Counted to 150/).count(), 0);
  assert.equal(await panel.getByRole('button', { name: 'Run' }).isEnabled(), true, 'the form can run again');
}

const everything = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
/** A notification, read in the notification centre (toasts stay hidden in this headless window). */
async function notification(wb: Workbench, text: string): Promise<Locator> {
  const notice = wb.page.locator('.notifications-center .notification-list-item', { hasText: text });
  for (let attempt = 1; ; attempt++) {
    try {
      await wb.runCommand('Notifications: Show Notifications');
      await notice.first().waitFor({ timeout: 15_000 });
      return notice.first();
    } catch (e) {
      if (attempt >= 3) throw e;
      await wb.page.keyboard.press('Escape');
    }
  }
}

const cli = (args: string[], cwd: string) => spawnSync(process.execPath, [join(root, 'dist/cli.js'), ...args], { cwd, encoding: 'utf8', timeout: 120_000 });

async function replay(wb: Workbench): Promise<void> {
  const callsFile = join(wb.folder, '.vscode', 'mcp-calls.json');
  await describePngFromWorkspace(wb);

  // ── History: the run, asked by the person, kept under its server and tool ──
  const tree = wb.page.getByRole('tree', { name: 'Servers' });
  const showView = async () => {
    if (!(await tree.isVisible())) await wb.page.locator('.activitybar [aria-label^="MCP"]').first().click();
  };
  await showView();
  await tree.getByRole('treeitem', { name: /^demo, running$/ }).waitFor({ timeout: 15_000 });
  // The tree shows only what is in view: fold the servers away.
  await collapseTreeItems(tree, [/^demo, /, /^everything, /]);
  const run = tree.getByRole('treeitem', { name: /^Run of describe_file at .*, success · you · \d+ ms$/ });
  const history = tree.getByRole('treeitem', { name: /^History/ });
  const ofServer = tree.getByRole('treeitem', { name: 'History of demo' });
  const ofTool = tree.getByRole('treeitem', { name: 'History of describe_file on demo' });
  await expandTreeItem(history, ofServer);
  await expandTreeItem(ofServer, ofTool);
  await expandTreeItem(ofTool, run.first());
  await wb.shot('history');

  // ── Run Again: the form filled, the file checked again, and the run confirmed again ──
  // Run Again replaces the tool's open panel, which shows the same chosen file: only the new one is waited for.
  let panel = await inReplacedPanel(wb, () => run.click());
  await panel.getByRole('list', { name: 'Chosen files for File' }).getByText('photo.png').waitFor({ timeout: 30_000 });
  await wb.shot('run-again-filled');
  assert.match(await runAndSend(wb, panel, { confirmation: /photo\.png/ }), /64 × 48 pixels/);
  await tree
    .getByRole('treeitem', { name: /^Run of describe_file at / })
    .nth(1)
    .waitFor({ timeout: 15_000 });

  // ── Save Call… from the panel's title bar: the newest run of this tool, file by path and sha-256 ──
  await wb.runCommand('MCP: Save Call…');
  const saved = await notification(wb, 'Saved the call "describe_file" in .vscode/mcp-calls.json.');
  await wb.shot('call-saved');
  const written = JSON.parse(readFileSync(callsFile, 'utf8')) as { calls: Array<Record<string, unknown>> };
  const call = written.calls[0]!;
  assert.deepEqual(Object.keys(call.files as object), ['file']);
  assert.equal((call.files as { file: { path: string; sha256: string } }).file.path, 'photo.png');
  assert.doesNotMatch(readFileSync(callsFile, 'utf8'), /data:/);
  await saved.getByRole('button', { name: 'Open' }).click();
  const editor = wb.page.locator('.editor-instance .monaco-editor').first();
  await wb.page.locator('.tabs-container .tab.active', { hasText: 'mcp-calls.json' }).waitFor({ timeout: 15_000 });

  // ── the expectation written in the editor: the schema completes its keys ──
  await editor.locator('.view-lines').click();
  await wb.page.keyboard.press('Control+A');
  await wb.page.keyboard.press('Delete');
  const open = JSON.stringify(call, null, 2).replace(/\n}$/, ',\n"expect": {\n');
  // (a comment first: a bracket typed into an empty editor is closed by the editor)
  await wb.page.keyboard.insertText(`// Calls of the demo\n{\n"version": 1,\n"calls": [\n${open}`);
  await wb.page.keyboard.press('Control+Space');
  const suggestions = wb.page.locator('.suggest-widget .monaco-list-row');
  await suggestions.first().waitFor({ timeout: 20_000 });
  const offered = (await suggestions.allInnerTexts()).join('\n');
  await wb.shot('expectation-completion');
  for (const key of ['outcome', 'structuredContent', 'text', 'maxDurationMs']) assert.match(offered, new RegExp(key), `completion offers ${key}: ${offered}`);
  await wb.page.keyboard.press('Escape');
  await wb.page.keyboard.insertText('"text": { "contains": "64 × 48 pixels" }\n}\n}\n]\n}\n');
  await wb.page.keyboard.press('Control+S');
  // (saved by Ctrl+S, or already by the editor's auto save: read once the file on disk is whole)
  let edited: ReturnType<typeof parseSavedCalls> | undefined;
  for (let waited = 0; !edited?.calls[0]?.expect; waited += 200) {
    try {
      edited = parseSavedCalls(readFileSync(callsFile, 'utf8'), callsFile);
    } catch (e) {
      if (waited > 10_000) throw e;
    }
    if (!edited?.calls[0]?.expect) {
      if (waited > 10_000) break;
      await wb.page.waitForTimeout(200);
    }
  }
  assert.deepEqual(edited?.calls[0]?.expect, { text: { contains: '64 × 48 pixels' } });

  // ── the saved call run from the view: its file checked, the run confirmed, the expectation met ──
  await showView();
  const savedCall = tree.getByRole('treeitem', { name: /^Saved call describe_file, demo · describe_file$/ });
  await expandTreeItem(tree.getByRole('treeitem', { name: /^Saved Calls/ }), savedCall);
  await savedCall.click();
  await answerDialog(wb, 'Send');
  panel = wb.webview();
  await newestResult(panel).waitFor({ timeout: 30_000 });
  await notification(wb, 'Saved call "describe_file": as expected.');
  await wb.shot('saved-call-as-expected');
  // (the palette's run, Run Again's and the saved call's: each kept, asked by the person)
  const runs = tree.getByRole('treeitem', { name: /^Run of describe_file at .*, success · you · \d+ ms$/ });
  await runs.nth(2).waitFor({ timeout: 15_000 });

  // ── a run from the Explorer's "Run MCP Tool with This File…" is kept too ──
  await wb.runCommand('View: Show Explorer');
  await wb.explorerMenu('photo.png', 'Run MCP Tool with This File…');
  await wb.quickPickRow('Describe a file').first().click({ timeout: 30_000 });
  panel = wb.webview();
  await panel.getByRole('list', { name: 'Chosen files for File' }).getByText('photo.png').waitFor({ timeout: 30_000 });
  await runAndSend(wb, panel, { confirmation: /photo\.png/ });
  await showView();
  await runs.nth(3).waitFor({ timeout: 15_000 });
  await wb.shot('history-explorer-run');

  // ── the same file in CI: a call recorded by the CLI beside it, every call passes ──
  const recorded = cli(['call', 'get-env', '--server', 'everything', '--record', callsFile, '--expect-current'], wb.folder);
  assert.equal(recorded.status, 0, recorded.stderr);
  const pass = cli(['run', callsFile], wb.folder);
  assert.equal(pass.status, 0, pass.stdout + pass.stderr);
  assert.match(pass.stdout, /^pass  describe_file  \(demo\/describe_file, \d+ ms\)$/m);
  assert.match(pass.stdout, /2 passed, 0 failed/);

  // The server's answer changes (another environment in mcp.json): the run fails and says how.
  const config = join(wb.folder, '.vscode', 'mcp.json');
  writeFileSync(config, readFileSync(config, 'utf8').replace('"GREETING": "hello"', '"GREETING": "bonjour"'));
  const fail = cli(['run', callsFile], wb.folder);
  assert.equal(fail.status, 5, fail.stdout + fail.stderr);
  assert.match(fail.stdout, /^FAIL  get-env /m);
  assert.match(fail.stdout, /"GREETING\\": \\"hello\\".*is not in the result; the text's line \d+ is .*"GREETING\\": \\"bonjour\\"/);
  assert.match(fail.stdout, /^pass  describe_file /m);
}

scenariosInOneWorkbench(
  'demo-palette',
  { servers: { everything: { type: 'stdio', command: 'node', args: [everything, 'stdio'], env: { GREETING: 'hello' } } } },
  [
    {
      title: 'the MCP view lists the configured server and, once it runs, its tools; a prompt clicked there opens its form and shows its messages',
      scenario: 'servers-view',
      body: serversView,
    },
    {
      title: 'the command palette lists MCP: Run Tool… once the extension is loaded, and MCP: Get Prompt… offers the prompts',
      scenario: 'palette',
      body: palette,
    },
    {
      title: 'receipt_from_photo asks for a photo: accept sends it, decline and cancel are reported as such',
      scenario: '5-elicitation',
      body: elicitation,
    },
    { title: 'a long-running tool shows its progress and stops when cancelled', scenario: '6-cancel', body: cancel },
    {
      title: 'History, Run Again, Save Call, an expectation edited with completion, run from the view and by mcp-host run',
      scenario: 'replay',
      body: replay,
    },
  ],
);
