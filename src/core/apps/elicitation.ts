// App-rendered elicitation (SEP-3118, draft): a form `elicitation/create` whose `_meta.ui.resourceUri` names an
// app of the asking server is answered by that app. The app is untrusted: its `ElicitResult` is checked here,
// outside its sandbox, against the request's own `requestedSchema` (file fields as data: URIs against their
// slot), and anything that does not fit sends the question back to the host's native form.
import type { ElicitRequestParamsLoose } from '../connection/types';
import { checkDataUriValue } from '../files/validateValue';
import { findElicitationFileFields, type FileSlot } from '../files/slots';
import { ajvMessages, compileSchema } from '../forms';
import { checkValue } from '../forms/validate';

/** How long the app may take to load and complete its handshake before the native form is shown instead. */
export const APP_QUESTION_START_MS = 10_000;

/** The `ui://` app a form elicitation asks to be answered by, or undefined (URL and binary modes never are). */
export function elicitationAppUri(params: ElicitRequestParamsLoose): string | undefined {
  const mode = params.mode ?? 'form';
  if (mode !== 'form') return undefined;
  const ui = (params._meta as { ui?: unknown } | undefined)?.ui;
  const uri = ui && typeof ui === 'object' ? (ui as { resourceUri?: unknown }).resourceUri : undefined;
  return typeof uri === 'string' && uri.startsWith('ui://') && uri.length > 'ui://'.length && uri.length <= 2048 ? uri : undefined;
}

/** A file an app answered with, for the person's confirmation before it is sent. */
export interface AppAnswerFile {
  field: string;
  mediaType: string;
  size: number;
  name?: string;
}

export type AppAnswerCheck =
  | { ok: true; result: { action: 'accept'; content: Record<string, unknown> } | { action: 'decline' | 'cancel' }; files: AppAnswerFile[] }
  | { ok: false; problem: string };

const MAX_PROBLEMS = 5;

/**
 * Checks an app's answer: an `ElicitResult` whose action is accept, decline or cancel; on accept, `content` is an
 * object that `requestedSchema` accepts, and every file field holds data: URIs that fit the field's accept and
 * size. Only the fields the schema names are kept (nothing else the app adds reaches the server).
 */
export function checkAppAnswer(raw: unknown, requestedSchema: unknown): AppAnswerCheck {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, problem: 'the app answered with something other than an ElicitResult object' };
  const { action, content } = raw as { action?: unknown; content?: unknown };
  if (action === 'decline' || action === 'cancel') return { ok: true, result: { action }, files: [] };
  if (action !== 'accept')
    return { ok: false, problem: `the app answered with action ${JSON.stringify(action ?? null).slice(0, 40)}, not accept, decline or cancel` };
  if (!content || typeof content !== 'object' || Array.isArray(content)) return { ok: false, problem: 'the app accepted without a content object' };
  const values = content as Record<string, unknown>;
  const { slots } = findElicitationFileFields(requestedSchema);
  const problems: string[] = [];
  const files: AppAnswerFile[] = [];
  for (const slot of slots) {
    const value = values[slot.path[0]!];
    if (value === undefined || value === null) continue;
    const items = slot.multiple && Array.isArray(value) ? value : [value];
    if (slot.multiple !== Array.isArray(value)) {
      problems.push(`${slot.label}: ${slot.multiple ? 'must be a list of files' : 'must be one file'}`);
      continue;
    }
    for (const item of items) {
      const check = checkDataUriValue(slot.label, item, slot);
      if (!check.ok) {
        problems.push(check.reason);
        continue;
      }
      files.push({
        field: slot.label,
        mediaType: check.parsed.mediaType,
        size: check.parsed.size,
        ...(check.parsed.params.name ? { name: check.parsed.params.name } : {}),
      });
    }
  }
  const validate = compileSchema(withoutFileFields(requestedSchema, slots));
  if (typeof validate === 'string') return { ok: false, problem: `the question's schema cannot be checked: ${validate}` };
  const nonFile = Object.fromEntries(Object.entries(values).filter(([k]) => !slots.some((s) => s.path[0] === k)));
  const check = checkValue(validate, nonFile);
  if (!check.valid) problems.push(...ajvMessages(check.errors, MAX_PROBLEMS));
  if (problems.length) return { ok: false, problem: `the app's answer does not fit the question: ${problems.slice(0, MAX_PROBLEMS).join('; ')}` };
  const properties = (requestedSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
  const kept = Object.fromEntries(Object.entries(values).filter(([k]) => Object.hasOwn(properties, k)));
  return { ok: true, result: { action: 'accept', content: kept }, files };
}

/** The schema with its file fields left out (they are checked as data: URIs against their slot instead). */
function withoutFileFields(schema: unknown, slots: readonly FileSlot[]): unknown {
  if (!slots.length || !schema || typeof schema !== 'object') return schema;
  const s = schema as { properties?: Record<string, unknown>; required?: unknown };
  const names = new Set(slots.map((slot) => slot.path[0]));
  const properties = Object.fromEntries(Object.entries(s.properties ?? {}).filter(([k]) => !names.has(k)));
  const required = Array.isArray(s.required) ? s.required.filter((k) => !names.has(k as string)) : s.required;
  return { ...s, properties, ...(required !== undefined ? { required } : {}) };
}
