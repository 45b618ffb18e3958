// What the History and Saved Calls rows of the MCP view do: Run Again, Show Result, Copy as mcp-host Command,
// Save Call…, Expect This Result, and a saved call run in its tool's panel (through the panel's confirmation) with
// its expectations checked. A bundle of its own (dist/replay.js), required on first use: it gets the extension's
// live objects (the panels, the history, the tree) from its caller, never a copy of their modules.
import * as vscode from 'vscode';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { findFileSlots } from '../../core/files';
import { pointer } from '../../core/forms/build';
import {
  appendSavedCall,
  checkExpectations,
  expectationsOf,
  fileChangedSince,
  isCutResult,
  mcpHostCommand,
  observedOf,
  readSavedCalls,
  resolveSavedPath,
  savedCallOf,
  SAVED_CALLS_FILE,
  savedFilesOf,
  writeSavedCalls,
  type RunRecord,
  type SavedCall,
} from '../../core/replay';
import { setAtPath } from '../../core/files';
import type { ToolPanel, ToolPanelContext } from '../panels/toolPanel';
import type { RunHistory } from './runHistory';
import { savedCallsFileOf, type ReplayNode, type ReplayTree } from './replayTree';

export { readSavedCalls };

/** What the commands use of the extension (its live objects, from main.js). */
export interface ReplayDeps {
  panels: ToolPanelContext;
  history: RunHistory;
  tree: ReplayTree;
  showFilled: typeof ToolPanel.showFilled;
  activePanel: () => ToolPanel | undefined;
}

/** The workspace folder a path is in (the first folder when it is in none). */
function folderOf(path: string): vscode.WorkspaceFolder | undefined {
  return vscode.workspace.getWorkspaceFolder(vscode.Uri.file(path)) ?? vscode.workspace.workspaceFolders?.[0];
}

/**
 * A tool's panel filled with arguments and files: each file must be the one recorded (same size and sha-256),
 * or it is refused, naming what changed; then checked again as it is chosen, and confirmed when run.
 */
async function openFilled(
  deps: ReplayDeps,
  server: string,
  toolName: string,
  args: Record<string, unknown>,
  files: ReadonlyArray<{ argument: string; path: string; size?: number; sha256?: string }>,
): Promise<ToolPanel> {
  const connection = await deps.panels.manager.start(server);
  const tool = connection.tools.find((t) => t.name === toolName);
  if (!tool) throw new Error(`The server "${server}" has no tool named "${toolName}".`);
  const { slots } = findFileSlots(tool, connection.log);
  const byField = new Map<string, string[]>();
  for (const f of files) {
    const slot = slots.find((s) => s.label === f.argument);
    if (!slot) throw new Error(`${f.argument} is not a file argument of ${toolName} any more.`);
    const changed = await fileChangedSince(f.path, f, f.argument);
    if (changed) throw new Error(`${changed}. It is not sent; choose it again in the panel if the new file is meant.`);
    byField.set(pointer(slot.path), [...(byField.get(pointer(slot.path)) ?? []), f.path]);
  }
  return deps.showFilled(
    deps.panels,
    server,
    tool,
    args,
    [...byField].map(([field, paths]) => ({ field, paths })),
  );
}

async function appendToSavedCalls(call: SavedCall, folder: vscode.WorkspaceFolder): Promise<string> {
  const file = savedCallsFileOf(folder);
  let text = '';
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const { text: next, name } = appendSavedCall(text, file, call);
  await vscode.workspace.fs.createDirectory(vscode.Uri.file(join(folder.uri.fsPath, '.vscode')));
  await writeSavedCalls(file, next);
  return name;
}

/** The commands by id. */
export function replayCommandHandlers(deps: ReplayDeps): Record<string, (...args: never[]) => unknown> {
  const { history, tree } = deps;
  const handlers: Record<string, (...args: never[]) => unknown> = {};
  const register = (id: string, run: (...args: never[]) => unknown) => {
    handlers[id] = run;
  };
  const runOf = (node?: ReplayNode) => {
    const run = node?.kind === 'run' ? history.get(node.id) : undefined;
    if (!run) throw new Error("Choose a run in the MCP view's History.");
    return run;
  };
  register('mcpHost.runAgain', async (node?: ReplayNode) => {
    const run = runOf(node);
    if (!run.arguments) throw new Error(`This run cannot be run again: ${run.argumentsNote ?? 'its arguments were not kept'}.`);
    const panel = await openFilled(deps, run.server, run.tool, run.arguments, run.files);
    if (run.secrets.length) void vscode.window.showInformationMessage(`Fill in ${run.secrets.join(', ')} again: secrets are not kept.`);
    return panel;
  });
  register('mcpHost.showRunResult', async (node?: ReplayNode) => {
    const run = runOf(node);
    const result = history.result(run.id);
    if (result === undefined)
      throw new Error(run.error ? `This run has no result: ${run.error}` : "This run's result is no longer kept (the newest runs' are).");
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ language: 'json', content: result }), { preview: true });
  });
  register('mcpHost.copyRunCommand', async (node?: ReplayNode) => {
    const run = runOf(node);
    const folder = run.files[0] ? folderOf(run.files[0].path) : vscode.workspace.workspaceFolders?.[0];
    const command = mcpHostCommand(run, folder ? { base: folder.uri.fsPath } : {});
    await vscode.env.clipboard.writeText(command);
    void vscode.window.showInformationMessage(`Copied: ${command.length > 200 ? `${command.slice(0, 200)}…` : command}`);
    return command;
  });
  const saveRun = async (run: RunRecord, expect: boolean): Promise<string> => {
    if (!run.arguments) throw new Error(`This run cannot be saved: ${run.argumentsNote ?? 'its arguments were not kept'}.`);
    const folder = run.files[0] ? folderOf(run.files[0].path) : vscode.workspace.workspaceFolders?.[0];
    if (!folder) throw new Error('Open a folder to save calls in (they go to .vscode/mcp-calls.json).');
    const call = savedCallOf(run, folder.uri.fsPath);
    if (expect) {
      const result = history.result(run.id);
      if (result === undefined) throw new Error("This run's result is no longer kept; run it again, then Expect This Result.");
      if (isCutResult(result)) throw new Error("This run's result was too large to keep whole; write its expectations in the file by hand.");
      call.expect = expectationsOf(observedOf(JSON.parse(result) as CallToolResult, run.durationMs));
    }
    const name = await appendToSavedCalls(call, folder);
    await tree.reload();
    const open = await vscode.window.showInformationMessage(`Saved the call "${name}" in .vscode/${SAVED_CALLS_FILE}.`, 'Open');
    if (open) await vscode.window.showTextDocument(vscode.Uri.file(savedCallsFileOf(folder)));
    return name;
  };
  register('mcpHost.saveCall', (node?: ReplayNode) => saveRun(runOf(node ?? latestRun(history, deps.activePanel)), false));
  register('mcpHost.expectThisResult', (node?: ReplayNode) => saveRun(runOf(node ?? latestRun(history, deps.activePanel)), true));
  register('mcpHost.runSavedCall', async (node?: ReplayNode) => {
    if (node?.kind !== 'savedCall') throw new Error('Choose a saved call in the MCP view.');
    const { call, file } = node;
    const folder = folderOf(file);
    const base = folder?.uri.fsPath ?? join(file, '..', '..');
    const args = structuredClone(call.arguments ?? {});
    for (const [label, source] of Object.entries(call.secrets ?? {})) {
      const value = await vscode.window.showInputBox({
        prompt: `${call.name}: ${label} (${source} on the command line)`,
        password: true,
        ignoreFocusOut: true,
      });
      if (value === undefined) return undefined;
      setAtPath(args, label.split('.'), value);
    }
    const files = savedFilesOf(call).flatMap(({ label, files: list }) =>
      list.map((f) => ({ argument: label, ...f, path: resolveSavedPath(base, f.path, label) })),
    );
    const panel = await openFilled(deps, call.server, call.tool, args, files);
    const outcome = await panel.runFilled();
    if (!outcome) return undefined;
    // Without an outcome expectation, a tool error fails the call (as `mcp-host run` judges it).
    const differences = checkExpectations({ outcome: 'success', ...call.expect }, observedOf(outcome.result as CallToolResult, outcome.durationMs));
    if (differences.length === 0) void vscode.window.showInformationMessage(`Saved call "${call.name}": as expected.`);
    else void vscode.window.showWarningMessage(`Saved call "${call.name}" differs: ${differences.join('; ')}`);
    return differences;
  });
  register('mcpHost.openSavedCalls', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) throw new Error('Open a folder first.');
    const file = vscode.Uri.file(savedCallsFileOf(folder));
    try {
      await vscode.workspace.fs.stat(file);
    } catch {
      await vscode.workspace.fs.createDirectory(vscode.Uri.file(join(folder.uri.fsPath, '.vscode')));
      await writeSavedCalls(file.fsPath, '{\n  "version": 1,\n  "calls": []\n}\n');
    }
    await vscode.window.showTextDocument(file);
  });
  register('mcpHost.clearHistory', () => history.clear());
  return handlers;
}

/** The newest run of the tool panel in front (Save Call… in its title bar), else the newest run. */
function latestRun(history: RunHistory, activePanel: () => ToolPanel | undefined): ReplayNode | undefined {
  const panel = activePanel();
  const tool = panel?.subject.kind === 'tool' ? panel.subject.tool.name : undefined;
  const run = history.runs().find((r) => !panel || (r.server === panel.server && r.tool === tool));
  return run && { kind: 'run', id: run.id };
}
