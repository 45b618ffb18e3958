// One session with the server: one client over one transport, from connect to close, and everything that lives
// exactly as long (the HTTP requests made for it, the elicitations it may replay, the tools/call ids that offered
// tasks, the tasks the server sent it, each tool's inputFiles). It ends in one place: `dispose()` at once (a
// closed transport, a failed attempt), `stop()` after ending the HTTP session and closing the client. What a
// connection learns across sessions (fallbacks, sign-ins, the server's files capability) stays on the connection.
import type { Transport } from '@modelcontextprotocol/client';
import type { TransportKind } from '../config/types';
import { shortErrorText } from '../errors';
import { Disposable, toDisposable } from '../events';
import type { Logger } from '../log';
import { endHttpSession } from './httpSession';
import type { RefusedTool } from './nesting';
import { SecureSchemas } from '../secureParams';
import type { HostClient } from './sdkSeam';
import type { ElicitResultLoose } from './types';

/** Bound on the task-offering calls remembered (ids whose answer never came are forgotten oldest first). */
const MAX_TRACKED_TASK_CALLS = 1000;

export class ConnectionSession extends Disposable {
  readonly client: HostClient;
  readonly transport: Transport;
  /** Ends every HTTP request of this session's transport (none for stdio). */
  readonly httpRequests?: AbortController;
  /** Why the host closed the HTTP connection on its own (a message over the size limit). */
  httpCloseReason?: string;
  /** Answers by elicitationId, for a replay of the same request (never reused by a later session). */
  readonly elicitations = new Map<string, Promise<ElicitResultLoose>>();
  /** Each tool's top-level `inputFiles` as the server listed it (an older SEP-2356 draft's sidecar map). */
  readonly toolInputFiles = new Map<string, unknown>();
  /** Each tool's `secureInputSchema` (SEP-3221) as the server listed it (the SDK's Tool schema drops it). */
  readonly secureSchemas = new SecureSchemas();
  /** Tools refused (nested past the host's limit) in the tools/list answer being read. */
  refusingTools: RefusedTool[] = [];
  /** Ids of the tools/call requests in flight that offered the Tasks extension (a task answer is theirs only). */
  private readonly taskOfferingCalls = new Set<string | number>();
  private closing?: Promise<void>;

  /** `create` builds the client and its transport for this session (their handlers reach it through the argument). */
  constructor(
    readonly transportKind: TransportKind,
    create: (session: ConnectionSession) => { client: HostClient; transport: Transport },
  ) {
    super();
    if (transportKind !== 'stdio') this.httpRequests = new AbortController();
    const { client, transport } = create(this);
    this.client = client;
    this.transport = transport;
    // Disposed newest first: the work the session holds ends before its requests are cut.
    this.register(toDisposable(() => this.elicitations.clear()));
    this.register(toDisposable(() => this.httpRequests?.abort()));
    this.register(toDisposable(() => this.endWork()));
  }

  /** Runs `fn` when the session ends. */
  whenEnded(fn: () => void): void {
    this.register(toDisposable(fn));
  }

  get receivedTaskCount(): number {
    return this.client.receivedTasks?.size ?? 0;
  }
  get taskOfferingCallCount(): number {
    return this.taskOfferingCalls.size;
  }

  offeredTasks(id: string | number): void {
    this.taskOfferingCalls.add(id);
    if (this.taskOfferingCalls.size > MAX_TRACKED_TASK_CALLS) this.taskOfferingCalls.delete(this.taskOfferingCalls.values().next().value!);
  }

  /** Whether `id` was a tools/call that offered tasks; it is forgotten (its answer arrived). */
  answeredTaskOffer(id: string | number): boolean {
    return this.taskOfferingCalls.delete(id);
  }

  /** The server's tasks and the task offers end: a request it sent as a task is stopped like one sent plainly. */
  private endWork(): void {
    this.client.receivedTasks?.dispose();
    this.taskOfferingCalls.clear();
  }

  /**
   * Closes the client (once) and keeps the rest: a sign-in the failed connect asked for is still completed through
   * this transport's HTTP requests.
   */
  closeClient(log?: Logger): Promise<void> {
    this.closing ??= this.client.close().catch((e: unknown) => log?.debug(`close: ${shortErrorText(e)}`));
    return this.closing;
  }

  /** Closes the client (once), then ends the session. */
  async close(log?: Logger): Promise<void> {
    await this.closeClient(log);
    this.dispose();
  }

  /** A stop the host chose: the work ends first, then the HTTP session (DELETE) and the client. */
  async stop(log: Logger): Promise<void> {
    this.endWork();
    await endHttpSession(this.transport, log);
    await this.close(log);
  }
}
