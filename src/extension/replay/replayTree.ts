// The MCP view's History (runs by server and tool) and Saved Calls (each workspace folder's
// .vscode/mcp-calls.json). What the rows do is in replayCommands.ts, a bundle of its own (dist/replay.js) loaded
// on first use, like the saved-calls format it reads: activation does not parse them.
import * as vscode from 'vscode';
import { join } from 'node:path';
import { SAVED_CALLS_FILE } from '../../core/replay/paths';
import type { RunRecord } from '../../core/replay/record';
import type { SavedCall } from '../../core/replay/savedCalls';
import { errorText } from '../../core/errors';
import { oneLine } from '../../shared/format';
import type { RunHistory } from './runHistory';

/** The commands of the rows (package.json contributes them; replayCommands.ts does them). */
export const REPLAY_COMMANDS = [
  'mcpHost.runAgain',
  'mcpHost.showRunResult',
  'mcpHost.copyRunCommand',
  'mcpHost.saveCall',
  'mcpHost.expectThisResult',
  'mcpHost.runSavedCall',
  'mcpHost.openSavedCalls',
  'mcpHost.clearHistory',
] as const;

/** The commands of the rows, loaded on first use. */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a bundle of its own (scripts/build.mjs), required on first use
export const replayCommands = () => require('./replayCommands') as typeof import('./replayCommands');

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

  /** Read when the Saved Calls row is first expanded (or a saved-calls file changes after that). */
  private savedRead = false;

  constructor(private readonly history: RunHistory) {
    this.subscriptions.push(history.onDidChange(() => this.changed.fire()));
    const watcher = vscode.workspace.createFileSystemWatcher(`**/.vscode/${SAVED_CALLS_FILE}`);
    const changed = () => {
      if (this.savedRead) void this.reload();
    };
    this.subscriptions.push(
      watcher,
      watcher.onDidChange(changed),
      watcher.onDidCreate(changed),
      watcher.onDidDelete(changed),
      vscode.workspace.onDidChangeWorkspaceFolders(changed),
    );
  }

  /** Reads every workspace folder's saved calls again. */
  async reload(): Promise<void> {
    this.savedRead = true;
    const { readSavedCalls } = replayCommands();
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
      case 'history':
        return [...new Set(runs.map((r) => r.server))].map((server) => ({ kind: 'historyServer', server }));
      case 'historyServer':
        return [...new Set(runs.filter((r) => r.server === node.server).map((r) => r.tool))].map((tool) => ({
          kind: 'historyTool',
          server: node.server,
          tool,
        }));
      case 'historyTool':
        return runs.filter((r) => r.server === node.server && r.tool === node.tool).map((r) => ({ kind: 'run', id: r.id }));
      case 'savedCalls':
        if (!this.savedRead) void this.reload();
        return this.saved.flatMap(({ file, calls }) => calls.map((call): ReplayNode => ({ kind: 'savedCall', file, call })));
      default:
        return [];
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
        item.accessibilityInformation = { label: `History of ${node.server}` };
        return item;
      }
      case 'historyTool': {
        const item = new vscode.TreeItem(oneLine(node.tool), Collapsed);
        item.id = `history\u0000${node.server}\u0000${node.tool}`;
        item.iconPath = new vscode.ThemeIcon('tools');
        item.accessibilityInformation = { label: `History of ${node.tool} on ${node.server}` };
        return item;
      }
      case 'run': {
        const run = this.history.get(node.id);
        const item = new vscode.TreeItem(run ? new Date(run.at).toLocaleString() : 'gone', vscode.TreeItemCollapsibleState.None);
        item.id = `run\u0000${node.id}`;
        if (!run) return item;
        item.description = `${run.outcome === 'toolError' ? 'tool error' : run.outcome} · ${run.by === 'agent' ? 'agent' : 'you'} · ${Math.round(run.durationMs)} ms`;
        item.tooltip = runTooltip(run);
        item.accessibilityInformation = { label: `Run of ${run.tool} at ${item.label as string}, ${item.description}` };
        item.iconPath = new vscode.ThemeIcon(run.outcome === 'success' ? 'pass' : run.outcome === 'cancelled' ? 'circle-slash' : 'error');
        item.contextValue = `mcpRun${this.history.result(run.id) !== undefined ? '.result' : ''}`;
        item.command = { command: 'mcpHost.runAgain', title: 'Run Again', arguments: [node] };
        return item;
      }
      case 'savedCalls': {
        const item = new vscode.TreeItem('Saved Calls', Collapsed);
        item.id = 'savedCalls';
        const problems = this.saved.filter((s) => s.problem);
        item.description = problems.length ? 'file not valid' : this.savedRead ? String(this.saved.reduce((n, s) => n + s.calls.length, 0)) : undefined;
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
        item.accessibilityInformation = { label: `Saved call ${node.call.name}, ${item.description}` };
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
