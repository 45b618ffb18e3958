// The Tasks section of the MCP view: each task with its status, message, start time and elapsed time.
// A running task can be cancelled from its row; a finished one opens its tool's panel, where its result is.
import * as vscode from 'vscode';
import { Disposable, toDisposable } from '../../core/events';
import type { TaskRegistry, TrackedTask } from './taskRegistry';
import { oneLine } from '../../shared/format';

function elapsed(task: TrackedTask, now: number): string {
  const seconds = Math.round(((task.endedAt ?? now) - task.startedAt) / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

const ICONS: Record<string, string> = {
  working: 'sync~spin',
  input_required: 'question',
  completed: 'pass',
  failed: 'error',
  cancelled: 'circle-slash',
};

export class TasksTreeProvider extends Disposable implements vscode.TreeDataProvider<TrackedTask>, vscode.Disposable {
  private readonly changed = this.register(new vscode.EventEmitter<undefined>());
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly registry: TaskRegistry) {
    super();
    this.register(registry.onDidChange(() => this.changed.fire(undefined)));
    // Elapsed times of running tasks move on.
    const ticker = setInterval(() => {
      if (registry.list().some((t) => t.endedAt === undefined)) this.changed.fire(undefined);
    }, 1000);
    this.register(toDisposable(() => clearInterval(ticker)));
  }

  getChildren(node?: TrackedTask): TrackedTask[] {
    return node ? [] : this.registry.list();
  }

  getTreeItem(task: TrackedTask): vscode.TreeItem {
    const item = new vscode.TreeItem(`${oneLine(task.tool)} (${task.server})`, vscode.TreeItemCollapsibleState.None);
    item.id = task.key;
    const running = task.endedAt === undefined;
    item.description = `${oneLine(task.status)}${task.statusMessage ? ` — ${oneLine(task.statusMessage.slice(0, 120))}` : ''} · ${elapsed(task, Date.now())}`;
    item.tooltip = [
      `Task ${task.taskId}`,
      `Status: ${task.status}`,
      task.statusMessage,
      `Started ${new Date(task.startedAt).toLocaleTimeString()}`,
      `Elapsed ${elapsed(task, Date.now())}`,
    ]
      .filter(Boolean)
      .join('\n');
    item.iconPath = new vscode.ThemeIcon(ICONS[task.status] ?? 'circle-outline');
    item.contextValue = running ? 'mcpTask.running' : 'mcpTask.done';
    item.accessibilityInformation = { label: `${task.tool} on ${task.server}, ${task.status}${task.statusMessage ? `, ${task.statusMessage}` : ''}` };
    if (!running) item.command = { command: 'mcpHost.runTool', title: 'Open Result', arguments: [task.server, task.tool] };
    return item;
  }
}
