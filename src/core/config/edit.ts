// Edits of mcp.json text that keep the user's comments and formatting (jsonc-parser): the one home for adding a
// server, used by MCP: Add Server…, the registry's Install and `mcp-host registry install`.
import { applyEdits, modify, parse, type ParseError } from 'jsonc-parser';
import type { InputDefinition } from './types';

const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } };

/** The server names already in the config text (`servers` and `mcpServers`). */
export function serverNamesIn(text: string): string[] {
  const errors: ParseError[] = [];
  const root = parse(text, errors, { allowTrailingComma: true }) as unknown;
  if (typeof root !== 'object' || root === null) return [];
  const names: string[] = [];
  for (const key of ['servers', 'mcpServers']) {
    const section = (root as Record<string, unknown>)[key];
    if (typeof section === 'object' && section !== null) names.push(...Object.keys(section));
  }
  return names;
}

/** `name`, or `name-2`, `name-3`… when taken. */
export function uniqueServerName(name: string, taken: readonly string[]): string {
  if (!taken.includes(name)) return name;
  for (let n = 2; ; n++) if (!taken.includes(`${name}-${n}`)) return `${name}-${n}`;
}

/**
 * The config text with the server added under `servers` and its `inputs` appended (an input whose id is there
 * already is kept as it is); an empty or blank file becomes a new config.
 */
export function addServerEntry(text: string, name: string, entry: Record<string, unknown>, inputs: readonly InputDefinition[] = []): string {
  let out = text.trim() === '' ? '{\n}\n' : text;
  const errors: ParseError[] = [];
  const root = parse(out, errors, { allowTrailingComma: true }) as unknown;
  if (errors.length > 0 || typeof root !== 'object' || root === null || Array.isArray(root)) {
    throw new Error('The configuration file is not valid JSON; fix it first, then add the server.');
  }
  if (serverNamesIn(out).includes(name)) throw new Error(`The configuration already has a server named "${name}".`);
  out = applyEdits(out, modify(out, ['servers', name], entry, FORMAT));
  const existing = (root as { inputs?: unknown }).inputs;
  const have = new Set(Array.isArray(existing) ? existing.map((i) => (typeof i === 'object' && i !== null ? (i as { id?: unknown }).id : undefined)) : []);
  const arrayExists = Array.isArray(existing);
  let count = arrayExists ? existing.length : 0;
  for (const input of inputs) {
    if (have.has(input.id)) continue;
    out = applyEdits(out, modify(out, ['inputs', count], input, { ...FORMAT, isArrayInsertion: true }));
    have.add(input.id);
    count++;
  }
  return out;
}
