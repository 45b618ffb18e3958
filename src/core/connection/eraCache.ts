import type { PriorDiscovery } from '@modelcontextprotocol/client';
import type { ResolvedServer } from '../config/types';

/**
 * Remembers each server's negotiated protocol era so the next connect skips the `server/discover` probe.
 * The extension backs it with its own storage; freshness (e.g. forgetting old legacy verdicts) is the
 * store's business.
 */
export interface EraCache {
  get(key: string): PriorDiscovery | undefined | Promise<PriorDiscovery | undefined>;
  set(key: string, prior: PriorDiscovery): void | Promise<void>;
  delete(key: string): void | Promise<void>;
}

export class InMemoryEraCache implements EraCache {
  private readonly entries = new Map<string, PriorDiscovery>();
  get(key: string): PriorDiscovery | undefined { return this.entries.get(key); }
  set(key: string, prior: PriorDiscovery): void { this.entries.set(key, prior); }
  delete(key: string): void { this.entries.delete(key); }
}

/** A server's identity for the era cache: how it is reached, not what it is called. */
export function eraCacheKey(server: ResolvedServer): string {
  return server.transport === 'stdio'
    ? JSON.stringify(['stdio', server.command, server.args, server.cwd ?? ''])
    : JSON.stringify([server.transport, server.url]);
}
