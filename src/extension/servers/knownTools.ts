// The tools the host has seen a server definition offer, so MCP: Run Tool… can name them before that server is
// started (a fresh clone of a repository whose servers ran elsewhere). Kept in the extension's global state by
// the definition's trust hash (serverTrust.definitionHash: the unresolved definition, so no input's value):
// names, titles and the first line of each description only, never a schema, and bounded in count and length.
// No `vscode` import: tested in plain Node.

/** A tool as remembered: what a person recognises it by. */
export interface KnownTool {
  name: string;
  title?: string;
  description?: string;
}

interface KnownEntry {
  /** When the definition's tools were last seen (ms since the epoch): the oldest entry goes first. */
  seenAt: number;
  tools: KnownTool[];
}

export type KnownToolsRecord = Record<string, KnownEntry>;

/** The few members of a VS Code Memento this needs. */
export interface KnownToolsStore {
  get<T>(key: string, defaultValue: T): T;
  update(key: string, value: unknown): Thenable<void>;
}

export const KNOWN_TOOLS_KEY = 'mcpHost.knownTools.v1';
export const KNOWN_TOOLS_LIMITS = {
  definitions: 32,
  toolsPerDefinition: 100,
  nameChars: 128,
  titleChars: 128,
  descriptionChars: 200,
  /** Characters of all of one definition's tools together (as JSON): the whole record stays under ~0.5 MB. */
  charsPerDefinition: 16_000,
} as const;

function cut(text: unknown, max: number): string | undefined {
  if (typeof text !== 'string') return undefined;
  const line = text.split('\n')[0]?.trim();
  if (!line) return undefined;
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** What is kept of a server's tools: no schema, no annotations, no _meta; names too long to type are left out. */
export function toKnownTools(tools: readonly { name: string; title?: string; annotations?: { title?: string }; description?: string }[]): KnownTool[] {
  const kept: KnownTool[] = [];
  let chars = 0;
  for (const tool of tools) {
    if (typeof tool.name !== 'string' || tool.name.length === 0 || tool.name.length > KNOWN_TOOLS_LIMITS.nameChars) continue;
    const title = cut(typeof tool.title === 'string' ? tool.title : tool.annotations?.title, KNOWN_TOOLS_LIMITS.titleChars);
    const description = cut(tool.description, KNOWN_TOOLS_LIMITS.descriptionChars);
    const known = { name: tool.name, ...(title ? { title } : {}), ...(description ? { description } : {}) };
    chars += JSON.stringify(known).length;
    if (chars > KNOWN_TOOLS_LIMITS.charsPerDefinition) break;
    kept.push(known);
    if (kept.length >= KNOWN_TOOLS_LIMITS.toolsPerDefinition) break;
  }
  return kept;
}

/** How stale an unchanged entry's `seenAt` may get before seeing it again is written (a list_changed flood writes nothing). */
const SEEN_AGAIN_MS = 24 * 60 * 60 * 1000;

/**
 * The record with `hash`'s tools replaced (newest first), keeping the KNOWN_TOOLS_LIMITS.definitions entries seen
 * last; the same record (unchanged) when the tools are those already kept and were seen lately.
 */
export function withKnownTools(record: KnownToolsRecord, hash: string, tools: KnownTool[], now: number): KnownToolsRecord {
  const existing = record[hash];
  if (existing && now - existing.seenAt < SEEN_AGAIN_MS && JSON.stringify(existing.tools) === JSON.stringify(tools)) return record;
  const entries = Object.entries(record).filter(([key]) => key !== hash);
  entries.push([hash, { seenAt: now, tools }]);
  entries.sort((a, b) => b[1].seenAt - a[1].seenAt);
  return Object.fromEntries(entries.slice(0, KNOWN_TOOLS_LIMITS.definitions));
}

export class KnownTools {
  constructor(
    private readonly store: KnownToolsStore,
    private readonly now: () => number = Date.now,
  ) {}

  private record(): KnownToolsRecord {
    const value = this.store.get<unknown>(KNOWN_TOOLS_KEY, {});
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as KnownToolsRecord) : {};
  }

  /** The tools last seen for a definition hash (empty when never seen). */
  of(hash: string): readonly KnownTool[] {
    const tools = this.record()[hash]?.tools;
    return Array.isArray(tools) ? tools : [];
  }

  /** Remembers what a running server of this definition offers; writes only when that changed. */
  async remember(hash: string, tools: Parameters<typeof toKnownTools>[0]): Promise<void> {
    const record = this.record();
    const next = withKnownTools(record, hash, toKnownTools(tools), this.now());
    if (next !== record) await this.store.update(KNOWN_TOOLS_KEY, next);
  }
}
