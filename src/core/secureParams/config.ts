// A server entry's `secureArguments` in mcp.json: the values the host binds for that server's tools' secure
// parameters (SEP-3221), by property name. Strings may use variables (`${input:ID}` with a password input keeps a
// secret out of the file); the values reach no model.

import { isObject } from '../../shared/json';
import type { SecureArguments } from '.';

export const SECURE_ARGUMENTS_KEY = 'secureArguments';

/** Adds the entry's `secureArguments` to a parsed definition; a message when they are not an object. */
export function withSecureArguments<T extends object>(parsed: T | string, raw: unknown, name: string): T | string {
  if (typeof parsed === 'string' || !isObject(raw) || raw[SECURE_ARGUMENTS_KEY] === undefined) return parsed;
  const values = raw[SECURE_ARGUMENTS_KEY];
  if (!isObject(values)) return `server "${name}": "${SECURE_ARGUMENTS_KEY}" must be an object of values by secure parameter name`;
  return { ...parsed, [SECURE_ARGUMENTS_KEY]: values };
}

/** Every string the values hold (where variables may appear). */
export function stringsOfSecureArguments(values: SecureArguments | undefined): string[] {
  const out: string[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (typeof v === 'string') out.push(v);
    else if (depth < 8 && Array.isArray(v)) for (const x of v) walk(x, depth + 1);
    else if (depth < 8 && isObject(v)) for (const x of Object.values(v)) walk(x, depth + 1);
  };
  walk(values, 0);
  return out;
}

/** The values with `sub` applied to every string. */
export function substituteSecureArguments(values: SecureArguments, sub: (s: string) => string): SecureArguments {
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') return sub(v);
    if (depth < 8 && Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
    if (depth < 8 && isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, depth + 1)]));
    return v;
  };
  return walk(values, 0) as SecureArguments;
}
