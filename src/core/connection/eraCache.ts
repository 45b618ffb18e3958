import { createHash } from 'node:crypto';
import type { PriorDiscovery } from '@modelcontextprotocol/client';
import type { ResolvedServer } from '../config/types';

/** A remembered era: the SDK's PriorDiscovery, plus when a legacy verdict was reached (ms since the epoch). */
export type EraCacheEntry = PriorDiscovery & { at?: number };

/**
 * Remembers each server's negotiated protocol era so the next connect skips the `server/discover` probe.
 * The extension backs it with its own storage (the entries are plain JSON); `priorFrom` decides what is
 * still worth supplying.
 */
export interface EraCache {
  get(key: string): EraCacheEntry | undefined | Promise<EraCacheEntry | undefined>;
  set(key: string, entry: EraCacheEntry): void | Promise<void>;
  delete(key: string): void | Promise<void>;
}

export class InMemoryEraCache implements EraCache {
  private readonly entries = new Map<string, EraCacheEntry>();
  get(key: string): EraCacheEntry | undefined {
    return this.entries.get(key);
  }
  set(key: string, entry: EraCacheEntry): void {
    this.entries.set(key, entry);
  }
  delete(key: string): void {
    this.entries.delete(key);
  }
}

/** A legacy verdict older than this is not supplied: the server may have been upgraded, so it is probed again. */
export const LEGACY_ERA_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * The prior to hand to `connect`, or undefined to probe: a modern entry always (a stale one fails at
 * connect and is dropped), a legacy one only while younger than LEGACY_ERA_MAX_AGE_MS (undated = stale).
 */
export function priorFrom(entry: EraCacheEntry | undefined, now = Date.now()): PriorDiscovery | undefined {
  if (entry?.kind === 'modern') return { kind: 'modern', discover: entry.discover };
  if (entry?.kind === 'legacy' && entry.at !== undefined && now - entry.at >= 0 && now - entry.at < LEGACY_ERA_MAX_AGE_MS) {
    return { kind: 'legacy' };
  }
  return undefined;
}

/**
 * A server's identity for the era cache: how it is reached (for HTTP including the headers, since a prior
 * may only be reused within one authorization context), hashed so no resolved secret is stored.
 */
export function eraCacheKey(server: ResolvedServer): string {
  const identity =
    server.transport === 'stdio'
      ? ['stdio', server.command, server.args, server.cwd ?? '']
      : [
          server.transport,
          server.url,
          Object.entries(server.headers)
            .map(([k, v]) => [k.toLowerCase(), v])
            .sort(),
        ];
  return createHash('sha256').update(JSON.stringify(identity)).digest('hex');
}
