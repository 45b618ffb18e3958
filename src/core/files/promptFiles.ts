// Prompt arguments that are files. The file-input working group plans `PromptArgument["x-mcp-file"]` (a
// FileInputDescriptor on the argument itself); some servers give the argument a `schema` carrying `x-mcp-file`
// instead: both are read. A prompt argument is a string, so a file goes inline as a data: URI, never by upload.
// The SDK's PromptArgument schema drops both fields, so the raw prompts/list answer's are set aside in the
// prompt's `_meta` before it parses them, and put back on the parsed prompt.

import { isObject } from '../../shared/json';

/** Where a listed prompt's file marks wait while the SDK parses the answer (host-internal, removed again). */
const SHIELD_KEY = 'mcp-host/promptFileArguments';

/** The fields of a prompt argument the SDK would drop that tell it is a file. */
const FILE_FIELDS = ['x-mcp-file', 'schema'] as const;

/** Before the SDK parses a prompts/list answer: each argument's file fields kept in its prompt's `_meta`. */
export function shieldPromptFileArguments(result: unknown): void {
  if (!isObject(result) || !Array.isArray(result.prompts)) return;
  for (const prompt of result.prompts) {
    if (!isObject(prompt) || !Array.isArray(prompt.arguments)) continue;
    const kept: Record<string, Record<string, unknown>> = {};
    for (const arg of prompt.arguments) {
      if (!isObject(arg) || typeof arg.name !== 'string') continue;
      const fields = Object.fromEntries(FILE_FIELDS.filter((k) => arg[k] !== undefined).map((k) => [k, arg[k]]));
      if (Object.keys(fields).length) kept[arg.name] = fields;
    }
    if (!Object.keys(kept).length) continue;
    if (prompt._meta !== undefined && !isObject(prompt._meta)) continue;
    prompt._meta = { ...(prompt._meta ?? {}), [SHIELD_KEY]: kept };
  }
}

/** The parsed prompt with its arguments' file fields back in place (a copy; `_meta` as the server sent it). */
export function restorePromptFileArguments<T extends { arguments?: unknown; _meta?: unknown }>(prompt: T): T {
  const meta = prompt._meta;
  if (!isObject(meta) || !isObject(meta[SHIELD_KEY])) return prompt;
  const kept = meta[SHIELD_KEY];
  const { [SHIELD_KEY]: _kept, ...rest } = meta;
  const args = Array.isArray(prompt.arguments)
    ? prompt.arguments.map((a: unknown) => {
        const fields = isObject(a) && typeof a.name === 'string' ? kept[a.name] : undefined;
        // Only the file fields come back (a server's own `_meta` under this key can set nothing else).
        return isObject(a) && isObject(fields) ? { ...a, ...Object.fromEntries(FILE_FIELDS.filter((k) => k in fields).map((k) => [k, fields[k]])) } : a;
      })
    : prompt.arguments;
  const out = { ...prompt, arguments: args };
  if (Object.keys(rest).length) out._meta = rest;
  else delete out._meta;
  return out;
}

/**
 * The argument's schema when it is a file: `{type: string, format: uri, x-mcp-file}` with the server's
 * descriptor (accept, maxSize) and inline transfer only. `x-mcp-file` on a `schema` whose `format` is not `uri`
 * is kept as written, so the slot scan warns about it and the field stays plain text.
 */
export function promptArgumentFileSchema(arg: Record<string, unknown>): Record<string, unknown> | undefined {
  const own = arg['x-mcp-file'];
  const schema = isObject(arg.schema) ? arg.schema : undefined;
  const descriptor = own !== undefined ? own : schema?.['x-mcp-file'];
  if (descriptor === undefined) return undefined;
  const format = own !== undefined ? 'uri' : schema?.format;
  const inline = isObject(descriptor) ? { ...descriptor, transferModes: ['inline'] } : descriptor;
  return { type: 'string', ...(format !== undefined ? { format } : {}), 'x-mcp-file': inline };
}
