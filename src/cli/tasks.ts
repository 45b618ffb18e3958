// Tasks in the CLI: `call` follows a task-augmented call to its end with its status on stderr (or, with
// --no-wait, prints the task id), and `task get|result|cancel ID` asks about one task.
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ServerConnection } from '../core/connection';
import { callToolAsTask, cancelTask, getTask, taskResult, type TaskInfo } from '../core/tasks';
import { terminalLine } from './terminal';

export function taskLine(task: TaskInfo): string {
  return `task ${terminalLine(task.taskId, 200)}: ${terminalLine(task.status, 50)}${task.statusMessage ? ` — ${terminalLine(task.statusMessage, 300)}` : ''}`;
}

/** Calls the tool as a task; undefined with `noWait` (the task id went to stdout). */
export async function callAsTask(connection: ServerConnection, name: string, args: Record<string, unknown>,
  o: { noWait: boolean; signal?: AbortSignal; timeoutMs?: number; stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream;
    secureArguments?: Record<string, unknown> }): Promise<CallToolResult | undefined> {
  const out = await callToolAsTask(connection, name, args, {
    // --timeout bounds each request and the whole wait for the task (then it is cancelled).
    wait: !o.noWait, signal: o.signal, timeoutMs: o.timeoutMs, waitMs: o.timeoutMs, secureArguments: o.secureArguments,
    onStatus: (task) => { if (!o.noWait) o.stderr.write(`${taskLine(task)}\n`); },
  });
  if (out.task && o.noWait) {
    o.stdout.write(`${out.task.taskId}\n`);
    return undefined;
  }
  return out.result;
}

export const TASK_ACTIONS = ['get', 'result', 'cancel'] as const;
export type TaskAction = (typeof TASK_ACTIONS)[number];

/** `task get|cancel ID`: the task's status line (or JSON); `task result ID`: its result (the caller prints it). */
export async function taskCommand(connection: ServerConnection, action: TaskAction, taskId: string,
  o: { json: boolean; signal?: AbortSignal; timeoutMs?: number; stdout: NodeJS.WritableStream }): Promise<CallToolResult | undefined> {
  if (action === 'result') return taskResult(connection, taskId, { signal: o.signal, timeoutMs: o.timeoutMs });
  const task = action === 'get' ? await getTask(connection, taskId, { signal: o.signal }) : await cancelTask(connection, taskId, { signal: o.signal });
  o.stdout.write(o.json ? `${JSON.stringify(task, null, 2)}\n` : `${taskLine(task)}\n`);
  return undefined;
}
