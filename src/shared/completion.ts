// completion/complete: suggestions for a prompt argument or a resource template variable as the user types.
// The server's answer is bounded here (at most 100 values, each cut to 1,000 characters); the webview debounces
// a typist's requests (src/webview/latestCompletion.ts).

/** What is being completed: a prompt (by name) or a resource template (by its URI template). */
export type CompletionRef = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

export interface CompletionRequest {
  ref: CompletionRef;
  argument: { name: string; value: string };
  /** The values of the arguments already filled in (sent as `context.arguments`). */
  context?: Record<string, string>;
}

export interface Completion {
  values: string[];
  /** How many the server says exist (may exceed `values`). */
  total?: number;
  hasMore: boolean;
  /** The server sent more than the host shows (the spec's maximum is 100). */
  cut?: string;
}

/** What a form field offers as the user types: the values, and a note when the server sent more than are shown. */
export interface Suggestions {
  values: string[];
  note?: string;
}

/** The spec's maximum per answer; more are dropped, with a note. */
export const COMPLETION_MAX_VALUES = 100;
const COMPLETION_MAX_VALUE_CHARS = 1000;

/** Bounds a server's `completion` answer: strings only, at most 100 values, each at most 1,000 characters. */
export function boundCompletion(raw: unknown): Completion {
  const completion = (typeof raw === 'object' && raw !== null ? raw : {}) as { values?: unknown; total?: unknown; hasMore?: unknown };
  const all = Array.isArray(completion.values) ? completion.values.filter((v): v is string => typeof v === 'string') : [];
  const values = all.slice(0, COMPLETION_MAX_VALUES).map((v) => (v.length > COMPLETION_MAX_VALUE_CHARS ? v.slice(0, COMPLETION_MAX_VALUE_CHARS) : v));
  const total = typeof completion.total === 'number' && Number.isFinite(completion.total) ? completion.total : undefined;
  const result: Completion = { values, hasMore: completion.hasMore === true || all.length > COMPLETION_MAX_VALUES, ...(total !== undefined ? { total } : {}) };
  if (all.length > COMPLETION_MAX_VALUES) result.cut = `the server sent ${all.length} suggestions; the first ${COMPLETION_MAX_VALUES} are shown`;
  return result;
}

/** The string values of a form's filled arguments, for `context.arguments`. */
export function completionContext(values: Record<string, unknown>, except: string): Record<string, string> | undefined {
  const context: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) if (k !== except && typeof v === 'string' && v !== '') context[k] = v;
  return Object.keys(context).length ? context : undefined;
}
