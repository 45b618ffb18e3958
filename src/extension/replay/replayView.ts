// The MCP view's History (runs by server and tool: Run Again, Show Result, Copy as mcp-host Command, Save Call…,
// Expect This Result) and Saved Calls (each workspace folder's .vscode/mcp-calls.json; clicking one runs it in its
// tool's panel, through the panel's confirmation, and checks its expectations).
import * as vscode from 'vscode';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { findFileSlots } from '../../core/files';
import { pointer } from '../../core/forms/build';
import {
  appendSavedCall, checkExpectations, expectationsOf, fileChangedSince, mcpHostCommand, observedOf, readSavedCalls, resolveSavedPath,
  savedCallOf, SAVED_CALLS_FILE, savedFilesOf, writeSavedCalls, type RunRecord, type SavedCall,
} from '../../core/replay';
import { errorText } from '../../core/errors';
import { setAtPath } from '../../core/files';
import { oneLine } from '../../shared/format';
import { RunPanel, type RunPanelContext } from '../runPanel';
import type { RunHistory } from './runHistory';

export type ReplayNode =
  | { kind: 'history' }
  | { kind: 'historyServer'; server: string }
  | { kind: 'historyTool'; server: string; tool: string }
  | { kind: 'run'; id: string }
  | { kind: 'savedCalls' }
  | { kind: 'savedCall'; file: string; call: SavedCall };

const REPLAY_KINDS = new Set(['history', 'historyServer', 'historyTool', 'run', 'savedCalls', 'savedCall']);
export const isReplayNode = (node: { kind: string }): node is ReplayNode => REPLAY_KINDS.has(node.kind);

/** The saved-calls file of a workspace folder. */
export const savedCallsFileOf = (folder: vscode.WorkspaceFolder) => join(folder.uri.fsPath, '.vscode', SAVED_CALLS_FILE);

export class ReplayTree implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private saved: Array<{ file: string; calls: SavedCall[]; problem?: string }> = [];
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly history: RunHistory) {
    this.subscriptions.push(history.onDidChange(() => this.changed.fire()));
    const watcher = vscode.workspace.createFileSystemWatcher(`**/.vscode/${SAVED_CALLS_FILE}`);
    this.subscriptions.push(watcher, watcher.onDidChange(() => void this.reload()), watcher.onDidCreate(() => void this.reload()),
      watcher.onDidDelete(() => void this.reload()), vscode.workspace.onDidChangeWorkspaceFolders(() => void this.reload()));
    void this.reload();
  }

  async reload(): Promise<void> {
    const out: typeof this.saved = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const file = savedCallsFileOf(folder);
      try {
        out.push({ file, calls: (await readSavedCalls(file)).calls });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') out.push({ file, calls: [], problem: errorText(e) });
      }
    }
    this.saved = out;
    this.changed.fire();
  }

  roots(): ReplayNode[] {
    return [{ kind: 'savedCalls' }, { kind: 'history' }];
  }

  children(node: ReplayNode): ReplayNode[] {
    const runs = this.history.runs();
    switch (node.kind) {
      case 'history': return [...new Set(runs.map((r) => r.server))].map((server) => ({ kind: 'historyServer', server }));
      case 'historyServer': return [...new Set(runs.filter((r) => r.server === node.server).map((r) => r.tool))].map((tool) => ({ kind: 'historyTool', server: node.server, tool }));
      case 'historyTool': return runs.filter((r) => r.server === node.server && r.tool === node.tool).map((r) => ({ kind: 'run', id: r.id }));
      case 'savedCalls': return this.saved.flatMap(({ file, calls }) => calls.map((call): ReplayNode => ({ kind: 'savedCall', file, call })));
      default: return [];
    }
  }

  item(node: ReplayNode): vscode.TreeItem {
    const Collapsed = vscode.TreeItemCollapsibleState.Collapsed;
    switch (node.kind) {
      case 'history': {
        const item = new vscode.TreeItem('History', Collapsed);
        item.id = 'history';
        item.description = String(this.history.runs().length);
        item.iconPath = new vscode.ThemeIcon('history');
        item.contextValue = 'mcpHistory';
        return item;
      }
      case 'historyServer': {
        const item = new vscode.TreeItem(node.server, Collapsed);
        item.id = `history\u0000${node.server}`;
        item.iconPath = new vscode.ThemeIcon('server');
        return item;
      }
      case 'historyTool': {
        const item = new vscode.TreeItem(oneLine(node.tool), Collapsed);
        item.id = `history\u0000${node.server}\u0000${node.tool}`;
        item.iconPath = new vscode.ThemeIcon('tools');
        return item;
      }
      case 'run': {
        const run = this.history.get(node.id);
        const item = new vscode.TreeItem(run ? new Date(run.at).toLocaleString() : 'gone', vscode.TreeItemCollapsibleState.None);
        item.id = `run\u0000${node.id}`;
        if (!run) return item;
        item.description = `${run.outcome === 'toolError' ? 'tool error' : run.outcome} · ${run.by === 'agent' ? 'agent' : 'you'} · ${Math.round(run.durationMs)} ms`;
        item.tooltip = runTooltip(run);
        item.iconPath = new vscode.ThemeIcon(run.outcome === 'success' ? 'pass' : run.outcome === 'cancelled' ? 'circle-slash' : 'error');
        item.contextValue = `mcpRun${this.history.result(run.id) !== undefined ? '.result' : ''}`;
        item.command = { command: 'mcpHost.runAgain', title: 'Run Again', arguments: [node] };
        return item;
      }
      case 'savedCalls': {
        const item = new vscode.TreeItem('Saved Calls', Collapsed);
        item.id = 'savedCalls';
        const problems = this.saved.filter((s) => s.problem);
        item.description = problems.length ? 'file not valid' : String(this.saved.reduce((n, s) => n + s.calls.length, 0));
        item.tooltip = problems.map((p) => p.problem).join('\n\n') || undefined;
        item.iconPath = new vscode.ThemeIcon(problems.length ? 'warning' : 'bookmark');
        item.contextValue = 'mcpSavedCalls';
        return item;
      }
      case 'savedCall': {
        const item = new vscode.TreeItem(oneLine(node.call.name), vscode.TreeItemCollapsibleState.None);
        item.id = `saved\u0000${node.file}\u0000${node.call.name}`;
        item.description = `${node.call.server} · ${oneLine(node.call.tool)}`;
        item.tooltip = `${vscode.workspace.asRelativePath(node.file)}\n${JSON.stringify(node.call, null, 2).slice(0, 2000)}`;
        item.iconPath = new vscode.ThemeIcon('play');
        item.contextValue = 'mcpSavedCall';
        item.command = { command: 'mcpHost.runSavedCall', title: 'Run Saved Call', arguments: [node] };
        return item;
      }
    }
  }

  dispose(): void {
    this.changed.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}

function runTooltip(run: RunRecord): string {
  const lines = [`${run.server} · ${run.tool}`, `asked by ${run.by === 'agent' ? 'an agent' : 'you'}`];
  if (run.arguments) lines.push(`arguments: ${JSON.stringify(run.arguments).slice(0, 500)}`);
  if (run.argumentsNote) lines.push(run.argumentsNote);
  for (const f of run.files) lines.push(`${f.argument}: ${vscode.workspace.asRelativePath(f.path)} (${f.mediaType}, ${f.size} bytes)`);
  if (run.secrets.length) lines.push(`secrets left out: ${run.secrets.join(', ')}`);
  if (run.error) lines.push(run.error);
  return lines.join('\n');
}

/** The workspace folder a path is in (the first folder when it is in none). */
function folderOf(path: string): vscode.WorkspaceFolder | undefined {
  return vscode.workspace.getWorkspaceFolder(vscode.Uri.file(path)) ?? vscode.workspace.workspaceFolders?.[0];
}

/**
 * A tool's panel filled with arguments and files: each file must be the one recorded (same size and sha-256),
 * or it is refused, naming what changed; then checked again as it is chosen, and confirmed when run.
 */
async function openFilled(panels: RunPanelContext, server: string, toolName: string, args: Record<string, unknown>,
  files: ReadonlyArray<{ argument: string; path: string; size?: number; sha256?: string }>): Promise<RunPanel> {
  const connection = await panels.manager.start(server);
  const tool = connection.tools.find((t) => t.name === toolName);
  if (!tool) throw new Error(`The server "${server}" has no tool named "${toolName}".`);
  const { slots } = findFileSlots(tool, connection.log);
  const byField = new Map<string, string[]>();
  for (const f of files) {
    const slot = slots.find((s) => s.label === f.argument);
    if (!slot) throw new Error(`${f.argument} is not a file argument of ${toolName} any more.`);
    const changed = await fileChangedSince(f.path, f, f.argument);
    if (changed) throw new Error(`${changed}. It is not sent; choose it again in the panel if the new file is meant.`);
    byField.set(pointer(slot.path), [...byField.get(pointer(slot.path)) ?? [], f.path]);
  }
  return RunPanel.showFilled(panels, server, tool, args, [...byField].map(([field, paths]) => ({ field, paths })));
}

async function appendToSavedCalls(call: SavedCall, folder: vscode.WorkspaceFolder): Promise<string> {
  const file = savedCallsFileOf(folder);
  let text = '';
  try { text = await readFile(file, 'utf8'); } catch (e) { if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e; }
  const { text: next, name } = appendSavedCall(text, file, call);
  await vscode.workspace.fs.createDirectory(vscode.Uri.file(join(folder.uri.fsPath, '.vscode')));
  await writeSavedCalls(file, next);
  return name;
}

export function registerReplay(context: vscode.ExtensionContext, panels: RunPanelContext, history: RunHistory, tree: ReplayTree,
  register: (id: string, run: (...args: never[]) => unknown) => void): void {
  const runOf = (node?: ReplayNode) => {
    const run = node?.kind === 'run' ? history.get(node.id) : undefined;
    if (!run) throw new Error('Choose a run in the MCP view\'s History.');
    return run;
  };
  register('mcpHost.runAgain', async (node?: ReplayNode) => {
    const run = runOf(node);
    if (!run.arguments) throw new Error(`This run cannot be run again: ${run.argumentsNote ?? 'its arguments were not kept'}.`);
    const panel = await openFilled(panels, run.server, run.tool, run.arguments, run.files);
    if (run.secrets.length) void vscode.window.showInformationMessage(`Fill in ${run.secrets.join(', ')} again: secrets are not kept.`);
    return panel;
  });
  register('mcpHost.showRunResult', async (node?: ReplayNode) => {
    const run = runOf(node);
    const result = history.result(run.id);
    if (result === undefined) throw new Error(run.error ? `This run has no result: ${run.error}` : 'This run\'s result is no longer kept (the newest runs\' are).');
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
      if (result === undefined) throw new Error('This run\'s result is no longer kept; run it again, then Expect This Result.');
      call.expect = { ...expectationsOf(observedOf(JSON.parse(result.replace(/\n… \(cut: [^\n]*$/, '')) as never, run.durationMs)) };
    }
    const name = await appendToSavedCalls(call, folder);
    await tree.reload();
    const open = await vscode.window.showInformationMessage(`Saved the call "${name}" in .vscode/${SAVED_CALLS_FILE}.`, 'Open');
    if (open) await vscode.window.showTextDocument(vscode.Uri.file(savedCallsFileOf(folder)));
    return name;
  };
  register('mcpHost.saveCall', (node?: ReplayNode) => saveRun(runOf(node ?? latestRun(history)), false));
  register('mcpHost.expectThisResult', (node?: ReplayNode) => saveRun(runOf(node ?? latestRun(history)), true));
  register('mcpHost.runSavedCall', async (node?: ReplayNode) => {
    if (node?.kind !== 'savedCall') throw new Error('Choose a saved call in the MCP view.');
    const { call, file } = node;
    const folder = folderOf(file);
    const base = folder?.uri.fsPath ?? join(file, '..', '..');
    const args = structuredClone(call.arguments ?? {});
    for (const [label, source] of Object.entries(call.secrets ?? {})) {
      const value = await vscode.window.showInputBox({ prompt: `${call.name}: ${label} (${source} on the command line)`, password: true, ignoreFocusOut: true });
      if (value === undefined) return undefined;
      setAtPath(args, label.split('.'), value);
    }
    const files = savedFilesOf(call).flatMap(({ label, files: list }) => list.map((f) => ({ argument: label, ...f, path: resolveSavedPath(base, f.path, label) })));
    const panel = await openFilled(panels, call.server, call.tool, args, files);
    const started = performance.now();
    const outcome = await panel.runFilled();
    if (!outcome) return undefined;
    const differences = checkExpectations({ outcome: 'success', ...call.expect }, observedOf(outcome.result as never, performance.now() - started));
    if (differences.length === 0) void vscode.window.showInformationMessage(`Saved call "${call.name}": as expected.`);
    else void vscode.window.showWarningMessage(`Saved call "${call.name}" differs: ${differences.join('; ')}`);
    return differences;
  });
  register('mcpHost.openSavedCalls', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) throw new Error('Open a folder first.');
    const file = vscode.Uri.file(savedCallsFileOf(folder));
    try { await vscode.workspace.fs.stat(file); } catch {
      await vscode.workspace.fs.createDirectory(vscode.Uri.file(join(folder.uri.fsPath, '.vscode')));
      await writeSavedCalls(file.fsPath, '{\n  "version": 1,\n  "calls": []\n}\n');
    }
    await vscode.window.showTextDocument(file);
  });
  register('mcpHost.clearHistory', () => history.clear());
  context.subscriptions.push(tree);
}

/** The newest run of the tool panel in front (Save Call… in its title bar), else the newest run. */
function latestRun(history: RunHistory): ReplayNode | undefined {
  const panel = RunPanel.active();
  const tool = panel?.subject.kind === 'tool' ? panel.subject.tool.name : undefined;
  const run = history.runs().find((r) => !panel || (r.server === panel.server && r.tool === tool));
  return run && { kind: 'run', id: run.id };
}
