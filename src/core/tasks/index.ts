// Task-augmented tool calls (2025-11-25 experimental tasks, SEP-1686): a call answered with a task is followed
// by polling `tasks/get` within the server's pollInterval (and `notifications/tasks/status`), its result is
// fetched with `tasks/result` (which also carries the server's questions while the task is input_required),
// and Cancel sends `tasks/cancel`. A task that never ends is bounded by its ttl.
// No zod here: this module is part of the extension's start-up bundle (the SDK and zod load with the connection).
import type { CallToolResult, StandardSchemaV1, Tool } from '@modelcontextprotocol/client';
import { CallCancelledError, CallTimeoutError, ServerRequestError } from '../errors';
import { isObject } from '../../shared/json';
import type { IDisposable } from '../events';
import type { CallOptions } from '../connection/types';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
export const TERMINAL_STATUSES: readonly TaskStatus[] = ['completed', 'failed', 'cancelled'];

export interface TaskInfo {
  taskId: string;
  status: TaskStatus | (string & {});
  statusMessage?: string;
  createdAt?: string;
  lastUpdatedAt?: string;
  /** Milliseconds the server keeps the task from its creation (null: unlimited). */
  ttl?: number | null;
  /** Milliseconds the server suggests between polls. */
  pollInterval?: number;
}

/** What a task-running connection offers (a ServerConnection). */
export interface TaskConnection {
  readonly name: string;
  readonly serverCapabilities: { tasks?: { requests?: { tools?: { call?: unknown } }; cancel?: unknown } } | undefined;
  request<T>(method: string, params: Record<string, unknown>, schema: StandardSchemaV1<unknown, T>, opts?: CallOptions): Promise<T>;
  onDidUpdateTask(listener: (task: Record<string, unknown>) => void): IDisposable;
}

/** A task as the server sent it, checked: an id and a status are required, the rest kept when well typed. */
export function parseTask(raw: unknown): TaskInfo {
  const t = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  if (typeof t.taskId !== 'string' || t.taskId === '' || t.taskId.length > 1000) throw new Error('the task has no valid taskId');
  if (typeof t.status !== 'string' || t.status.length > 100) throw new Error(`task ${t.taskId} has no valid status`);
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  return {
    taskId: t.taskId, status: t.status, statusMessage: str(t.statusMessage)?.slice(0, 2000), createdAt: str(t.createdAt),
    lastUpdatedAt: str(t.lastUpdatedAt), ttl: t.ttl === null ? null : num(t.ttl), pollInterval: num(t.pollInterval),
  };
}

/** A result schema (Standard Schema, as the SDK's request() takes) from a plain checking function. */
function schemaOf<T>(check: (value: unknown) => T): StandardSchemaV1<unknown, T> {
  return {
    '~standard': {
      version: 1, vendor: 'mcp-host',
      validate: (value: unknown) => {
        try { return { value: check(value) }; } catch (e) { return { issues: [{ message: e instanceof Error ? e.message : String(e) }] }; }
      },
    },
  };
}

const TaskSchema = schemaOf(parseTask);
const CallOrTaskResult = schemaOf((v) => {
  if (!isObject(v)) throw new Error('the result is not an object');
  return v.task === undefined ? { result: v as unknown as CallToolResult } : { task: parseTask(v.task) };
});
const AnyResult = schemaOf((v) => {
  if (!isObject(v)) throw new Error('the result is not an object');
  return v as unknown as CallToolResult;
});

/** Bounds on polling: never faster than this, never slower than that, whatever the server suggests. */
export const TASK_POLL_MIN_MS = 200;
export const TASK_POLL_MAX_MS = 30_000;
/** A task with no ttl is given up after this long (ttl: null means the server keeps it, not that the host waits forever). */
export const TASK_MAX_WAIT_MS = 24 * 60 * 60 * 1000;
/** The ttl asked for when calling a tool as a task. */
export const TASK_REQUESTED_TTL_MS = 60 * 60 * 1000;

/** How a tool may be called as a task: `required`, `optional` or `forbidden` (the default). */
export function taskSupportOf(tool: Pick<Tool, 'execution'> | undefined): 'required' | 'optional' | 'forbidden' {
  const support = (tool?.execution as { taskSupport?: unknown } | undefined)?.taskSupport;
  return support === 'required' || support === 'optional' ? support : 'forbidden';
}

/** Whether the server runs `tools/call` as tasks (it declares `tasks.requests.tools.call`). */
export function serverRunsToolTasks(connection: Pick<TaskConnection, 'serverCapabilities'>): boolean {
  return !!connection.serverCapabilities?.tasks?.requests?.tools?.call;
}

/** Whether a call of this tool goes as a task: required ones always, optional ones when `optional` says so. */
export function callsAsTask(connection: Pick<TaskConnection, 'serverCapabilities'>, tool: Pick<Tool, 'execution'> | undefined, optional = true): boolean {
  const support = taskSupportOf(tool);
  return serverRunsToolTasks(connection) && (support === 'required' || (support === 'optional' && optional));
}

export function isTerminal(status: string): boolean {
  return (TERMINAL_STATUSES as readonly string[]).includes(status);
}


export interface TaskCallOptions extends CallOptions {
  /** Called with the task as soon as the server created it, and with each new status. */
  onStatus?: (task: TaskInfo) => void;
  /** false: return once the task is created (its id), without waiting. */
  wait?: boolean;
}

export interface TaskCallOutcome { task?: TaskInfo; result?: CallToolResult }

/**
 * Calls a tool as a task. A server that answers at once (no task) gives its result straight away. With `wait`
 * (the default) the task is followed to its end and its result returned; the caller's signal cancels it.
 */
export async function callToolAsTask(connection: TaskConnection, name: string, args: Record<string, unknown>,
  opts: TaskCallOptions = {}): Promise<TaskCallOutcome> {
  const created = await connection.request('tools/call', { name, arguments: args, task: { ttl: TASK_REQUESTED_TTL_MS } }, CallOrTaskResult,
    { signal: opts.signal, timeoutMs: opts.timeoutMs });
  if (!created.task) return { result: created.result };
  const task = created.task;
  opts.onStatus?.(task);
  if (opts.wait === false) return { task };
  return { task, result: await followTask(connection, task, opts) };
}

/** Follows a task to its end: polls within its pollInterval, honours status notifications, fetches the result. */
export async function followTask(connection: TaskConnection, first: TaskInfo, opts: TaskCallOptions = {}): Promise<CallToolResult> {
  let task = first;
  let lastReported = `${task.status}\u0000${task.statusMessage ?? ''}`;
  const report = (next: TaskInfo): void => {
    task = next;
    const key = `${next.status}\u0000${next.statusMessage ?? ''}`;
    if (key !== lastReported) { lastReported = key; opts.onStatus?.(next); }
  };
  let wake: (() => void) | undefined;
  const subscription = connection.onDidUpdateTask((raw) => {
    let update: TaskInfo;
    try { update = parseTask(raw); } catch { return; }
    if (update.taskId === task.taskId) { report(update); wake?.(); }
  });
  const createdAt = Date.parse(task.createdAt ?? '') || Date.now();
  const deadline = createdAt + (typeof task.ttl === 'number' && task.ttl > 0 ? task.ttl : TASK_MAX_WAIT_MS);
  try {
    while (!isTerminal(task.status) && task.status !== 'input_required') {
      if (Date.now() >= deadline) {
        await cancelTask(connection, task.taskId).catch(() => undefined);
        throw new CallTimeoutError(`task ${task.taskId} of "${connection.name}" did not finish within its ttl (${Math.round((deadline - createdAt) / 1000)} s); it was cancelled`, deadline - createdAt);
      }
      const interval = Math.min(TASK_POLL_MAX_MS, Math.max(TASK_POLL_MIN_MS, task.pollInterval ?? 1000), deadline - Date.now());
      await new Promise<void>((resolve, reject) => {
        // Each wait takes its abort listener off the caller's signal again: a long task polls hundreds of times.
        const onAbort = (): void => { clearTimeout(timer); reject(new CallCancelledError(`task ${task.taskId} was cancelled`)); };
        const done = (): void => { clearTimeout(timer); opts.signal?.removeEventListener('abort', onAbort); resolve(); };
        const timer = setTimeout(done, Math.max(0, interval));
        wake = done;
        opts.signal?.addEventListener('abort', onAbort, { once: true });
      }).finally(() => { wake = undefined; });
      if (isTerminal(task.status) || task.status === 'input_required') break;
      report(await getTask(connection, task.taskId, opts));
    }
    // tasks/result answers once the task ends; while it is input_required, the server's questions come through it.
    const remaining = Math.max(1000, deadline - Date.now());
    return await taskResult(connection, task.taskId, { ...opts, timeoutMs: remaining });
  } catch (e) {
    if (opts.signal?.aborted) {
      await cancelTask(connection, task.taskId).catch(() => undefined);
      throw new CallCancelledError(`task ${task.taskId} was cancelled`);
    }
    throw e;
  } finally {
    subscription.dispose();
  }
}

export async function getTask(connection: TaskConnection, taskId: string, opts: CallOptions = {}): Promise<TaskInfo> {
  return connection.request('tasks/get', { taskId }, TaskSchema, { signal: opts.signal, timeoutMs: opts.timeoutMs }).catch((e: unknown) => {
    throw unknownTask(e, taskId, connection.name);
  });
}

/** The task's result (a CallToolResult for a tool call); waits while the task runs. */
export async function taskResult(connection: TaskConnection, taskId: string, opts: CallOptions = {}): Promise<CallToolResult> {
  return connection.request('tasks/result', { taskId }, AnyResult, opts).catch((e: unknown) => {
    throw unknownTask(e, taskId, connection.name);
  });
}

export async function cancelTask(connection: TaskConnection, taskId: string, opts: CallOptions = {}): Promise<TaskInfo> {
  return connection.request('tasks/cancel', { taskId }, TaskSchema, { signal: opts.signal, timeoutMs: opts.timeoutMs }).catch((e: unknown) => {
    throw unknownTask(e, taskId, connection.name);
  });
}

/** A server's "no such task" (invalid params) named as such; other errors unchanged. */
function unknownTask(e: unknown, taskId: string, server: string): unknown {
  if (e instanceof ServerRequestError && e.code === -32602) {
    return new ServerRequestError(`"${server}" has no task ${taskId} (unknown, or expired after its ttl): ${e.message}`, e.code, e.data);
  }
  return e;
}
