// Edits of mcp.json text that keep the user's comments and formatting (jsonc-parser): the one home for adding a
// server, used by MCP: Add Server…, the registry's Install and `mcp-host registry install`.
import { applyEdits, modify, parse, type ParseError } from 'jsonc-parser';
import type { InputDefinition } from './types';
import type { SandboxListKey, SandboxSection } from './sandbox';

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

/** Where the server `name` stands: `servers` or `mcpServers`, and the parsed file. */
function locateServer(text: string, name: string): { root: Record<string, unknown>; section: 'servers' | 'mcpServers'; entry: Record<string, unknown> } {
  const errors: ParseError[] = [];
  const root = parse(text, errors, { allowTrailingComma: true }) as unknown;
  if (errors.length > 0 || typeof root !== 'object' || root === null || Array.isArray(root)) {
    throw new Error('The configuration file is not valid JSON; fix it first.');
  }
  for (const section of ['servers', 'mcpServers'] as const) {
    const entry = ((root as Record<string, unknown>)[section] as Record<string, unknown> | undefined)?.[name];
    if (typeof entry === 'object' && entry !== null && !Array.isArray(entry)) {
      return { root: root as Record<string, unknown>, section, entry: entry as Record<string, unknown> };
    }
  }
  throw new Error(`The configuration has no server named "${name}".`);
}

function listAt(block: unknown, section: string, key: string): string[] | undefined {
  const list = (block as Record<string, Record<string, unknown> | undefined> | undefined)?.[section]?.[key];
  return Array.isArray(list) ? list.filter((e): e is string => typeof e === 'string') : undefined;
}

/**
 * The config text with `value` added to the server's own `sandbox.<section>.<key>` list. A server without that
 * list of its own starts from the file's top-level one (which its own list replaces), so nothing it had is lost.
 */
export function addSandboxEntry(text: string, name: string, section: SandboxSection, key: SandboxListKey, value: string): string {
  const { root, section: serversKey, entry } = locateServer(text, name);
  const current = listAt(entry.sandbox, section, key) ?? listAt(root.sandbox, section, key) ?? [];
  if (current.includes(value) && listAt(entry.sandbox, section, key)) return text;
  const next = current.includes(value) ? current : [...current, value];
  return applyEdits(text, modify(text, [serversKey, name, 'sandbox', section, key], next, FORMAT));
}

/** The config text with `sandboxEnabled: true` in the server's entry. */
export function enableSandbox(text: string, name: string): string {
  const { section } = locateServer(text, name);
  return applyEdits(text, modify(text, [section, name, 'sandboxEnabled'], true, FORMAT));
}
