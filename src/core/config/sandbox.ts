// The `sandboxEnabled` and `sandbox` keys of a stdio server, as VS Code spells them. A `sandbox` block may stand at
// the top level of the file (VS Code's schema) or inside the server's entry (its documentation): both are read, and
// each list the server's own block sets replaces the same list of the top-level block.

/** The lists of a `sandbox` block; every one is optional. `allowRead` is ours (the runtime's re-allow of a `denyRead`). */
export interface SandboxConfig {
  filesystem?: { allowWrite?: string[]; denyRead?: string[]; denyWrite?: string[]; allowRead?: string[] };
  network?: { allowedDomains?: string[]; deniedDomains?: string[] };
}

export type SandboxSection = keyof SandboxConfig;
/** Every key of a `sandbox` block, by section. */
export const SANDBOX_KEYS = {
  filesystem: ['allowWrite', 'denyRead', 'denyWrite', 'allowRead'],
  network: ['allowedDomains', 'deniedDomains'],
} as const satisfies Record<SandboxSection, readonly string[]>;
export type SandboxListKey<S extends SandboxSection = SandboxSection> = (typeof SANDBOX_KEYS)[S][number];

/** The most entries one list may hold, and the longest entry. */
export const SANDBOX_MAX_ENTRIES = 1000;
export const SANDBOX_MAX_ENTRY_CHARS = 4096;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Checks a `sandbox` block; returns it or a message naming the key that is wrong. `where` prefixes the message. */
export function parseSandboxBlock(raw: unknown, where: string): SandboxConfig | string {
  if (!isRecord(raw)) return `${where}"sandbox" must be an object`;
  const out: SandboxConfig = {};
  for (const [section, value] of Object.entries(raw)) {
    if (!Object.hasOwn(SANDBOX_KEYS, section)) return `${where}unknown "sandbox" key "${section}" (expected filesystem, network)`;
    const keys: readonly string[] = SANDBOX_KEYS[section as SandboxSection];
    if (!isRecord(value)) return `${where}"sandbox.${section}" must be an object`;
    const lists: Record<string, string[]> = {};
    for (const [key, list] of Object.entries(value)) {
      if (!keys.includes(key)) return `${where}unknown "sandbox.${section}" key "${key}" (expected ${keys.join(', ')})`;
      if (!Array.isArray(list) || !list.every((e) => typeof e === 'string' && e.trim() !== '')) {
        return `${where}"sandbox.${section}.${key}" must be an array of non-empty strings`;
      }
      if (list.length > SANDBOX_MAX_ENTRIES) return `${where}"sandbox.${section}.${key}" has ${list.length} entries (at most ${SANDBOX_MAX_ENTRIES})`;
      const long = (list as string[]).find((e) => e.length > SANDBOX_MAX_ENTRY_CHARS);
      if (long !== undefined) return `${where}an entry of "sandbox.${section}.${key}" is longer than ${SANDBOX_MAX_ENTRY_CHARS} characters`;
      lists[key] = list as string[];
    }
    (out as Record<string, unknown>)[section] = lists;
  }
  return out;
}

/** The server's block over the top-level one, list by list. */
export function mergeSandboxBlocks(top: SandboxConfig | undefined, own: SandboxConfig | undefined): SandboxConfig | undefined {
  if (!top) return own;
  if (!own) return top;
  return {
    filesystem: { ...top.filesystem, ...own.filesystem },
    network: { ...top.network, ...own.network },
  };
}
