// SEP-2243 `Mcp-Param-{Name}` headers for the secure properties that declare `x-mcp-header` (SEP-3221: the
// client MUST take their values from `secureArguments`). The SDK mirrors only `arguments` (from `inputSchema`);
// these are added to the same request's headers, on 2026-07-28 HTTP calls.

import type { Logger } from '../log';
import { headerNamesOf, secretPropertyNames, secureArgumentsFor, secureInputSchemaOf, secureValueStrings, takesSecureValues, type SecureArguments } from '.';

const HEADER_PREFIX = 'Mcp-Param-';

/** SEP-2243's value encoding: as is, or `=?base64?…?=` for anything a header cannot carry plainly. */
export function encodeHeaderValue(value: string): string {
  const plain = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(value) && !/^=\?base64\?.*\?=$/i.test(value);
  return plain ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

function headerText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

/** The `Mcp-Param-*` headers of one call's secure values (a value absent or of another kind sends none). */
export function secureParamHeaders(tool: unknown, secureArguments: SecureArguments): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, header] of headerNamesOf(secureInputSchemaOf(tool))) {
    const text = headerText(secureArguments[name]);
    if (text !== undefined) out[`${HEADER_PREFIX}${header}`] = encodeHeaderValue(text);
  }
  return out;
}

/**
 * What a call of this tool adds for its secure values: `params.secureArguments` (only the names the tool declares,
 * each of its schema type; `{}` when none are given) and, in 2026-07-28, their headers. The values are masked in the connection's log from
 * now on (its trace shows every message). Undefined for a tool without a secure schema. The SDK re-sends both on
 * every `input_required` retry (it spreads the first request's params and keeps its headers).
 */
export function secureCall(
  tool: unknown,
  values: SecureArguments | undefined,
  log: Logger,
  modern: boolean,
): { params: { secureArguments: SecureArguments }; options: { headers?: Record<string, string> } } | undefined {
  if (!takesSecureValues(tool)) return undefined;
  const secureArguments = secureArgumentsFor(tool, values ?? {});
  log.maskSecrets(secureValueStrings(secureArguments, new Set(secretPropertyNames(tool))));
  const headers = modern ? secureParamHeaders(tool, secureArguments) : {};
  return { params: { secureArguments }, options: Object.keys(headers).length ? { headers } : {} };
}
