// The expectations of a saved call checked against what a run observed, each difference said in a line:
// "structuredContent.temperature: expected 33, got 34". Patterns come from files people share, so they run on
// the linear-time engine (re2js) and on a bounded text.
import type { CallToolResult } from '@modelcontextprotocol/client';
import { isObject } from '../../shared/json';
import { ajvMessages, checkValue, compileSchema } from '../forms/validate';
import { redactDataUris } from '../files';
import { MiB } from '../io/limits';
import type { Expectations } from './savedCalls';

/** What a run is checked on: the result's outcome, structured content, text, and how long it took. */
export interface Observed {
  isError: boolean;
  structuredContent?: unknown;
  /** The text items of the result, joined by new lines. */
  text: string;
  durationMs: number;
}

/** The most text a `text` expectation is checked on (the start of a longer text). */
export const MAX_CHECKED_TEXT = 4 * MiB;
const SHOWN = 160;

/** What a result shows the expectations: its outcome, structured content and text. */
export function observedOf(result: Pick<CallToolResult, 'isError' | 'content' | 'structuredContent'>, durationMs: number): Observed {
  const text = (Array.isArray(result.content) ? result.content : [])
    .flatMap((c) => (c.type === 'text' && typeof c.text === 'string' ? [c.text] : []))
    .join('\n');
  return {
    isError: result.isError === true,
    ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
    text: text.slice(0, MAX_CHECKED_TEXT),
    durationMs,
  };
}

/** Expectations filled from a result (Expect This Result, `--expect-current`): its outcome, structured content or text. */
export function expectationsOf(observed: Observed): Expectations {
  const expect: Expectations = { outcome: observed.isError ? 'toolError' : 'success' };
  if (observed.structuredContent !== undefined) expect.structuredContent = { equals: observed.structuredContent };
  else if (observed.text !== '') expect.text = { contains: observed.text.slice(0, 4000) };
  return expect;
}

/** A value in one line, cut. */
export function shown(value: unknown): string {
  const text = value === undefined ? 'nothing' : typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  const safe = redactDataUris(text);
  return safe.length > SHOWN ? `${safe.slice(0, SHOWN)}… (${safe.length} characters)` : safe;
}

const place = (path: string, key: string | number) =>
  typeof key === 'number' ? `${path}[${key}]` : /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;

/** The first place where `actual` is not `expected`, or undefined when they are equal. */
export function firstDifference(expected: unknown, actual: unknown, path: string): string | undefined {
  if (Array.isArray(expected) && Array.isArray(actual)) {
    for (let i = 0; i < Math.min(expected.length, actual.length); i++) {
      const d = firstDifference(expected[i], actual[i], place(path, i));
      if (d) return d;
    }
    return expected.length === actual.length ? undefined : `${path}: expected ${expected.length} items, got ${actual.length}`;
  }
  if (isObject(expected) && isObject(actual) && !Array.isArray(expected) && !Array.isArray(actual)) {
    for (const key of Object.keys(expected)) {
      if (!(key in actual)) return `${place(path, key)}: expected ${shown(expected[key])}, got nothing`;
      const d = firstDifference(expected[key], actual[key], place(path, key));
      if (d) return d;
    }
    const extra = Object.keys(actual).find((k) => !(k in expected));
    return extra === undefined ? undefined : `${place(path, extra)}: expected nothing, got ${shown(actual[extra])}`;
  }
  return Object.is(expected, actual) || expected === actual ? undefined : `${path}: expected ${shown(expected)}, got ${shown(actual)}`;
}

/**
 * Where `actual` does not contain `expected`, or undefined: an object contains every key given with a value
 * containing the one given; a list contains each item given in some item of its own; other values are equal.
 */
export function firstMissing(expected: unknown, actual: unknown, path: string): string | undefined {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path}: expected a list, got ${shown(actual)}`;
    for (const [i, item] of expected.entries()) {
      if (!actual.some((a) => firstMissing(item, a, path) === undefined)) return `${path}: no item contains ${shown(item)} (expected item ${i + 1})`;
    }
    return undefined;
  }
  if (isObject(expected)) {
    if (!isObject(actual) || Array.isArray(actual)) return `${path}: expected an object, got ${shown(actual)}`;
    for (const key of Object.keys(expected)) {
      if (!(key in actual)) return `${place(path, key)}: expected ${shown(expected[key])}, got nothing`;
      const d = firstMissing(expected[key], actual[key], place(path, key));
      if (d) return d;
    }
    return undefined;
  }
  return firstDifference(expected, actual, path);
}

/** A pattern compiled on the linear-time engine; a string is why it cannot be. */
function compilePattern(pattern: string): { test(text: string): boolean } | string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when a pattern is checked
  const { RE2JS } = require('../libraries') as typeof import('../libraries');
  try {
    return RE2JS.compile(RE2JS.translateRegExp(pattern));
  } catch (e) {
    return `the pattern ${shown(pattern)} is not valid (${(e as Error).message.slice(0, 200)})`;
  }
}

/** Why `text` does not contain `expected`: for several lines, the first line of it the text lacks, and the text's line in its place. */
function missingText(expected: string, text: string): string {
  const lines = expected.split('\n');
  const at = lines.length > 1 ? lines.findIndex((l) => !text.includes(l)) : -1;
  if (at === -1) return `text: expected to contain ${shown(expected)}, got ${shown(text)}`;
  const theirs = text.split('\n');
  const counterpart = theirs[at] !== undefined && theirs[at] !== lines[at] ? `; the text's line ${at + 1} is ${shown(theirs[at])}` : '';
  return `text: line ${at + 1} of the expected text, ${shown(lines[at])}, is not in the result${counterpart}`;
}

/** Every expectation `observed` does not meet, one line each ([] when all are met). */
export function checkExpectations(expect: Expectations | undefined, observed: Observed): string[] {
  if (!expect) return [];
  const out: string[] = [];
  if (expect.outcome) {
    const got = observed.isError ? 'toolError' : 'success';
    if (got !== expect.outcome)
      out.push(`outcome: expected ${expect.outcome}, got ${got}${observed.isError && observed.text ? ` (${shown(observed.text)})` : ''}`);
  }
  const structured = expect.structuredContent;
  if (structured) {
    const actual = observed.structuredContent;
    if ('equals' in structured) {
      const d = firstDifference(structured.equals, actual, 'structuredContent');
      if (d) out.push(d);
    }
    if ('contains' in structured) {
      const d = firstMissing(structured.contains, actual, 'structuredContent');
      if (d) out.push(d);
    }
    if (structured.matchesSchema !== undefined) {
      const validate = compileSchema(structured.matchesSchema);
      if (typeof validate === 'string') out.push(`structuredContent: the expected schema cannot be used: ${validate}`);
      else if (actual === undefined) out.push('structuredContent: expected a value matching the schema, got nothing');
      else {
        const check = checkValue(validate, actual);
        if (!check.valid) out.push(`structuredContent does not match the schema: ${ajvMessages(check.errors, 3).join('; ')}`);
      }
    }
  }
  if (expect.text?.contains !== undefined && !observed.text.includes(expect.text.contains)) out.push(missingText(expect.text.contains, observed.text));
  if (expect.text?.matches !== undefined) {
    const re = compilePattern(expect.text.matches);
    if (typeof re === 'string') out.push(`text: ${re}`);
    else if (!re.test(observed.text)) out.push(`text: expected to match /${expect.text.matches}/, got ${shown(observed.text)}`);
  }
  if (expect.maxDurationMs !== undefined && observed.durationMs >= expect.maxDurationMs) {
    out.push(`duration: expected under ${expect.maxDurationMs} ms, took ${Math.round(observed.durationMs)} ms`);
  }
  return out;
}
