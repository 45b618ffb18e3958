// The host as the receiver of task-augmented requests (2025-11-25 tasks, SEP-1686): a server may send its
// `sampling/createMessage` or `elicitation/create` with `params.task` when the host declared
// `tasks.requests.sampling.createMessage` / `tasks.requests.elicitation.create`. The host answers at once
// with a task, answers the request through the same handler (and UI) as ever, and serves the server's
// `tasks/get`, `tasks/result`, `tasks/cancel` and `tasks/list`. A task is kept for its ttl (bounded here),
// and `tasks/result` waits at most until then.

import { ProtocolError, type StandardSchemaV1 } from '@modelcontextprotocol/client';
import type { Logger } from '../log';
import { errorText } from '../errors';
import type { TaskInfo } from './index';

/** The client capability that says which requests the host takes as tasks. */
export function receivedTasksCapability(sampling: boolean, elicitation: boolean): Record<string, unknown> {
  return {
    list: {},
    cancel: {},
    requests: { ...(sampling ? { sampling: { createMessage: {} } } : {}), ...(elicitation ? { elicitation: { create: {} } } : {}) },
  };
}

/** The methods a server may send as tasks. */
export const TASK_REQUEST_METHODS: readonly string[] = ['sampling/createMessage', 'elicitation/create'];

export const RECEIVED_TASK_LIMITS = {
  /** The longest a task (and its result) is kept, whatever ttl the server asks for. */
  maxTtlMs: 60 * 60_000,
  /** The ttl when the server gives none. */
  defaultTtlMs: 10 * 60_000,
  /** The tasks kept at once per connection; the oldest finished ones go first. */
  maxTasks: 100,
  pollIntervalMs: 1000,
} as const;

const INVALID_PARAMS = -32602;

interface ReceivedTask {
  info: TaskInfo & { createdAt: string; lastUpdatedAt: string; ttl: number; pollInterval: number };
  method: string;
  abort: AbortController;
  outcome: Promise<{ result: Record<string, unknown> } | { error: unknown }>;
  /** Settles when the task is cancelled or expires, so a waiting tasks/result need not wait for the handler. */
  ended: Promise<{ error: unknown }>;
  expiry: ReturnType<typeof setTimeout>;
}

export class ReceivedTasks {
  private readonly tasks = new Map<string, ReceivedTask>();
  private next = 0;

  constructor(private readonly onChange: (task: TaskInfo, method: string) => void = () => undefined) {}

  /**
   * Starts `run` as a task and returns the task to answer the server with. `run` is the request's usual
   * handler; what it returns (or throws) becomes the task's result (or its failure).
   */
  start(method: string, requestedTtl: unknown, run: (signal: AbortSignal) => Promise<Record<string, unknown>>): TaskInfo {
    if (this.tasks.size >= RECEIVED_TASK_LIMITS.maxTasks) this.dropOldestFinished();
    if (this.tasks.size >= RECEIVED_TASK_LIMITS.maxTasks) {
      throw new ProtocolError(INVALID_PARAMS, `the host already runs ${RECEIVED_TASK_LIMITS.maxTasks} tasks for this server; answer or cancel some first`);
    }
    const ttl =
      typeof requestedTtl === 'number' && Number.isFinite(requestedTtl) && requestedTtl > 0
        ? Math.min(requestedTtl, RECEIVED_TASK_LIMITS.maxTtlMs)
        : RECEIVED_TASK_LIMITS.defaultTtlMs;
    const now = new Date().toISOString();
    const taskId = `host-task-${++this.next}-${Date.now().toString(36)}`;
    const abort = new AbortController();
    const ended = new Promise<{ error: unknown }>((resolve) =>
      abort.signal.addEventListener(
        'abort',
        () => resolve({ error: new ProtocolError(INVALID_PARAMS, `Task ${taskId} ended before its answer: ${task.info.statusMessage ?? 'cancelled'}`) }),
        { once: true },
      ),
    );
    const info = {
      taskId,
      status: 'working',
      statusMessage: `answering ${method}`,
      createdAt: now,
      lastUpdatedAt: now,
      ttl,
      pollInterval: RECEIVED_TASK_LIMITS.pollIntervalMs,
    };
    const task: ReceivedTask = {
      info,
      method,
      abort,
      ended,
      outcome: (async () => run(abort.signal))().then(
        (result) => {
          this.settle(task, abort.signal.aborted ? 'cancelled' : 'completed');
          return { result };
        },
        (error: unknown) => {
          this.settle(task, abort.signal.aborted ? 'cancelled' : 'failed', error);
          return { error };
        },
      ),
      // Past its ttl a task is dropped; one still running is cancelled first.
      expiry: setTimeout(() => this.expire(taskId), ttl),
    };
    task.expiry.unref?.();
    this.tasks.set(taskId, task);
    this.onChange({ ...info }, method);
    return { ...info };
  }

  get(taskId: unknown): TaskInfo {
    return { ...this.find(taskId).info };
  }

  /** The request's own result once the task ends, or its error; waits at most until the task's ttl. */
  async result(taskId: unknown): Promise<Record<string, unknown>> {
    const task = this.find(taskId);
    const outcome = await Promise.race([task.outcome, task.ended]);
    if ('error' in outcome) throw outcome.error;
    return outcome.result;
  }

  cancel(taskId: unknown): TaskInfo {
    const task = this.find(taskId);
    if (!['completed', 'failed', 'cancelled'].includes(task.info.status)) {
      this.settle(task, 'cancelled');
      task.abort.abort();
    }
    return { ...task.info };
  }

  list(): { tasks: TaskInfo[] } {
    return { tasks: [...this.tasks.values()].map((t) => ({ ...t.info })) };
  }

  /** The tasks kept (running or finished, until their ttl). */
  get size(): number {
    return this.tasks.size;
  }

  /** The session ended (a stop, a crash): every task still running is cancelled, its handler told, and all are dropped. */
  dispose(): void {
    for (const task of this.tasks.values()) {
      clearTimeout(task.expiry);
      this.settle(task, 'cancelled');
      task.abort.abort();
    }
    this.tasks.clear();
  }

  private find(taskId: unknown): ReceivedTask {
    const task = typeof taskId === 'string' ? this.tasks.get(taskId) : undefined;
    if (!task)
      throw new ProtocolError(
        INVALID_PARAMS,
        `Unknown task ${JSON.stringify(taskId ?? null).slice(0, 100)}: the host has no such task (finished tasks are kept for their ttl)`,
      );
    return task;
  }

  private settle(task: ReceivedTask, status: 'completed' | 'failed' | 'cancelled', error?: unknown): void {
    if (['completed', 'failed', 'cancelled'].includes(task.info.status)) return;
    task.info.status = status;
    task.info.statusMessage = status === 'failed' ? errorText(error).slice(0, 2000) : status === 'cancelled' ? 'cancelled' : undefined;
    task.info.lastUpdatedAt = new Date().toISOString();
    this.onChange({ ...task.info }, task.method);
  }

  private expire(taskId: string): void {
    const task = this.tasks.get(taskId);
    if (!task) return;
    if (!['completed', 'failed', 'cancelled'].includes(task.info.status)) {
      this.settle(task, 'failed', new Error(`the task was not done within its ttl of ${Math.round(task.info.ttl / 1000)} s`));
      task.abort.abort();
    }
    // Kept a moment longer so a tasks/result already waiting gets the outcome.
    setTimeout(() => this.tasks.delete(taskId), 1000).unref?.();
  }

  private dropOldestFinished(): void {
    for (const [id, task] of this.tasks) {
      if (['completed', 'failed', 'cancelled'].includes(task.info.status)) {
        clearTimeout(task.expiry);
        this.tasks.delete(id);
        return;
      }
    }
  }
}

/** What the host's side of a connection needs to serve the server's task requests. */
interface TaskServingClient {
  setRequestHandler(
    method: string,
    schemas: { params: StandardSchemaV1 },
    handler: (params: Record<string, unknown>) => Promise<Record<string, unknown>>,
  ): void;
}

const ANY_PARAMS: StandardSchemaV1<Record<string, unknown>> = {
  '~standard': {
    version: 1,
    vendor: 'mcp-host',
    validate: (value: unknown) => ({ value: (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown> }),
  },
};

/** Serves `tasks/get`, `tasks/result`, `tasks/cancel` and `tasks/list` from a new store of received tasks. */
export function serveReceivedTasks(client: TaskServingClient, log: Logger): ReceivedTasks {
  const store = new ReceivedTasks((task, method) =>
    log.info(`task ${task.taskId} (${method}, received as a task): ${task.status}${task.statusMessage ? ` — ${task.statusMessage}` : ''}`),
  );
  client.setRequestHandler('tasks/get', { params: ANY_PARAMS }, async (p) => ({ ...store.get(p.taskId) }));
  client.setRequestHandler('tasks/result', { params: ANY_PARAMS }, (p) => store.result(p.taskId));
  client.setRequestHandler('tasks/cancel', { params: ANY_PARAMS }, async (p) => ({ ...store.cancel(p.taskId) }));
  client.setRequestHandler('tasks/list', { params: ANY_PARAMS }, async () => store.list());
  return store;
}
