// Every use of a private member of the MCP SDK (@modelcontextprotocol/client), in one place. Each one says
// which public behaviour it stands in for and why; test/unit/sdk-seam.test.ts has a test per member that
// fails if the SDK stops calling or keeping it, and checkSdkSeam() refuses to start a server on an SDK
// that lacks one, naming the version this build was checked against, rather than behaving wrongly in silence.

import { Client, LOG_LEVEL_META_KEY, type ClientContext, type JSONRPCRequest, type Result } from '@modelcontextprotocol/client';
import type { McpLogLevel } from './serverLog';
import { TASK_REQUEST_METHODS, type ReceivedTasks } from '../tasks/received';

/** The SDK version these members were checked against; package.json pins exactly this one. */
export const PINNED_SDK_VERSION = '2.4.0';

/** A request timer as Protocol keeps it in `_timeoutInfo`. */
interface RequestTimer {
  timeoutId: ReturnType<typeof setTimeout>;
  onTimeout?: () => void;
}

/** The Protocol members used here, as they are in the pinned SDK. */
interface ProtocolPrivates {
  /** Protocol's timers of the requests in flight, by message id. */
  _timeoutInfo?: unknown;
  /** Re-arms one request's timer in full (throws past its maxTotalTimeout). */
  _resetTimeout?: (messageId: number) => boolean;
}

/** The SDK client with the host's departures from it. */
export class HostClient extends Client {
  /** Route SEP-1306 `mode: "binary"` elicitations around the SDK's checks (only when the host declared them). */
  routeBinaryElicitation = false;
  /** 2026-07-28: the least severe server log level wanted, sent in every request's `_meta` (there is no logging/setLevel). */
  logLevel?: McpLogLevel;
  private pausedTimeouts = 0;

  /**
   * Private member: Protocol's `_outboundMetaEnvelope` hook (the `_meta` keys stamped on every outbound message of
   * a modern-era connection). Replaces: a per-request `_meta` on every call the host and the SDK make (list
   * refreshes included), which no public option sets; the log level must ride on all of them.
   */
  protected override _outboundMetaEnvelope() {
    const envelope = super._outboundMetaEnvelope();
    return envelope && this.logLevel ? { ...envelope, [LOG_LEVEL_META_KEY]: this.logLevel } : envelope;
  }

  /**
   * Private member: Protocol's `_wrapHandler` hook (protected, documented for subclasses, no public equivalent).
   * Replaces: the Client's own wrapping of `elicitation/create`, which checks the mode and the result against the
   * spec's form/url modes and would refuse a SEP-1306 `binary` elicitation and its upload answer. Only binary
   * requests skip it; every other request keeps the SDK's checks.
   */
  protected override _wrapHandler(method: string, handler: (request: JSONRPCRequest, ctx: ClientContext) => Promise<Result>) {
    const wrapped = super._wrapHandler(method, handler);
    const routed =
      method !== 'elicitation/create'
        ? wrapped
        : (request: JSONRPCRequest, ctx: ClientContext) =>
            this.routeBinaryElicitation && (request.params as { mode?: unknown } | undefined)?.mode === 'binary'
              ? handler(request, ctx)
              : wrapped(request, ctx);
    const checked = (request: JSONRPCRequest, ctx: ClientContext) => {
      this.checkRequest?.(method, request.params);
      return routed(request, ctx);
    };
    return TASK_REQUEST_METHODS.includes(method) ? this.asTask(method, checked) : checked;
  }

  /**
   * Runs before the SDK's own checks of a server's request (same hook): the host's limits answer with their
   * own short reason (a 10 MB request, an unknown content type) rather than the SDK's schema dump. Throws to refuse.
   */
  checkRequest?: (method: string, params: unknown) => void;

  /** The tasks the host runs for the server (2025-11-25 task-augmented sampling and elicitation), when declared. */
  receivedTasks?: ReceivedTasks;

  /**
   * Same hook (`_wrapHandler`). Replaces: the Client checks a sampling or elicitation handler's result against
   * the request's own result schema, so a task (CreateTaskResult) could never be answered. A request sent with
   * `params.task` is answered with a task at once and runs, through the same checks and handler, in the background.
   */
  private asTask(method: string, handler: (request: JSONRPCRequest, ctx: ClientContext) => Promise<Result>) {
    return async (request: JSONRPCRequest, ctx: ClientContext): Promise<Result> => {
      const { task, ...params } = (request.params ?? {}) as { task?: { ttl?: unknown } };
      if (!this.receivedTasks || typeof task !== 'object' || task === null) return handler(request, ctx);
      const started = this.receivedTasks.start(method, task.ttl, (signal) => handler({ ...request, params }, { ...ctx, mcpReq: { ...ctx.mcpReq, signal } }));
      return { task: started };
    };
  }

  /**
   * Private member: Protocol's `_onresponse` hook (protected, documented for subclasses: overrides delegate to
   * it). Replaces: nothing public orders a response after the notifications read before it. The SDK runs a
   * notification's handler a microtask later but settles a response at once, so progress that came in the same
   * read as its result found the request gone and was dropped ("unknown token"). A response now waits one
   * microtask, behind the notifications queued before it (a promise reaction: Node's queueMicrotask makes an
   * AsyncResource for each one, which cost more than the rest of the host's own work on a response).
   */
  protected override _onresponse(response: Parameters<Client['_onresponse']>[0]): void {
    void Promise.resolve().then(() => super._onresponse(response));
  }

  /**
   * Private members: Protocol's `_timeoutInfo` (the request timers) and `_resetTimeout` (re-arm one in full).
   * Replaces: nothing public can pause a request's timeout. While a person answers an elicitation the timers of
   * the requests in flight are stopped (SEP-2260: tolerate unbounded human delay) and restarted in full
   * afterwards, so the call timeout measures the server, not the person.
   */
  pauseRequestTimeouts(): void {
    const timers = this.requestTimers();
    if (!timers) return;
    this.pausedTimeouts++;
    for (const t of timers.values()) clearTimeout(t.timeoutId);
  }

  resumeRequestTimeouts(): void {
    const timers = this.requestTimers();
    if (!timers || this.pausedTimeouts === 0 || --this.pausedTimeouts > 0) return;
    const reset = (this as unknown as ProtocolPrivates)._resetTimeout;
    for (const [id, timer] of [...timers]) {
      try {
        reset?.call(this, id);
      } catch {
        timer.onTimeout?.(); /* past its maxTotalTimeout: it times out now */
      }
    }
  }

  private requestTimers(): Map<number, RequestTimer> | undefined {
    const timers = (this as unknown as ProtocolPrivates)._timeoutInfo;
    return timers instanceof Map ? (timers as Map<number, RequestTimer>) : undefined;
  }
}

let checked: string | undefined | null = null;

/**
 * Whether the SDK in use still has every private member above; the reason when not (checked once per process).
 * Returns undefined when all is well.
 */
export function sdkSeamProblem(): string | undefined {
  if (checked !== null) return checked;
  const proto = Client.prototype as unknown as Record<string, unknown>;
  const missing: string[] = [];
  if (typeof proto._wrapHandler !== 'function') missing.push('Protocol._wrapHandler');
  if (typeof proto._onresponse !== 'function') missing.push('Protocol._onresponse');
  if (typeof proto._outboundMetaEnvelope !== 'function') missing.push('Protocol._outboundMetaEnvelope');
  if (typeof proto._resetTimeout !== 'function') missing.push('Protocol._resetTimeout');
  const probe = new Client({ name: 'mcp-host-sdk-check', version: '0' }) as unknown as ProtocolPrivates;
  if (!(probe._timeoutInfo instanceof Map)) missing.push('Protocol._timeoutInfo');
  checked =
    missing.length === 0
      ? undefined
      : `this build of MCP Host was made for @modelcontextprotocol/client ${PINNED_SDK_VERSION}, but the SDK in use lacks ${missing.join(', ')}`;
  return checked;
}
