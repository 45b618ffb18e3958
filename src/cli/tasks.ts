// Tasks in the CLI: `call` follows a task-augmented call to its end with its status on stderr (or, with
// --no-wait, prints the task id), and `task get|result|cancel ID` asks about one task.
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ServerConnection } from '../core/connection';
import { preparedArguments, recordRun, resultViewOf, runTool, type RunHooks, type RunOutcome, type ToolRunRequest } from '../core/run';
import { callsAsTask, callToolAsTask, cancelTask, getTask, needsTasksExtension, taskResult, type TaskInfo } from '../core/tasks';
import { terminalLine } from './terminal';

export function taskLine(task: TaskInfo): string {
  return `task ${terminalLine(task.taskId, 200)}: ${terminalLine(task.status, 50)}${task.statusMessage ? ` — ${terminalLine(task.statusMessage, 300)}` : ''}`;
}

/** How `call` and `run` treat tools that run as tasks. */
export interface TaskRunOptions {
  /** Run a tool whose taskSupport is optional (any tool of a 2026-07-28 server) as a task; false: plainly. */
  optionalTasks: boolean;
  /** Print the task id on `stdout` instead of following the task. */
  noWait?: boolean;
  stdout: NodeJS.WritableStream;
  /** Told each new status of the task followed (a line, taskLine). */
  onStatus: (line: string) => void;
  /** False when a plain call refused for want of the Tasks extension is not to be made again as a task. */
  mayRetryAsTask?: () => boolean;
}

/** Calls the tool as a task; undefined with `noWait` (the task id went to stdout). */
async function callAsTask(
  connection: ServerConnection,
  name: string,
  args: Record<string, unknown>,
  o: {
    noWait: boolean;
    signal?: AbortSignal;
    timeoutMs?: number;
    stdout: NodeJS.WritableStream;
    onStatus: (line: string) => void;
    secureArguments?: Record<string, unknown>;
  },
): Promise<CallToolResult | undefined> {
  const out = await callToolAsTask(connection, name, args, {
    // --timeout bounds each request and the whole wait for the task (then it is cancelled).
    wait: !o.noWait,
    signal: o.signal,
    timeoutMs: o.timeoutMs,
    waitMs: o.timeoutMs,
    secureArguments: o.secureArguments,
    onStatus: (task) => {
      if (!o.noWait) o.onStatus(taskLine(task));
    },
  });
  if (out.task && o.noWait) {
    o.stdout.write(`${out.task.taskId}\n`);
    return undefined;
  }
  return out.result;
}

/**
 * Runs a tool as the CLI does: as a task when it runs as one on this server (taskSupport required, or optional
 * and `optionalTasks`; on a 2026-07-28 server the server decides), followed to its end within the hooks'
 * timeout (the whole wait; then the task is cancelled); otherwise plainly, and again as a task when a 2026-07-28
 * server refuses the plain call for want of the Tasks extension (-32021). Kept by `hooks.record` either way.
 * Undefined with `noWait` (the task id went to stdout).
 */
export function runToolOrTask(
  connection: ServerConnection,
  request: ToolRunRequest,
  hooks: RunHooks,
  o: TaskRunOptions,
): Promise<(RunOutcome & { result: CallToolResult }) | undefined> {
  const { tool } = request;
  const taskRun = () =>
    preparedArguments(connection, request, hooks).then(async (encoded) => {
      const result = await callAsTask(connection, tool.name, encoded, {
        noWait: !!o.noWait,
        signal: hooks.signal,
        timeoutMs: hooks.timeoutMs,
        stdout: o.stdout,
        onStatus: o.onStatus,
        ...(request.secureArguments ? { secureArguments: request.secureArguments } : {}),
      });
      return result && { result, view: resultViewOf(connection, tool, result) };
    });
  const runAsTask = () => (hooks.record ? recordRun(connection, request, hooks.record, hooks.signal, taskRun) : taskRun());
  if (callsAsTask(connection, tool, o.optionalTasks)) return runAsTask();
  return runTool(connection, request, hooks).catch((e: unknown) => {
    if (needsTasksExtension(e) && (o.mayRetryAsTask?.() ?? true)) return runAsTask();
    throw e;
  });
}

export const TASK_ACTIONS = ['get', 'result', 'cancel'] as const;
export type TaskAction = (typeof TASK_ACTIONS)[number];

/** `task get|cancel ID`: the task's status line (or JSON); `task result ID`: its result (the caller prints it). */
export async function taskCommand(
  connection: ServerConnection,
  action: TaskAction,
  taskId: string,
  o: { json: boolean; signal?: AbortSignal; timeoutMs?: number; stdout: NodeJS.WritableStream },
): Promise<CallToolResult | undefined> {
  if (action === 'result') return taskResult(connection, taskId, { signal: o.signal, timeoutMs: o.timeoutMs });
  const task = action === 'get' ? await getTask(connection, taskId, { signal: o.signal }) : await cancelTask(connection, taskId, { signal: o.signal });
  o.stdout.write(o.json ? `${JSON.stringify(task, null, 2)}\n` : `${taskLine(task)}\n`);
  return undefined;
}
