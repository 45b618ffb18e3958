// Task-augmented tool calls, one model for two wire shapes chosen by the server's era:
// - 2025-11-25 experimental tasks (SEP-1686): the host asks for a task (`params.task`) on tools whose
//   `execution.taskSupport` allows it; the result is fetched with `tasks/result` (which also carries the server's
//   questions while the task is input_required); status comes from `tasks/get` and `notifications/tasks/status`.
// - 2026-07-28 Tasks extension `io.modelcontextprotocol/tasks` (SEP-2663): the host offers the extension and the
//   server decides per call (`resultType: "task"`); `tasks/get` carries the result, the error or the server's
//   `inputRequests` (answered through the same handlers as any elicitation, with `tasks/update`); status also
//   comes from `notifications/tasks`.
// Either way status is polled within the server's pollInterval, Cancel sends `tasks/cancel`, and a task that never
// ends is bounded by its ttl (at most a day) or, sooner, by the caller's whole-wait limit (`waitMs`), then cancelled.
// Every answer about a task must be about the task asked for; another task's answer is a protocol error, not used.
// No zod here: this module is part of the extension's start-up bundle (the SDK and zod load with the connection).
import type { CallToolResult, StandardSchemaV1, Tool } from '@modelcontextprotocol/client';
import { CallCancelledError, CallTimeoutError, NotRunningError, ServerRequestError } from '../errors';
import { isObject } from '../../shared/json';
import type { IDisposable } from '../events';
import type { CallOptions } from '../connection/types';
import { createdTaskOf, TASKS_EXTENSION_ID } from './extension';
import { schemaOf } from '../resultSchema';
import { secureArgumentsRefusal } from '../secureParams';
import { secureCall } from '../secureParams/headers';
import { silentLogger, type Logger } from '../log';

export { createdTaskOf, offersTasksExtension, shieldCreatedTask, TASKS_EXTENSION_ID } from './extension';

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
  readonly state: { kind: string; era?: string };
  readonly serverCapabilities:
    | {
        tasks?: { requests?: { tools?: { call?: unknown } }; cancel?: unknown };
        extensions?: Record<string, unknown>;
      }
    | undefined;
  request<T>(
    method: string,
    params: Record<string, unknown>,
    schema: StandardSchemaV1<unknown, T>,
    opts?: CallOptions & { headers?: Record<string, string> },
  ): Promise<T>;
  /** The listed tools (a tool's `secureInputSchema` says which secure values a task call carries) and the log that masks them. */
  readonly tools?: readonly { name: string }[];
  readonly log?: Logger;
  onDidUpdateTask(listener: (task: Record<string, unknown>) => void): IDisposable;
  /** The connection's state changes: following a task ends when it stops running. */
  onDidChangeState?(listener: (state: { kind: string }) => void): IDisposable;
  /** Answers one of a task's `inputRequests` (elicitation, sampling, roots) as the standalone request would be. */
  answerInputRequest(method: string, params: unknown, signal?: AbortSignal): Promise<unknown>;
}

/** Which shape of tasks a connection speaks: the 2025-11-25 core tasks, the 2026-07-28 extension, or none. */
export type TaskWire = 'core-2025' | 'extension';

export function taskWireOf(connection: Pick<TaskConnection, 'serverCapabilities' | 'state'>): TaskWire | undefined {
  if (connection.state.kind === 'running' && connection.state.era === 'modern') {
    const extensions = connection.serverCapabilities?.extensions;
    return isObject(extensions) && Object.hasOwn(extensions, TASKS_EXTENSION_ID) ? 'extension' : undefined;
  }
  return connection.serverCapabilities?.tasks?.requests?.tools?.call ? 'core-2025' : undefined;
}

/** A task as the server sent it, checked: an id and a status are required, the rest kept when well typed. */
export function parseTask(raw: unknown): TaskInfo {
  const t = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  if (typeof t.taskId !== 'string' || t.taskId === '' || t.taskId.length > 1000) throw new Error('the task has no valid taskId');
  if (typeof t.status !== 'string' || t.status.length > 100) throw new Error(`task ${t.taskId} has no valid status`);
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  return {
    taskId: t.taskId,
    status: t.status,
    statusMessage: str(t.statusMessage)?.slice(0, 2000),
    createdAt: str(t.createdAt),
    lastUpdatedAt: str(t.lastUpdatedAt),
    // 2026-07-28 names them ttlMs / pollIntervalMs.
    ttl: t.ttl === null || t.ttlMs === null ? null : (num(t.ttl) ?? num(t.ttlMs)),
    pollInterval: num(t.pollInterval) ?? num(t.pollIntervalMs),
  };
}

/** A 2026-07-28 task as `tasks/get` and `notifications/tasks` carry it: the result, error or questions inline. */
interface DetailedTask {
  info: TaskInfo;
  result?: Record<string, unknown>;
  error?: { code?: number; message: string; data?: unknown };
  inputRequests?: Record<string, unknown>;
}

function parseDetailedTask(raw: unknown): DetailedTask {
  const info = parseTask(raw);
  const t = raw as Record<string, unknown>;
  const error = isObject(t.error)
    ? {
        code: typeof t.error.code === 'number' ? t.error.code : undefined,
        message: typeof t.error.message === 'string' ? t.error.message.slice(0, 2000) : 'no message',
        data: t.error.data,
      }
    : undefined;
  return { info, result: isObject(t.result) ? t.result : undefined, error, inputRequests: isObject(t.inputRequests) ? t.inputRequests : undefined };
}

const TaskSchema = schemaOf(parseTask);
const DetailedTaskSchema = schemaOf(parseDetailedTask);
const CallOrTaskResult = schemaOf((v) => {
  if (!isObject(v)) throw new Error('the result is not an object');
  const created = createdTaskOf(v);
  if (created) return { task: parseTask(created), detailed: parseDetailedTask(created) };
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

/** Whether the server runs `tools/call` as tasks (2025-11-25 `tasks.requests.tools.call`, or the 2026-07-28 extension). */
export function serverRunsToolTasks(connection: Pick<TaskConnection, 'serverCapabilities' | 'state'>): boolean {
  return taskWireOf(connection) !== undefined;
}

/**
 * Whether a call of this tool goes as a task. 2025-11-25: required ones always, optional ones when `optional` says
 * so. 2026-07-28: the server decides per call, so every call offers the extension unless `optional` is false (then
 * only a call the server refuses without it is repeated as a task: see `needsTasksExtension`).
 */
export function callsAsTask(
  connection: Pick<TaskConnection, 'serverCapabilities' | 'state'>,
  tool: Pick<Tool, 'execution'> | undefined,
  optional = true,
): boolean {
  const wire = taskWireOf(connection);
  if (wire === 'extension') return optional;
  const support = taskSupportOf(tool);
  return wire === 'core-2025' && (support === 'required' || (support === 'optional' && optional));
}

/** Whether an error is a 2026-07-28 server's refusal of a call that did not offer the Tasks extension (-32021). */
export function needsTasksExtension(e: unknown): boolean {
  if (!(e instanceof ServerRequestError) || e.code !== MISSING_CLIENT_CAPABILITY) return false;
  const required = isObject(e.data) && isObject(e.data.requiredCapabilities) ? e.data.requiredCapabilities : undefined;
  return !required || (isObject(required.extensions) && Object.hasOwn(required.extensions, TASKS_EXTENSION_ID));
}

/** JSON-RPC error code of 2026-07-28: a request lacked a client capability the server needs. */
export const MISSING_CLIENT_CAPABILITY = -32021;

export function isTerminal(status: string): boolean {
  return (TERMINAL_STATUSES as readonly string[]).includes(status);
}

export interface TaskCallOptions extends CallOptions {
  /** Called with the task as soon as the server created it, and with each new status. */
  onStatus?: (task: TaskInfo) => void;
  /** false: return once the task is created (its id), without waiting. */
  wait?: boolean;
  /**
   * Bounds the whole wait for the task, from the call on (the CLI's --timeout): past it the task is cancelled
   * (`tasks/cancel`) and the call fails with CallTimeoutError. Without it the task's ttl bounds the wait.
   */
  waitMs?: number;
  /** SEP-3221: the host's secure values; the task call carries those the tool declares (`params.secureArguments`). */
  secureArguments?: Record<string, unknown>;
}

export interface TaskCallOutcome {
  task?: TaskInfo;
  result?: CallToolResult;
}

/**
 * Calls a tool as a task. A server that answers at once (no task) gives its result straight away. With `wait`
 * (the default) the task is followed to its end and its result returned; the caller's signal cancels it.
 */
export async function callToolAsTask(
  connection: TaskConnection,
  name: string,
  args: Record<string, unknown>,
  opts: TaskCallOptions = {},
): Promise<TaskCallOutcome> {
  const startedAt = Date.now();
  const wire = taskWireOf(connection);
  // 2026-07-28: no task parameter; the request offers the extension (the connection's capabilities) and the server decides.
  const secure = secureCall(
    connection.tools?.find((t) => t.name === name),
    opts.secureArguments,
    connection.log ?? silentLogger,
    wire === 'extension',
  );
  const params =
    wire === 'extension' ? { name, arguments: args, ...secure?.params } : { name, arguments: args, ...secure?.params, task: { ttl: TASK_REQUESTED_TTL_MS } };
  const created = await connection
    .request('tools/call', params, CallOrTaskResult, { signal: opts.signal, timeoutMs: opts.timeoutMs, ...secure?.options })
    .catch((e: unknown) => {
      throw secure ? secureArgumentsRefusal(e, name, connection.name) : e;
    });
  if (!created.task) return { result: created.result };
  const task = created.task;
  opts.onStatus?.(task);
  if (opts.wait === false) return { task };
  return { task, result: await followTask(connection, task, opts, startedAt) };
}

/** How long the host waits for the server's answer to the tasks/cancel it sends when it gives up on a task. */
export const TASK_CANCEL_WAIT_MS = 2000;

/**
 * What ends the following of a task besides the task itself: its ttl from its creation (at most TASK_MAX_WAIT_MS),
 * the caller's `waitMs` from `startedAt`, the caller's signal, and the connection's stop (a question of the task
 * being answered, a panel, ends with the session). `signal` fires at the first of them and goes to every wait and
 * request; `failed` turns an error into the outcome, cancelling the task when the host gives up on it.
 */
class FollowBound {
  readonly signal: AbortSignal;
  private readonly expiry = new AbortController();
  private readonly stopped = new AbortController();
  private readonly stateSubscription?: IDisposable;
  private readonly timer: ReturnType<typeof setTimeout>;
  private readonly deadline: number;
  private readonly expiredError: () => CallTimeoutError;

  constructor(
    private readonly connection: TaskConnection,
    private readonly taskId: string,
    task: TaskInfo,
    private readonly opts: TaskCallOptions,
    startedAt: number,
  ) {
    const now = Date.now();
    // The server's clock may differ from the host's (or lie): its creation time is taken between the call and now.
    const createdAt = Math.min(Math.max(Date.parse(task.createdAt ?? '') || now, Math.min(startedAt, now)), now);
    const ttl = Math.min(typeof task.ttl === 'number' && task.ttl > 0 ? task.ttl : TASK_MAX_WAIT_MS, TASK_MAX_WAIT_MS);
    const byWait = opts.waitMs !== undefined && startedAt + opts.waitMs < createdAt + ttl;
    this.deadline = byWait ? startedAt + opts.waitMs! : createdAt + ttl;
    const what = `task ${taskId} of "${connection.name}"`;
    this.expiredError = byWait
      ? () => new CallTimeoutError(`${what} did not finish within ${opts.waitMs} ms (the call's time limit); it was cancelled`, opts.waitMs!)
      : () => new CallTimeoutError(`${what} did not finish within its ttl (${Math.round(ttl / 1000)} s); it was cancelled`, ttl);
    this.timer = setTimeout(() => this.expiry.abort(), Math.max(0, this.deadline - now));
    this.stateSubscription = connection.onDidChangeState?.((state) => {
      if (state.kind !== 'running') this.stopped.abort();
    });
    this.signal = AbortSignal.any([...(opts.signal ? [opts.signal] : []), this.expiry.signal, this.stopped.signal]);
  }

  /** The time a request that waits for the task's end may take: a little past the deadline, so the bound ends it. */
  get remainingMs(): number {
    return Math.max(0, this.deadline - Date.now()) + 1000;
  }

  /** Following failed: the caller gave up or time ran out (the task is cancelled), or the server broke the protocol. */
  async failed(e: unknown): Promise<never> {
    const cancelled = this.opts.signal?.aborted === true;
    if (!cancelled && this.stopped.signal.aborted) {
      throw new NotRunningError(`server "${this.connection.name}" stopped while its task ${this.taskId} ran (${this.connection.state.kind})`);
    }
    const expired = !cancelled && this.expiry.signal.aborted;
    if (!cancelled && !expired && !(e instanceof TaskAnswerMismatchError)) throw e;
    await sendCancel(this.connection, this.taskId);
    if (cancelled) throw new CallCancelledError(`task ${this.taskId} was cancelled`);
    throw expired ? this.expiredError() : e;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.stateSubscription?.dispose();
  }
}

/** Sends tasks/cancel for a task the host gives up on, waiting at most TASK_CANCEL_WAIT_MS; any answer will do. */
async function sendCancel(connection: TaskConnection, taskId: string): Promise<void> {
  await connection.request('tasks/cancel', { taskId }, AnyObject, { timeoutMs: TASK_CANCEL_WAIT_MS }).catch(() => undefined);
}

/**
 * Waits one poll interval (bounded), or less when `wake` is called; the signal rejects with CallCancelledError.
 * Each wait takes its abort listener off the caller's signal again: a long task polls hundreds of times.
 */
function pollDelay(task: TaskInfo, signal: AbortSignal, setWake: (wake: (() => void) | undefined) => void): Promise<void> {
  const interval = Math.min(TASK_POLL_MAX_MS, Math.max(TASK_POLL_MIN_MS, task.pollInterval ?? 1000));
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) {
      reject(new CallCancelledError(`task ${task.taskId} was cancelled`));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(new CallCancelledError(`task ${task.taskId} was cancelled`));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, interval);
    setWake(() => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
    signal.addEventListener('abort', onAbort, { once: true });
  }).finally(() => setWake(undefined));
}

/**
 * Follows a task to its end: polls within its pollInterval, honours status notifications, fetches the result.
 * `startedAt`: when the caller's `waitMs` began (the call that created the task).
 */
export async function followTask(connection: TaskConnection, first: TaskInfo, opts: TaskCallOptions = {}, startedAt = Date.now()): Promise<CallToolResult> {
  if (taskWireOf(connection) === 'extension') return followExtensionTask(connection, first, opts, startedAt);
  const taskId = first.taskId;
  let task = first;
  let lastReported = `${task.status}\u0000${task.statusMessage ?? ''}`;
  const report = (next: TaskInfo): void => {
    task = next;
    const key = `${next.status}\u0000${next.statusMessage ?? ''}`;
    if (key !== lastReported) {
      lastReported = key;
      opts.onStatus?.(next);
    }
  };
  let wake: (() => void) | undefined;
  const subscription = connection.onDidUpdateTask((raw) => {
    let update: TaskInfo;
    try {
      update = parseTask(raw);
    } catch {
      return;
    }
    if (update.taskId === taskId) {
      report(update);
      wake?.();
    }
  });
  const bound = new FollowBound(connection, taskId, first, opts, startedAt);
  try {
    while (!isTerminal(task.status) && task.status !== 'input_required') {
      await pollDelay(task, bound.signal, (w) => {
        wake = w;
      });
      if (isTerminal(task.status) || task.status === 'input_required') break;
      report(await getTask(connection, taskId, { signal: bound.signal, timeoutMs: opts.timeoutMs }));
    }
    // tasks/result answers once the task ends; while it is input_required, the server's questions come through it.
    return await taskResult(connection, taskId, { signal: bound.signal, timeoutMs: bound.remainingMs });
  } catch (e) {
    return await bound.failed(e);
  } finally {
    bound.dispose();
    subscription.dispose();
  }
}

/** At most this many new questions of a task are answered per poll (each key once: polls repeat them). */
const MAX_INPUT_REQUESTS_PER_POLL = 20;

/**
 * 2026-07-28: polls `tasks/get` (and takes `notifications/tasks`) until the task ends; its questions
 * (`inputRequests`) go through the connection's own handlers, each key once, and are answered with `tasks/update`.
 */
async function followExtensionTask(connection: TaskConnection, first: TaskInfo, opts: TaskCallOptions, startedAt: number): Promise<CallToolResult> {
  const taskId = first.taskId;
  let current: DetailedTask = { info: first };
  let lastReported = `${first.status}\u0000${first.statusMessage ?? ''}`;
  const answered = new Set<string>();
  const report = (next: DetailedTask): void => {
    current = next;
    const key = `${next.info.status}\u0000${next.info.statusMessage ?? ''}`;
    if (key !== lastReported) {
      lastReported = key;
      opts.onStatus?.(next.info);
    }
  };
  let wake: (() => void) | undefined;
  const subscription = connection.onDidUpdateTask((raw) => {
    let update: DetailedTask;
    try {
      update = parseDetailedTask(raw);
    } catch {
      return;
    }
    if (update.info.taskId === taskId) {
      report(update);
      wake?.();
    }
  });
  const bound = new FollowBound(connection, taskId, first, opts, startedAt);
  const requestOpts = { signal: bound.signal, timeoutMs: opts.timeoutMs };
  try {
    for (;;) {
      const { info } = current;
      if (info.status === 'completed') {
        if (!current.result) throw new ServerRequestError(`task ${taskId} of "${connection.name}" completed without a result`);
        return current.result as unknown as CallToolResult;
      }
      if (info.status === 'failed') {
        const error = current.error;
        throw new ServerRequestError(
          `task ${taskId} of "${connection.name}" failed: ${error?.message ?? info.statusMessage ?? 'no reason given'}`,
          error?.code,
          error?.data,
        );
      }
      if (info.status === 'cancelled') throw new CallCancelledError(`task ${taskId} was cancelled${info.statusMessage ? `: ${info.statusMessage}` : ''}`);
      if (info.status === 'input_required' && current.inputRequests) {
        const fresh = Object.entries(current.inputRequests)
          .filter(([key]) => !answered.has(key))
          .slice(0, MAX_INPUT_REQUESTS_PER_POLL);
        if (fresh.length > 0) {
          const inputResponses: Record<string, unknown> = {};
          for (const [key, request] of fresh) {
            const r = isObject(request) ? request : {};
            inputResponses[key] = await connection.answerInputRequest(String(r.method), r.params, bound.signal);
            answered.add(key);
          }
          await connection.request('tasks/update', { taskId, inputResponses }, AnyObject, requestOpts).catch((e: unknown) => {
            throw unknownTask(e, taskId, connection.name);
          });
          // The answer is taken eventually: poll at once rather than after a whole interval.
          report(await getDetailedTask(connection, taskId, requestOpts));
          continue;
        }
      }
      await pollDelay(info, bound.signal, (w) => {
        wake = w;
      });
      if (isTerminal(current.info.status)) continue;
      report(await getDetailedTask(connection, taskId, requestOpts));
    }
  } catch (e) {
    return await bound.failed(e);
  } finally {
    bound.dispose();
    subscription.dispose();
  }
}

const AnyObject = schemaOf((v) => {
  if (!isObject(v)) throw new Error('the result is not an object');
  return v;
});

/** The server answered a question about one task with another task (or none): its answer is not used. */
class TaskAnswerMismatchError extends ServerRequestError {
  static override readonly brand: string = 'TaskAnswerMismatchError';
}

/** An answer about `asked` must be about `asked`; anything else is a protocol error naming the server. */
function checkSameTask(connection: TaskConnection, method: string, asked: string, answered: unknown): void {
  if (answered === asked) return;
  const about = typeof answered === 'string' ? `task ${JSON.stringify(answered.slice(0, 200))}` : 'no task';
  throw new TaskAnswerMismatchError(
    `"${connection.name}" broke the protocol: asked ${method} for task ${JSON.stringify(asked.slice(0, 200))}, it answered about ${about}; the answer was not used`,
  );
}

/** The 2025-11-25 `_meta` key that ties a message to its task. */
const RELATED_TASK_META = 'io.modelcontextprotocol/related-task';

async function getDetailedTask(connection: TaskConnection, taskId: string, opts: CallOptions = {}): Promise<DetailedTask> {
  const task = await connection.request('tasks/get', { taskId }, DetailedTaskSchema, { signal: opts.signal, timeoutMs: opts.timeoutMs }).catch((e: unknown) => {
    throw unknownTask(e, taskId, connection.name);
  });
  checkSameTask(connection, 'tasks/get', taskId, task.info.taskId);
  return task;
}

export async function getTask(connection: TaskConnection, taskId: string, opts: CallOptions = {}): Promise<TaskInfo> {
  const task = await connection.request('tasks/get', { taskId }, TaskSchema, { signal: opts.signal, timeoutMs: opts.timeoutMs }).catch((e: unknown) => {
    throw unknownTask(e, taskId, connection.name);
  });
  checkSameTask(connection, 'tasks/get', taskId, task.taskId);
  return task;
}

/**
 * The task's result (a CallToolResult for a tool call); waits while the task runs (2026-07-28: by polling, and
 * `timeoutMs` bounds the whole wait, then cancels the task). A result tied to another task is refused.
 */
export async function taskResult(connection: TaskConnection, taskId: string, opts: CallOptions = {}): Promise<CallToolResult> {
  if (taskWireOf(connection) === 'extension') {
    const first = await getTask(connection, taskId, opts);
    return followExtensionTask(connection, first, { signal: opts.signal, waitMs: opts.timeoutMs }, Date.now());
  }
  const result = await connection.request('tasks/result', { taskId }, AnyResult, opts).catch((e: unknown) => {
    throw unknownTask(e, taskId, connection.name);
  });
  const meta = result._meta;
  if (isObject(meta) && Object.hasOwn(meta, RELATED_TASK_META)) {
    const related = meta[RELATED_TASK_META];
    checkSameTask(connection, 'tasks/result', taskId, isObject(related) ? related.taskId : undefined);
  }
  return result;
}

/** Sends tasks/cancel; the task as the server reports it afterwards (2026-07-28 answers with an empty ack). */
export async function cancelTask(connection: TaskConnection, taskId: string, opts: CallOptions = {}): Promise<TaskInfo> {
  const o = { signal: opts.signal, timeoutMs: opts.timeoutMs };
  if (taskWireOf(connection) === 'extension') {
    await connection.request('tasks/cancel', { taskId }, AnyObject, o).catch((e: unknown) => {
      throw unknownTask(e, taskId, connection.name);
    });
    return getTask(connection, taskId, o);
  }
  const task = await connection.request('tasks/cancel', { taskId }, TaskSchema, o).catch((e: unknown) => {
    throw unknownTask(e, taskId, connection.name);
  });
  checkSameTask(connection, 'tasks/cancel', taskId, task.taskId);
  return task;
}

/** A server's "no such task" (invalid params) named as such; other errors unchanged. */
function unknownTask(e: unknown, taskId: string, server: string): unknown {
  if (e instanceof ServerRequestError && e.code === -32602) {
    return new ServerRequestError(`"${server}" has no task ${taskId} (unknown, or expired after its ttl): ${e.message}`, e.code, e.data);
  }
  return e;
}
