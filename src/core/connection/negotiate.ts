// How a start reaches a working session: the era remembered (or probed), a browser sign-in the server asked for,
// an issuer check waived for a 2025-03-26 server, the legacy HTTP+SSE fallback, and a remembered era that went
// stale. The connection supplies the steps; what is learnt (the SSE fallback, the waiver) it keeps for later starts.
import { IssuerMismatchError, OAuthClientFlowError, OAuthError, type PriorDiscovery } from '@modelcontextprotocol/client';
import type { ResolvedServer, TransportKind } from '../config/types';
import { ServerStartError, shortErrorText } from '../errors';
import type { Logger } from '../log';
import { eraCacheKey, priorFrom, type EraCache, type EraCacheEntry } from './eraCache';

/** Browser sign-ins one start or one request may go through (a server that keeps refusing fresh tokens ends there). */
export const MAX_SIGN_INS = 2;

export interface NegotiationSteps {
  server: ResolvedServer;
  log: Logger;
  eraCache?: EraCache;
  /** Learnt by an earlier start: the URL speaks legacy SSE only. */
  fellBackToSse: boolean;
  /** The remembered era about to be tried (a modern one carries the server's discovery answer). */
  onPrior(prior: PriorDiscovery): void;
  /** One attempt: a new session over `kind`, connected with `prior` (or probing the era without). */
  connect(kind: TransportKind, prior: PriorDiscovery | undefined): Promise<void>;
  /** Lists the tools: a remembered modern era connects with no round trip, so this proves it. */
  listTools(): Promise<void>;
  /** Completes a sign-in the failure asked for (through the failed attempt's transport); true to try again. */
  completeSignIn(e: unknown): Promise<boolean>;
  /** After an issuer mismatch: true when the check may be waived (and is, from now on) for this server. */
  waiveIssuerCheck(e: unknown): Promise<boolean>;
  /** The attempt failed: its session no longer serves requests (it is ended by `abandon` once its transport did its part). */
  detach(): void;
  /** Ends the failed attempt's session (its transport stays readable: it knows how a stdio process ended). */
  abandon(): Promise<void>;
  /** What to remember of the era the session negotiated (a probe's verdict). */
  entryToRemember(): EraCacheEntry;
  /** The URL answered Streamable HTTP with a 4xx: later starts go straight to SSE. */
  fallBackToSse(): void;
}

/** Connects (through retries); then the era is remembered unless a remembered one was used. `toolsListed`: listTools ran. */
export async function negotiate(steps: NegotiationSteps): Promise<{ prior?: PriorDiscovery; toolsListed: boolean }> {
  const { server, log, eraCache: cache } = steps;
  const key = eraCacheKey(server);
  let prior = priorFrom(cache ? await cache.get(key) : undefined);
  if (prior) steps.onPrior(prior);
  let kind: TransportKind = server.transport === 'stdio' ? 'stdio' : server.transport === 'sse' || steps.fellBackToSse ? 'sse' : 'http';
  let signIns = 0;
  for (;;) {
    try {
      await steps.connect(kind, prior);
      // A remembered modern era connects with no round trip; a stale one fails at the first request.
      if (prior) await steps.listTools();
      break;
    } catch (e) {
      steps.detach();
      if (signIns < MAX_SIGN_INS && (await steps.completeSignIn(e))) {
        signIns++;
        await steps.abandon();
        continue;
      }
      if (IssuerMismatchError.isInstance(e) && e.kind === 'metadata' && (await steps.waiveIssuerCheck(e))) {
        await steps.abandon();
        continue;
      }
      await steps.abandon();
      const startError = startErrorIn(e);
      if (startError) throw startError;
      const status = httpStatusOf(e);
      if (kind === 'http' && status !== undefined && status >= 400 && status < 500 && status !== 401 && status !== 403 && !fromAuthorizationServer(e)) {
        log.info(`Streamable HTTP answered ${status}; trying the legacy HTTP+SSE transport`);
        kind = 'sse';
        steps.fallBackToSse();
        continue;
      }
      if (prior) {
        log.info(`connecting with the remembered protocol era failed (${shortErrorText(e)}); probing again`);
        await cache?.delete(key);
        prior = undefined;
        continue;
      }
      throw e;
    }
  }
  if (prior) return { prior, toolsListed: true };
  await cache?.set(key, steps.entryToRemember());
  return { toolsListed: false };
}

/** The ServerStartError somewhere in an error's cause chain (the SDK may wrap what the transport threw). */
function startErrorIn(e: unknown): ServerStartError | undefined {
  for (let cur = e, depth = 0; cur && depth < 5; cur = (cur as { cause?: unknown }).cause, depth++) {
    if (cur instanceof ServerStartError) return cur;
  }
  return undefined;
}

/** The HTTP status an error reports, wherever the SDK put it (a property, its data, or only its message). */
export function httpStatusOf(e: unknown): number | undefined {
  const err = e as { status?: unknown; code?: unknown; data?: { status?: unknown } } | undefined;
  for (const v of [err?.status, err?.data?.status, err?.code]) if (typeof v === 'number' && v >= 100 && v < 600) return v;
  const m = /\b(?:HTTP|status(?: code)?)\s*:?\s*(\d{3})\b/i.exec(shortErrorText(e));
  return m ? Number(m[1]) : undefined;
}

/**
 * Whether an error came from the sign-in flow (the authorization server's answer: a registration or token
 * refusal), not from the MCP server: its HTTP status says nothing of the MCP server's transport.
 */
function fromAuthorizationServer(e: unknown): boolean {
  for (let cur = e, depth = 0; cur && depth < 6; cur = (cur as { cause?: unknown }).cause, depth++) {
    if (cur instanceof OAuthClientFlowError || cur instanceof OAuthError) return true;
  }
  return false;
}
