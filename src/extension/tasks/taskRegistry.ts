// The window's tasks: every task-augmented call of every server, running or finished, for the Tasks section
// of the MCP view. A task outlives the panel that started it, not its server's connection: when the server
// stops or restarts, a task still running is marked as ended with it.
import * as vscode from 'vscode';
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import type { ServerConnection, ToolCallOptions } from '../../core/connection';
import { NotRunningError, ServerCrashedError } from '../../core/errors';
import { Disposable } from '../../core/events';
import { callsAsTask, callToolAsTask, isTerminal, needsTasksExtension, type TaskInfo } from '../../core/tasks';
import type { ServerManager } from '../servers/serverManager';
import { readSettings } from '../settings';
import { ConnectionState } from '../../core/connection/types';

export interface TrackedTask {
  /** `<server>\0<taskId>` */
  readonly key: string;
  readonly server: string;
  readonly tool: string;
  taskId: string;
  status: string;
  statusMessage?: string;
  readonly startedAt: number;
  endedAt?: number;
  readonly abort: AbortController;
  readonly connection: ServerConnection;
}

const LOST = 'the server stopped or restarted: a task ends with the connection that started it';

/** Finished tasks kept for the view. */
const FINISHED_KEPT = 50;

export class TaskRegistry extends Disposable implements vscode.Disposable {
  private readonly tasks = new Map<string, TrackedTask>();
  private readonly changed = this.register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;

  constructor(private readonly manager: ServerManager) {
    super();
    this.register(manager.onDidChange(() => this.noteLostConnections()));
    this.register(
      vscode.commands.registerCommand('mcpHost.cancelTask', (task?: TrackedTask) => {
        if (task) this.cancel(task.key);
      }),
    );
  }

  list(): TrackedTask[] {
    return [...this.tasks.values()].sort((a, b) => b.startedAt - a.startedAt);
  }

  get(key: string): TrackedTask | undefined {
    return this.tasks.get(key);
  }

  /**
   * Calls the tool, as a task when it must (taskSupport required) or may and `mcpHost.tasks.optionalToolsAsTasks`
   * says so; otherwise a plain call (one a 2026-07-28 server refuses without a task is made again as a task).
   * `onStatus` gets each status of a task (for the panel's progress line).
   */
  async callTool(
    connection: ServerConnection,
    tool: Tool,
    args: Record<string, unknown>,
    opts: ToolCallOptions & {
      onStatus?: (task: TaskInfo) => void;
    },
  ): Promise<CallToolResult> {
    if (!callsAsTask(connection, tool, readSettings().optionalToolsAsTasks)) {
      try {
        return await connection.callTool(tool.name, args, opts);
      } catch (e) {
        if (!needsTasksExtension(e)) throw e;
      }
    }
    let tracked: TrackedTask | undefined;
    // Cancelled from the Tasks view (`abort`) or by the caller (the panel's Cancel); either sends tasks/cancel.
    const abort = new AbortController();
    const signal = opts.signal ? AbortSignal.any([opts.signal, abort.signal]) : abort.signal;
    try {
      const out = await callToolAsTask(connection, tool.name, args, {
        signal,
        timeoutMs: opts.timeoutMs,
        ...(opts.secureArguments ? { secureArguments: opts.secureArguments } : {}),
        onStatus: (task) => {
          tracked ??= this.track(connection, tool.name, task, abort);
          tracked.status = task.status;
          tracked.statusMessage = task.statusMessage;
          if (isTerminal(task.status)) tracked.endedAt ??= Date.now();
          this.changed.fire();
          opts.onStatus?.(task);
        },
      });
      if (tracked) {
        tracked.status = tracked.status === 'working' || tracked.status === 'input_required' ? 'completed' : tracked.status;
        tracked.endedAt ??= Date.now();
        this.changed.fire();
      }
      return out.result!;
    } catch (e) {
      if (tracked && !isTerminal(tracked.status)) {
        const lost = this.connectionLost(tracked) || e instanceof NotRunningError || e instanceof ServerCrashedError;
        tracked.status = signal.aborted && !lost ? 'cancelled' : 'failed';
        tracked.statusMessage = lost ? LOST : e instanceof Error ? e.message : String(e);
        tracked.endedAt = Date.now();
        this.changed.fire();
      }
      throw e;
    }
  }

  /** Cancels a running task (tasks/cancel goes to the server). */
  cancel(key: string): void {
    this.tasks.get(key)?.abort.abort();
  }

  private track(connection: ServerConnection, tool: string, task: TaskInfo, abort: AbortController): TrackedTask {
    const tracked: TrackedTask = {
      key: `${connection.name}\u0000${task.taskId}`,
      server: connection.name,
      tool,
      taskId: task.taskId,
      status: task.status,
      statusMessage: task.statusMessage,
      startedAt: Date.now(),
      abort,
      connection,
    };
    this.tasks.set(tracked.key, tracked);
    const finished = this.list().filter((t) => t.endedAt !== undefined);
    for (const old of finished.slice(FINISHED_KEPT)) this.tasks.delete(old.key);
    return tracked;
  }

  private noteLostConnections(): void {
    let changed = false;
    for (const task of this.tasks.values()) {
      if (task.endedAt !== undefined) continue;
      if (!this.connectionLost(task)) continue;
      task.status = 'failed';
      task.statusMessage = LOST;
      task.endedAt = Date.now();
      task.abort.abort();
      changed = true;
    }
    if (changed) this.changed.fire();
  }

  private connectionLost(task: TrackedTask): boolean {
    const current = this.manager.get(task.server)?.connection;
    return current !== task.connection || !ConnectionState.isRunning(current.state);
  }
}
