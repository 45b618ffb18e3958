// The 2026-07-28 Tasks extension `io.modelcontextprotocol/tasks` (SEP-2663) on the wire. A server that negotiated
// it may answer any `tools/call` that offered the extension with `resultType: "task"`; the SDK accepts only
// `complete` and `input_required`, so the connection sets such an answer aside here (in the result's `_meta`)
// before the SDK decodes it, and `createdTaskOf` takes it back out.
import { isObject } from '../../shared/json';

export const TASKS_EXTENSION_ID = 'io.modelcontextprotocol/tasks';

/** Where a set-aside task answer travels through the SDK. */
const TASK_SHIELD_KEY = 'mcp-host/created-task';

/**
 * Rewrites, in place, a `resultType: "task"` answer into a complete, empty tool result that carries the task in
 * its `_meta`. Anything else is left alone. Returns whether it rewrote.
 */
export function shieldCreatedTask(result: unknown): boolean {
  if (!isObject(result) || result.resultType !== 'task') return false;
  const task = { ...result };
  for (const key of Object.keys(result)) delete result[key];
  Object.assign(result, { resultType: 'complete', content: [], _meta: { [TASK_SHIELD_KEY]: task } });
  return true;
}

/** The task a shielded answer carries, or undefined for an ordinary result. */
export function createdTaskOf(result: unknown): Record<string, unknown> | undefined {
  if (!isObject(result) || !isObject(result._meta)) return undefined;
  const task = result._meta[TASK_SHIELD_KEY];
  return isObject(task) ? task : undefined;
}

/** Whether a request's `_meta` offers the extension in its client capabilities. */
export function offersTasksExtension(meta: unknown, capabilitiesKey: string): boolean {
  if (!isObject(meta)) return false;
  const caps = meta[capabilitiesKey];
  return isObject(caps) && isObject(caps.extensions) && Object.hasOwn(caps.extensions, TASKS_EXTENSION_ID);
}
