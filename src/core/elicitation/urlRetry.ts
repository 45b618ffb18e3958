// 2025-11-25 `-32042` (URLElicitationRequiredError): the call needs the user to visit a URL first.
// Offer the URL, wait for `notifications/elicitation/complete` (or the user's manual retry), retry.

import type { CallOptions } from '../connection/types';
import type { IDisposable } from '../events';
import { CallCancelledError, CallTimeoutError, UrlElicitationIncompleteError } from '../errors';
import type { Logger } from '../log';
import { describeUrl } from './handler';
import type { ElicitationUi, UrlElicitationRequest } from './types';

export { UrlElicitationIncompleteError };

/** A ServerConnection, or anything that calls tools the same way. `O`: its call options (CallOptions and more). */
export interface UrlRetryConnection<R = unknown, O extends CallOptions = CallOptions> {
  readonly name: string;
  callTool(name: string, args: Record<string, unknown>, opts?: O): Promise<R>;
  onDidCompleteElicitation?(listener: (elicitationId: string) => void): IDisposable;
}

export interface UrlRetryOptions<O extends CallOptions = CallOptions> {
  log: Logger;
  /** Passed to every callTool, e.g. `{ signal, onProgress, timeoutMs, validateOutput: false }`. */
  call?: O;
  /** The user's "retry now" control (the site says done but no notification came); 'cancel' stops. */
  waitForRetry?: (request: UrlElicitationRequest, signal: AbortSignal) => Promise<'retry' | 'cancel'>;
  /** How long to wait for completion before giving up (default URL_COMPLETION_TIMEOUT_MS). */
  completionTimeoutMs?: number;
  /** How many -32042 answers one call may get (default 3). */
  maxRounds?: number;
  /** A bound on the whole call, every URL and retry included (the CLI's --timeout); none by default. */
  totalTimeoutMs?: number;
}

/** How long a required URL may take to be reported done before the call gives up: 10 minutes. */
export const URL_COMPLETION_TIMEOUT_MS = 600_000;

interface UrlElicitation {
  url: string;
  message: string;
  elicitationId?: string;
}

/** The URL elicitations carried by a -32042 error, or undefined for any other error. */
export function urlElicitationsOf(error: unknown): UrlElicitation[] | undefined {
  const e = error as { code?: unknown; data?: { elicitations?: unknown }; elicitations?: unknown } | null;
  if (!e || e.code !== -32042) return undefined;
  const list = Array.isArray(e.data?.elicitations) ? e.data.elicitations : Array.isArray(e.elicitations) ? e.elicitations : [];
  const out = list.flatMap((x: unknown) => {
    const el = x as Record<string, unknown>;
    if (!el || typeof el.url !== 'string') return [];
    const item: UrlElicitation = { url: el.url, message: typeof el.message === 'string' ? el.message : '' };
    if (typeof el.elicitationId === 'string') item.elicitationId = el.elicitationId;
    return [item];
  });
  return out.length ? out : undefined;
}

/** Calls a tool; on -32042 offers each URL, waits for completion (or manual retry), then retries. */
export async function callToolWithUrlElicitation<R, O extends CallOptions = CallOptions>(
  conn: UrlRetryConnection<R, O>,
  name: string,
  args: Record<string, unknown>,
  ui: ElicitationUi,
  opts: UrlRetryOptions<O>,
): Promise<R> {
  const maxRounds = opts.maxRounds ?? 3;
  const total = opts.totalTimeoutMs;
  const deadline = total !== undefined ? AbortSignal.timeout(total) : undefined;
  const callerSignal = opts.call?.signal;
  const signals = [callerSignal, deadline].filter((x): x is AbortSignal => !!x);
  const signal = signals.length ? AbortSignal.any(signals) : new AbortController().signal;
  const started = Date.now();
  const cancelled = () => new CallCancelledError(`tool "${name}" was cancelled while ${conn.name} required a URL to be visited`);
  const outOfTime = () => new CallTimeoutError(`tool "${name}" did not finish within ${total} ms (the server required URLs to be visited)`, total!);
  for (let round = 0; ; round++) {
    if (deadline?.aborted && !callerSignal?.aborted) throw outOfTime();
    // Each call gets what is left of the whole bound, at most its own timeout; the first gets all of it (a clock tick
    // since `started` would otherwise take a millisecond off the bound it names when it times out).
    const left = total === undefined ? undefined : round === 0 ? total : Math.max(1, total - (Date.now() - started));
    const call = (left !== undefined ? { ...opts.call, timeoutMs: Math.min(opts.call?.timeoutMs ?? left, left) } : opts.call) as O | undefined;
    const completed = new Set<string>();
    let onComplete: (() => void) | undefined;
    const sub = conn.onDidCompleteElicitation?.((id) => {
      completed.add(id);
      onComplete?.();
    });
    try {
      try {
        return await conn.callTool(name, args, call);
      } catch (e) {
        const needed = urlElicitationsOf(e);
        if (!needed) throw e;
        if (round >= maxRounds) throw new UrlElicitationIncompleteError(`${conn.name} kept asking for a URL to be visited (${maxRounds} times); stopped.`);
        for (const el of needed) {
          const described = describeUrl(el.url);
          if (typeof described === 'string') throw new UrlElicitationIncompleteError(`${conn.name} needs a URL to be visited, but ${described}.`);
          const request: UrlElicitationRequest = {
            server: conn.name,
            message: el.message,
            url: el.url,
            domain: described.domain,
            warnings: described.warnings,
            ...(described.domainUnicode ? { domainUnicode: described.domainUnicode } : {}),
            ...(el.elicitationId ? { elicitationId: el.elicitationId } : {}),
          };
          const answer = await ui.url(request, signal);
          if (callerSignal?.aborted) throw cancelled();
          if (deadline?.aborted) throw outOfTime();
          if (answer !== 'accept') {
            throw new UrlElicitationIncompleteError(
              `${conn.name} needs you to open ${el.url} before "${name}" can run; you ${answer === 'decline' ? 'declined' : 'cancelled'}.`,
            );
          }
          opts.log.info(`Waiting for ${conn.name} to report that ${described.domain} is done${el.elicitationId ? ` (${el.elicitationId})` : ''}.`);
          const outcome = await waitForCompletion(
            el,
            request,
            completed,
            (f) => {
              onComplete = f;
            },
            signal,
            opts,
          );
          if (outcome === 'cancel' && callerSignal?.aborted) throw cancelled();
          if (outcome === 'cancel' && deadline?.aborted) throw outOfTime();
          if (outcome !== 'done') {
            throw new UrlElicitationIncompleteError(
              outcome === 'timeout'
                ? `${conn.name} did not report ${described.domain} as done within ${Math.round((opts.completionTimeoutMs ?? URL_COMPLETION_TIMEOUT_MS) / 1000)} s.`
                : `Waiting for ${described.domain} was cancelled.`,
            );
          }
        }
        opts.log.info(`Retrying "${name}" on ${conn.name}.`);
      }
    } finally {
      sub?.dispose();
    }
  }
}

function waitForCompletion(
  el: UrlElicitation,
  request: UrlElicitationRequest,
  completed: Set<string>,
  setWaker: (f: () => void) => void,
  signal: AbortSignal,
  opts: UrlRetryOptions<CallOptions>,
): Promise<'done' | 'timeout' | 'cancel'> {
  return new Promise((resolve) => {
    const stop = new AbortController();
    const finish = (r: 'done' | 'timeout' | 'cancel') => {
      clearTimeout(timer);
      stop.abort();
      signal.removeEventListener('abort', onAbort);
      resolve(r);
    };
    const check = () => {
      if (el.elicitationId && completed.has(el.elicitationId)) finish('done');
    };
    const onAbort = () => finish('cancel');
    const timer = setTimeout(() => finish('timeout'), opts.completionTimeoutMs ?? URL_COMPLETION_TIMEOUT_MS);
    signal.addEventListener('abort', onAbort, { once: true });
    setWaker(check);
    check();
    opts.waitForRetry?.(request, stop.signal).then(
      (r) => finish(r === 'retry' ? 'done' : 'cancel'),
      () => undefined,
    );
  });
}
