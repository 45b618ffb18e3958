import {
  CLIENT_CAPABILITIES_META_KEY,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type CallToolResult,
  type ClientCapabilities,
  type PriorDiscovery,
  type Prompt,
  type ReadResourceResult,
  type StandardSchemaV1,
  type Resource,
  type ResourceTemplateType as ResourceTemplate,
  type Tool,
  type Transport,
} from '@modelcontextprotocol/client';
import { z } from 'zod';
import { FileTransfers } from '../files/transfer/client';
import { filesCapabilityOf, restoreDraftShapes, shieldDraftShapes, withFilesCapability } from '../files/transfer/protocol';
import { restorePromptFileArguments, shieldPromptFileArguments } from '../files/promptFiles';
import { isObject } from '../../shared/json';
import { boundCompletion, type Completion, type CompletionRequest } from '../../shared/completion';
import { offersTasksExtension, shieldCreatedTask, TASKS_EXTENSION_ID } from '../tasks/extension';
import { refuseSecureTools, secureArgumentsRefusal } from '../secureParams';
import { secureCall } from '../secureParams/headers';
import type { ResolvedServer, TransportKind } from '../config/types';
import type { Logger } from '../log';
import {
  CallCancelledError,
  CallTimeoutError,
  NotRunningError,
  ServerCrashedError,
  ServerRequestError,
  ServerStartError,
  ServerStoppedError,
  shortErrorText,
} from '../errors';
import { Emitter, linkAbort, type IDisposable } from '../events';
import { answerInTask, declaredCapabilities, installFeatures, type FeatureHost } from './features';
import { HostClient, sdkSeamProblem } from './sdkSeam';
import { HostSchemaValidator } from './sdkShims';
import { tapTransport } from './transportTap';
import { boundNesting, type RefusedTool } from './nesting';
import { structuredOutputProblem } from '../results/view';
import { formatServerLog, hostLevelOf, isMcpLogLevel, type McpLogLevel } from './serverLog';
import { signInFailure, signInKind } from './signInErrors';
import { SHUTDOWN_GRACE_MS, StdioProcessTransport } from './stdioTransport';
import type { SandboxRefusal } from '../sandbox/refusals';
import { emptyLists, LIST_KINDS, LISTS, type Listed } from './lists';
import { httpStatusOf, MAX_SIGN_INS, negotiate } from './negotiate';
import { ConnectionSession } from './session';
import { answerOrErrorData } from './invalidAnswers';
import { boundedFetch } from '../io/boundedFetch';
import { byteLimit, DEFAULT_MAX_MESSAGE_BYTES, DEFAULT_REQUEST_TIMEOUT_MS } from '../io/limits';
import { HOST_VERSION } from '../../shared/version';
import { ConnectionState, type CallOptions, type ConnectionOptions, type ServerList } from './types';

const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
/** The time limit of a completion/complete (suggestions are wanted while the user types). */
const COMPLETION_TIMEOUT_MS = 10_000;

/**
 * How many pages one list (tools, prompts, resources, templates) may take: every `nextCursor` is followed to
 * the end, and a server whose cursor never ends is stopped here with an error naming the list.
 */
export const LIST_MAX_PAGES = 256;
/** 403 insufficient_scope re-authorizations per request (the transport's step-up), before it fails. */
const MAX_STEP_UPS = 2;
/** The SDK's JSON Schema validator: the host's own (sdkShims.ts), for every client. */
const schemaValidator = new HostSchemaValidator();

const LooseCompleteResult = z.looseObject({ completion: z.unknown() });

/** Options of `callTool`. */
export interface ToolCallOptions extends CallOptions {
  /** false: return a result whose structuredContent breaks (or lacks) the outputSchema instead of throwing. */
  validateOutput?: boolean;
  /** SEP-3221: the host's secure values; those the tool declares go in `params.secureArguments` (core/secureParams). */
  secureArguments?: Record<string, unknown>;
}

/** The reason sent to the server when a request is cancelled (not the runtime's "AbortError: This operation was aborted"). */
export const CANCELLED_BY_USER = 'Cancelled by the user';

/** The reason a request is cancelled with: the caller's, when in words. */
const cancelReason = (signal: AbortSignal): unknown => (typeof signal.reason === 'string' ? signal.reason : CANCELLED_BY_USER);

/** Each tool's top-level `inputFiles` (an older SEP-2356 draft's sidecar map) as the server listed it. */
function keepInputFiles(tools: unknown[], kept: Map<string, unknown>): void {
  for (const tool of tools as Array<{ name?: unknown; inputFiles?: unknown } | null>) {
    if (typeof tool?.name !== 'string') continue;
    if (tool.inputFiles === undefined) kept.delete(tool.name);
    else kept.set(tool.name, tool.inputFiles);
  }
}

const definitionsForSdk = new WeakMap<Tool, Tool>();

/**
 * A listed tool as the SDK is given it on each call: without its outputSchema, which the SDK would compile with
 * backtracking patterns (the host validates the result itself, results/view). Made once per listed tool.
 */
function definitionForSdk(tool: Tool): Tool {
  let definition = definitionsForSdk.get(tool);
  if (!definition) definitionsForSdk.set(tool, (definition = { ...tool, outputSchema: undefined }));
  return definition;
}

/** How one request is sent (`send`). */
interface SendOptions {
  /** Completes a sign-in the request needed, then sends it again. */
  signIn?: boolean;
  /** The time limit when the caller gave none (else the connection's request timeout). */
  timeoutMs?: number;
}
const WITH_SIGN_IN: SendOptions = { signIn: true };

/**
 * One connection to one MCP server: transport, era negotiation, lifecycle state, capabilities, lists,
 * calls. Start/stop/restart are serialised.
 */
export class ServerConnection {
  readonly name: string;
  readonly log: Logger;

  private _state: ConnectionState = { kind: 'stopped' };
  private readonly stateEmitter = new Emitter<ConnectionState>();
  private readonly listsEmitter = new Emitter<ServerList>();
  private readonly elicitationCompleteEmitter = new Emitter<string>();
  readonly onDidChangeState = this.stateEmitter.event;
  readonly onDidChangeLists = this.listsEmitter.event;
  /** `notifications/elicitation/complete` arrived (2025-11-25 URL mode); the argument is the elicitationId. */
  readonly onDidCompleteElicitation = this.elicitationCompleteEmitter.event;
  private readonly serverLogEmitter = new Emitter<ServerLogMessage>();
  /** `notifications/message`: the server's own log line (also written to `log` at the matching level). */
  readonly onDidLog = this.serverLogEmitter.event;
  private serverLogLevel?: McpLogLevel;
  private readonly resourceUpdatedEmitter = new Emitter<string>();
  /** `notifications/resources/updated` for a subscribed resource; the argument is its URI. */
  readonly onDidUpdateResource = this.resourceUpdatedEmitter.event;
  private readonly sandboxRefusalEmitter = new Emitter<SandboxRefusal>();
  /** A sandboxed server was refused a path or a host (each once per run of the server). */
  readonly onSandboxRefusal = this.sandboxRefusalEmitter.event;
  private readonly taskStatusEmitter = new Emitter<Record<string, unknown>>();
  /** `notifications/tasks/status` (2025-11-25 tasks) or `notifications/tasks` (2026-07-28 extension): the task now. */
  readonly onDidUpdateTask = this.taskStatusEmitter.event;

  private listed: Listed = emptyLists();
  /** Tools the last listing held that the host refused (nested past its limit). */
  private _refusedTools: RefusedTool[] = [];
  /** The session that serves requests (connected, or connecting during a start). */
  private session?: ConnectionSession;
  /**
   * The session of the latest start attempt, until it is stopped or has closed: a failed attempt's transport
   * tells how a stdio process ended, and completes the sign-in it asked for.
   */
  private attempt?: ConnectionSession;
  /** Every session not ended yet (what `openWork` counts). */
  private readonly sessions = new Set<ConnectionSession>();
  /** The server's sampling and elicitation requests whose answer is under way. */
  private answeringRequests = 0;
  /**
   * The host's requests to the server in flight (`send`), each by what fails it at once; `dispose` calls them all.
   * No AbortSignal stands in for this: one the SDK listens to costs an EventTarget listener added and removed on
   * every request, more than the rest of the host's own work on a call.
   */
  private readonly openRequests = new Set<(reason: Error) => void>();
  private transportKind?: TransportKind;
  /** Per list: the newest refresh (a later one wins), and the one in flight (tools calls wait for it). */
  private readonly refreshes: Partial<Record<ServerList, { generation: number; running?: Promise<void> }>> = {};
  private lifecycle: Promise<unknown> = Promise.resolve();
  private stopping = false;
  /** Why the host stopped the server, when it said (a dev-mode restart): requests in flight end with it. */
  private stopReason?: string;
  /** `shutdown` or `dispose` was called: nothing starts any more. */
  private shutDown = false;
  private disposed = false;
  /** The URL answered Streamable HTTP with a 4xx and spoke legacy SSE; later starts go straight to SSE. */
  private fellBackToSse = false;
  /** A 2025-03-26-era server (no resource metadata) whose authorization server's metadata names another issuer. */
  private issuerCheckWaived = false;
  /** The browser sign-in being completed, shared by every request that needed one meanwhile. */
  private signingIn?: Promise<boolean>;
  private signInsCompleted = 0;

  constructor(
    readonly server: ResolvedServer,
    private readonly options: ConnectionOptions,
  ) {
    this.name = server.name;
    this.log = options.log;
    this.log.maskSecrets(server.secrets ?? []);
    this.serverLogLevel = options.serverLogLevel;
  }

  get state(): ConnectionState {
    return this._state;
  }
  get tools(): Tool[] {
    return this.listed.tools;
  }
  /** Tools the server listed that the host does not offer, and why. */
  get refusedTools(): readonly RefusedTool[] {
    return this._refusedTools;
  }
  get prompts(): Prompt[] {
    return this.listed.prompts;
  }
  get resources(): Resource[] {
    return this.listed.resources;
  }
  get resourceTemplates(): ResourceTemplate[] {
    return this.listed.resourceTemplates;
  }
  /** The transport in use once running: `http` may have fallen back to `sse`. */
  get transportInUse(): TransportKind | undefined {
    return this.transportKind;
  }
  /** The server's self-description (name, version), once running. */
  get serverInfo() {
    return this.session?.client.getServerVersion();
  }
  get instructions(): string | undefined {
    return this.session?.client.getInstructions();
  }

  private setState(state: ConnectionState): void {
    this._state = state;
    this.stateEmitter.fire(state);
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.lifecycle.then(work, work);
    this.lifecycle = next.catch(() => undefined);
    return next;
  }

  start(): Promise<void> {
    return this.serial(async () => {
      if (!ConnectionState.canBeStarted(this._state)) return;
      await this.doStart();
    });
  }

  stop(reason?: string): Promise<void> {
    return this.serial(() => {
      if (reason !== undefined) this.stopReason = reason;
      return this.doStop();
    });
  }

  /**
   * Stops the server for a host that is going away, in about 3 × `graceMs`: not queued behind a start or stop
   * under way (either is cut short), stdin ended, SIGTERM to its process group after `graceMs`, SIGKILL after
   * another; an HTTP session is closed (DELETE) meanwhile. No start is made after it.
   */
  async shutdown(graceMs = SHUTDOWN_GRACE_MS): Promise<void> {
    this.shutDown = true;
    const transport = this.attempt?.transport;
    if (transport instanceof StdioProcessTransport) transport.hurry(graceMs);
    await Promise.all([
      this.doStop(),
      // A stop already under way has let go of its client: wait for its process here.
      transport instanceof StdioProcessTransport ? transport.close() : undefined,
    ]);
  }

  restart(): Promise<void> {
    return this.serial(async () => {
      await this.doStop();
      await this.doStart();
    });
  }

  /** Tell the server the roots (workspace folders) changed. */
  async notifyRootsChanged(): Promise<void> {
    if (this._state.kind !== 'running' || !this.options.roots) return;
    await this.session?.client.sendRootsListChanged().catch((e) => this.log.warn(`roots/list_changed: ${shortErrorText(e)}`));
  }

  private capabilities(): ClientCapabilities {
    return declaredCapabilities(this.options);
  }

  /** What the client features (./features) reach of this connection. */
  private get featureHost(): FeatureHost {
    return (this._featureHost ??= {
      name: this.name,
      server: this.server,
      log: this.log,
      options: this.options,
      uploader: () => (this.transfers.enabled ? this.transfers : undefined),
      answering: (work) => this.answering(work),
      serverLogged: (params) => this.onServerLog(params),
      resourceUpdated: (uri) => this.resourceUpdatedEmitter.fire(uri),
      taskStatusChanged: (params) => this.taskStatusEmitter.fire(params),
      elicitationCompleted: (id) => this.elicitationCompleteEmitter.fire(id),
    });
  }
  private _featureHost?: FeatureHost;

  private createClient(session: ConnectionSession): HostClient {
    const client = new HostClient(this.options.clientInfo ?? { name: 'mcp-host', version: HOST_VERSION }, {
      capabilities: this.capabilities(),
      versionNegotiation: { mode: 'auto' },
      jsonSchemaValidator: schemaValidator,
      inputRequired: { maxRounds: this.options.inputRequired?.maxRounds ?? 10 },
      listMaxPages: LIST_MAX_PAGES,
      listChanged: {
        tools: { autoRefresh: false, debounceMs: 0, onChanged: () => this.onListChanged('tools') },
        prompts: { autoRefresh: false, debounceMs: 0, onChanged: () => this.onListChanged('prompts') },
        resources: {
          autoRefresh: false,
          debounceMs: 0,
          onChanged: () => {
            this.onListChanged('resources');
            this.onListChanged('resourceTemplates');
          },
        },
      },
    });
    client.logLevel = this.serverLogLevel;
    installFeatures(client, this.featureHost, session);
    client.onerror = (e) => this.log.debug(`protocol: ${shortErrorText(e)}`);
    return client;
  }

  private onListChanged(kind: ServerList): void {
    this.log.debug(`${kind} list changed; listing again`);
    this.refreshList(kind).catch((e) => this.log.warn(`re-listing ${kind} failed: ${shortErrorText(e)}`));
  }

  /**
   * Lists one of the server's lists again (all pages; LISTS), completing a sign-in it needs; none when the server
   * does not offer it. A newer refresh of the same list wins; tools calls wait for a tools refresh in flight, so
   * output validators are current.
   */
  private refreshList(kind: ServerList): Promise<void> {
    const session = this.session;
    if (!session) return Promise.resolve();
    const refresh = (this.refreshes[kind] ??= { generation: 0 });
    const generation = ++refresh.generation;
    const run = (async () => {
      if (!session.client.getServerCapabilities()?.[LISTS[kind].capability]) {
        this.listed[kind] = [];
        if (kind === 'tools') this._refusedTools = [];
        return;
      }
      if (kind === 'tools') session.refusingTools = [];
      const fetch: (client: HostClient) => Promise<unknown[]> = LISTS[kind].fetch;
      const items = await this.withSignIn(() => fetch(session.client));
      if (this.session !== session) return;
      // A newer refresh (a later list_changed) is in flight: its answer wins, and this one waits for it.
      if (generation !== refresh.generation) {
        await refresh.running;
        return;
      }
      if (kind === 'tools') {
        const inputFiles = session.toolInputFiles;
        this.listed.tools = (items as Tool[]).map((t) =>
          session.secureSchemas.attach(inputFiles.has(t.name) ? { ...t, inputFiles: inputFiles.get(t.name) } : t),
        );
        this._refusedTools = session.refusingTools;
        session.refusingTools = [];
      } else if (kind === 'prompts') {
        this.listed.prompts = (items as Prompt[]).map(restorePromptFileArguments);
      } else {
        (this.listed as Record<ServerList, unknown[]>)[kind] = items;
      }
      this.listsEmitter.fire(kind);
    })();
    const tracked = run.finally(() => {
      if (refresh.running === tracked) refresh.running = undefined;
    });
    tracked.catch(() => undefined); // the failure reaches whoever awaits `run`; this copy is only waited on
    refresh.running = tracked;
    return run;
  }

  /** Lists tools again (all pages); calls wait for a refresh in flight so output validators are current. */
  refreshTools(): Promise<void> {
    return this.refreshList('tools');
  }
  refreshPrompts(): Promise<void> {
    return this.refreshList('prompts');
  }
  refreshResources(): Promise<void> {
    return this.refreshList('resources');
  }
  refreshResourceTemplates(): Promise<void> {
    return this.refreshList('resourceTemplates');
  }

  private onServerLog(params: { level: string; logger?: string; data?: unknown }): void {
    const level = isMcpLogLevel(params.level) ? params.level : 'info';
    const text = formatServerLog({ level, logger: params.logger, data: params.data });
    this.log[hostLevelOf(level)](text);
    this.serverLogEmitter.fire({ level, logger: typeof params.logger === 'string' ? params.logger : undefined, text });
  }

  /**
   * The least severe server log level wanted. 2025-11-25: `logging/setLevel` (when the server declares logging);
   * 2026-07-28: carried in every later request's `_meta`. Kept for restarts.
   */
  async setServerLogLevel(level: McpLogLevel): Promise<void> {
    this.serverLogLevel = level;
    const client = this.session?.client;
    if (!client) return;
    client.logLevel = level;
    await this.sendLogLevel(client);
  }

  private async sendLogLevel(client: HostClient): Promise<void> {
    const level = this.serverLogLevel;
    if (!level || client.getProtocolEra() === 'modern' || !client.getServerCapabilities()?.logging) return;
    await client.setLoggingLevel(level).then(
      () => this.log.info(`asked the server for log messages from ${level} up`),
      (e) => this.log.warn(`logging/setLevel ${level}: ${shortErrorText(e)}`),
    );
  }

  private createTransport(kind: TransportKind, session: ConnectionSession): Transport {
    const server = this.server;
    let transport: Transport;
    const maxMessageBytes = byteLimit(this.options.maxMessageBytes, DEFAULT_MAX_MESSAGE_BYTES);
    if (server.transport === 'stdio') {
      transport = new StdioProcessTransport(server, this.log, this.options.stopGraceMs, maxMessageBytes, {
        onStderrLine: this.options.onStderrLine,
        onRefusal: (r) => this.sandboxRefusalEmitter.fire(r),
      });
    } else {
      const requestInit: RequestInit = { headers: server.headers };
      // Like a stdio line over the limit, a body over it closes the connection: what it answered is lost.
      const fetch = boundedFetch({
        maxMessageBytes,
        signal: session.httpRequests!.signal,
        // An answer in an event stream that the SDK would drop (after logging it) ends its request instead.
        eventData: (lines) => answerOrErrorData(lines, this.name),
        onTooLarge: (e) => {
          if (this.attempt !== session || session.httpCloseReason) return;
          session.httpCloseReason = `${e.message}; the connection was closed`;
          this.log.error(session.httpCloseReason);
          void transport.close();
        },
      });
      const authProvider = this.options.oauth;
      const skipIssuerMetadataValidation = this.issuerCheckWaived;
      const watched = authProvider?.guardFetch?.(fetch) ?? fetch;
      transport =
        kind === 'sse'
          ? new SSEClientTransport(new URL(server.url), { requestInit, fetch: watched, authProvider, skipIssuerMetadataValidation })
          : new StreamableHTTPClientTransport(new URL(server.url), {
              requestInit,
              fetch: watched,
              authProvider,
              skipIssuerMetadataValidation,
              maxStepUpRetries: MAX_STEP_UPS,
            });
    }
    return transport;
  }

  /**
   * The transport as the SDK sees it: incoming tools/list answers give each tool's `inputFiles` (the SDK's
   * Tool schema drops fields it does not know), and every message is traced. Always installed, so turning
   * trace on later takes effect at once; trace lines are built only when it is on.
   */
  private tapped(session: ConnectionSession): Transport {
    const log = this.log;
    const transport = session.transport;
    return tapTransport(transport, {
      onIncoming: (message) => {
        // Before anything walks it: the trace's JSON.stringify recurses too.
        for (const refused of boundNesting(message)) {
          log.warn(`tool "${refused.name}" is not offered: ${refused.reason}`);
          session.refusingTools.push(refused);
        }
        log.trace(() => `[server -> host] ${JSON.stringify(message)}`);
        const result = (message as { result?: unknown }).result;
        // SEP-2631 draft shapes the SDK's result schemas would strip are set aside before it parses them.
        if (result !== undefined) {
          shieldDraftShapes(result);
          shieldPromptFileArguments(result);
        }
        const files = filesCapabilityOf(result);
        if (files) this.filesDeclared = files.declared;
        // A task answer (2026-07-28 extension) only to a tools/call that offered the extension; elsewhere the SDK refuses it.
        const id = (message as { id?: unknown }).id;
        if ((typeof id === 'string' || typeof id === 'number') && session.answeredTaskOffer(id)) shieldCreatedTask(result);
        const tools = (message as { result?: { tools?: unknown } }).result?.tools;
        if (Array.isArray(tools)) {
          session.refusingTools.push(...refuseSecureTools(tools));
          keepInputFiles(tools, session.toolInputFiles);
          session.secureSchemas.keep(tools);
        }
      },
      onOutgoing: (message) => {
        log.trace(() => `[host -> server] ${JSON.stringify(message)}`);
        const m = message as { id?: unknown; method?: unknown; params?: { _meta?: unknown } };
        if (
          m.method === 'tools/call' &&
          (typeof m.id === 'string' || typeof m.id === 'number') &&
          session.client.getProtocolEra() === 'modern' &&
          offersTasksExtension(m.params?._meta, CLIENT_CAPABILITIES_META_KEY)
        ) {
          session.offeredTasks(m.id);
        }
      },
    });
  }

  /** Starting waits at most this long per step: the connect timeout, else the request timeout up to 30 s. */
  private connectTimeoutMs(): number {
    return this.options.connectTimeoutMs ?? Math.min(DEFAULT_CONNECT_TIMEOUT_MS, this.options.requestTimeoutMs ?? Infinity);
  }

  /** One attempt: a new session over `kind`, the connection's session while it connects and once connected. */
  private async connectOnce(kind: TransportKind, prior: PriorDiscovery | undefined): Promise<void> {
    if (this.shutDown) throw new ServerStartError('the host is shutting down');
    const session = new ConnectionSession(kind, (s) => ({ client: this.createClient(s), transport: this.createTransport(kind, s) }));
    this.sessions.add(session);
    session.whenEnded(() => this.sessions.delete(session));
    this.session = session;
    this.attempt = session;
    this.transportKind = kind;
    try {
      await session.client.connect(this.tapped(session), { timeout: this.connectTimeoutMs(), prior });
    } catch (e) {
      // The transport stays readable for the caller: it knows how a stdio process ended.
      this.session = undefined;
      await session.closeClient();
      throw e;
    }
  }

  private async doStart(): Promise<void> {
    this.setState({ kind: 'starting' });
    this.stopping = false;
    this.stopReason = undefined;
    const server = this.server;
    const started = Date.now();
    try {
      // An SDK without the private members the host relies on fails here, by name, not later in silence.
      const sdkProblem = sdkSeamProblem();
      if (sdkProblem) throw new ServerStartError(sdkProblem);
      if (server.transport !== 'stdio') await this.options.oauth?.prepare?.();
      const { toolsListed } = await negotiate({
        server,
        log: this.log,
        eraCache: this.options.eraCache,
        fellBackToSse: this.fellBackToSse,
        // A remembered discovery brings no answer to read `files` from: it was remembered with it.
        onPrior: (prior) => {
          if (prior.kind === 'modern') this.filesDeclared = filesCapabilityOf(prior.discover)?.declared;
        },
        connect: (kind, prior) => this.connectOnce(kind, prior),
        listTools: () => this.refreshList('tools'),
        completeSignIn: (e) => this.completeSignIn(e),
        waiveIssuerCheck: async (e) => {
          if (this.issuerCheckWaived || !(await this.options.oauth?.issuerCheckWaivable?.())) return false;
          this.log.warn(
            `the authorization server's metadata names another issuer (${shortErrorText(e)}); accepted for a server without resource metadata (2025-03-26)`,
          );
          this.issuerCheckWaived = true;
          return true;
        },
        detach: () => {
          this.session = undefined;
        },
        abandon: async () => {
          await this.attempt?.close();
        },
        fallBackToSse: () => {
          this.fellBackToSse = true;
        },
        entryToRemember: () => {
          const client = this.session!.client;
          const discover = client.getDiscoverResult();
          return client.getProtocolEra() === 'modern' && discover
            ? { kind: 'modern', discover: withFilesCapability(discover, this.filesDeclared) }
            : { kind: 'legacy', at: Date.now() };
        },
      });
      const session = this.session!;
      const client = session.client;
      const era = client.getProtocolEra() ?? 'legacy';
      const info = client.getServerVersion();
      this.log.info(
        `connected over ${this.transportKind} in ${Date.now() - started} ms: ${info ? `${info.name} ${info.version}, ` : ''}protocol ${client.getNegotiatedProtocolVersion()} (${era} era)`,
      );
      client.onclose = () => this.onTransportClosed(session);
      // Every list right away: list_changed sent before the first listing is lost over HTTP.
      await Promise.all([
        ...LIST_KINDS.map((kind) =>
          kind === 'tools' && toolsListed
            ? undefined
            : this.refreshList(kind).catch((e) => {
                // A server that answers tools/list with an error is up, but offers no tools: reported, not fatal.
                if (kind !== 'tools') {
                  this.log.warn(`${LISTS[kind].method} failed: ${shortErrorText(e)}`);
                  return;
                }
                if (!(e instanceof ProtocolError) && !(e instanceof SdkError && e.code === SdkErrorCode.ListPaginationExceeded)) throw e;
                this.log.error(`tools/list failed: ${shortErrorText(e)}; running with no tools`);
              }),
        ),
        this.sendLogLevel(client),
      ]);
      this.setState({ kind: 'running', era, protocolVersion: client.getNegotiatedProtocolVersion() });
    } catch (e) {
      const transport = this.attempt?.transport;
      const crashed = transport instanceof StdioProcessTransport && !transport.exitedOnRequest ? transport.exit : undefined;
      const reason = this.startFailureReason(e);
      this.log.error(`could not start: ${reason}`);
      this.options.oauth?.cancelPendingSignIn?.();
      // A refused token is forgotten, so the next start signs in afresh.
      if (this.refusedAfterSignIn(e)) await Promise.resolve(this.options.oauth?.invalidateCredentials?.('tokens')).catch(() => undefined);
      const attempt = this.attempt;
      this.session = undefined;
      this.attempt = undefined;
      await attempt?.close();
      const signIn = signInKind(e);
      this.setState(
        crashed && !(e instanceof ServerStartError)
          ? { kind: 'crashed', exitCode: crashed.code, signal: crashed.signal, reason }
          : { kind: 'error', reason, ...(signIn ? { signIn } : {}) },
      );
      throw e instanceof ServerStartError ? e : new ServerStartError(reason, { cause: e });
    }
  }

  /** The server refused the connection though the host signed in (or holds a token): the token is of no use. */
  private refusedAfterSignIn(e: unknown): boolean {
    if (!this.options.oauth || signInKind(e)) return false;
    const status = httpStatusOf(e);
    return status === 401 || status === 403 || UnauthorizedError.isInstance(e);
  }

  private startFailureReason(e: unknown): string {
    if (e instanceof ServerStartError) return e.message;
    const t = this.attempt?.transport;
    // An exit the host caused (closing after another failure) would hide the failure itself.
    if (t instanceof StdioProcessTransport && t.exit && !t.exitedOnRequest) {
      return `the server exited during startup (${t.exit.signal ? `signal ${t.exit.signal}` : `exit code ${t.exit.code}`})`;
    }
    if (signInKind(e)) return shortErrorText(e);
    const status = httpStatusOf(e);
    if (this.refusedAfterSignIn(e)) return `the server refused the connection (HTTP ${status ?? 401}) even after signing in`;
    if (status === 401 || status === 403) return `the server refused the connection (HTTP ${status}): check the credentials in "headers"`;
    const url = (this.server as { url?: string }).url;
    for (let cur = e, depth = 0; cur && depth < 6; cur = (cur as { cause?: unknown }).cause, depth++) {
      const code = (cur as { code?: unknown }).code;
      if (code === 'ECONNREFUSED') return `nothing is listening at ${url}`;
      if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `the host of ${url} could not be found`;
    }
    // The SSE transport reports the socket error only in its message.
    if (/\bECONNREFUSED\b/.test(shortErrorText(e))) return `nothing is listening at ${url}`;
    return shortErrorText(e);
  }

  private onTransportClosed(session: ConnectionSession): void {
    if (this.session !== session) return;
    this.session = undefined;
    if (this.attempt === session) this.attempt = undefined;
    session.dispose();
    if (this.stopping) return;
    const transport = session.transport;
    const exit = transport instanceof StdioProcessTransport ? transport.exit : undefined;
    const closeReason = transport instanceof StdioProcessTransport ? transport.closeReason : session.httpCloseReason;
    const reason =
      closeReason ?? (exit ? `the server exited (${exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`})` : 'the connection to the server closed');
    this.log.error(reason);
    this.setState({ kind: 'crashed', exitCode: exit?.code ?? null, signal: exit?.signal ?? null, reason });
  }

  private async doStop(): Promise<void> {
    const session = this.session;
    if (!session) {
      if (this._state.kind !== 'stopped') this.setState({ kind: 'stopped' });
      return;
    }
    this.stopping = true;
    this.log.info('stopping');
    // Requests fail at once from here (requireSession); the session ends with its work, then its connection.
    this.session = undefined;
    await session.stop(this.log);
    if (this.attempt === session) this.attempt = undefined;
    this.listed = emptyLists();
    this.setState({ kind: 'stopped' });
    this.log.info('stopped');
  }

  /**
   * A request failed because the server wants a sign-in that the provider started in the browser: once the
   * redirect arrives (no request timer runs meanwhile), the transport redeems the code (the SDK's finishAuth,
   * which checks `iss`) and the caller tries again.
   */
  private async completeSignIn(e: unknown, startedAt = this.signInsCompleted): Promise<boolean> {
    const oauth = this.options.oauth;
    const transport = this.attempt?.transport;
    if (!oauth || !UnauthorizedError.isInstance(e)) return false;
    // Requests that needed a sign-in at the same time share the one the first of them started.
    if (this.signingIn) return this.signingIn;
    const done = (async () => {
      const callback = await oauth.pendingSignIn();
      // None pending: a sign-in this request joined may have completed since it was sent.
      if (!callback) return this.signInsCompleted !== startedAt;
      if (callback === 'signed-in') {
        this.signInsCompleted++;
        return true;
      }
      if (!(transport instanceof StreamableHTTPClientTransport || transport instanceof SSEClientTransport)) return false;
      try {
        await transport.finishAuth(callback);
      } catch (err) {
        throw signInFailure(err, this.name);
      }
      this.signInsCompleted++;
      this.log.info('signed in; trying again');
      return true;
    })();
    this.signingIn = done;
    try {
      return await done;
    } finally {
      if (this.signingIn === done) this.signingIn = undefined;
    }
  }

  /** Runs a request; a sign-in it needed (step-up, an expired grant) is completed and the request sent again. */
  private async withSignIn<T>(work: () => Promise<T>): Promise<T> {
    for (let signIns = 0; ; signIns++) {
      const startedAt = this.signInsCompleted;
      try {
        return await work();
      } catch (e) {
        if (signIns < MAX_SIGN_INS && (await this.completeSignIn(e, startedAt))) continue;
        // (a request that failed for another reason leaves a sign-in other requests wait for alone)
        if (UnauthorizedError.isInstance(e) || signInKind(e)) this.options.oauth?.cancelPendingSignIn?.();
        throw e;
      }
    }
  }

  private requireSession(): ConnectionSession {
    if (!this.session || this._state.kind !== 'running') {
      // A stop drops the session at once and reports 'stopped' only once the server is closed.
      const state = this.stopping && this._state.kind === 'running' ? 'stopping' : this._state.kind;
      throw new NotRunningError(`server "${this.name}" is not running (${state})`);
    }
    return this.session;
  }

  /**
   * Sends one request of the host through `session` (the running one by default): the caller's signal cancels it
   * (with the caller's reason in words, else CANCELLED_BY_USER), the caller's time limit or the connection's
   * bounds it, a sign-in it needed is completed and the request sent again (`signIn`), and a failure becomes one
   * of the host's errors naming `what`. Counted in `openWork` until it settles.
   */
  private async send<T>(
    what: string,
    opts: CallOptions,
    request: (client: HostClient, o: { signal?: AbortSignal; timeout: number }) => Promise<T>,
    how: SendOptions = {},
    session = this.requireSession(),
  ): Promise<T> {
    const timeout = opts.timeoutMs ?? how.timeoutMs ?? this.requestTimeoutMs;
    const cancel = opts.signal ? linkAbort(opts.signal, cancelReason) : undefined;
    const o = { signal: cancel?.signal, timeout };
    let failNow!: (reason: Error) => void;
    const answer = new Promise<T>((resolve, reject) => {
      failNow = (reason) => {
        cancel?.abort(reason);
        reject(reason);
      };
      (how.signIn ? this.withSignIn(() => request(session.client, o)) : request(session.client, o)).then(resolve, reject);
    });
    this.openRequests.add(failNow);
    try {
      return await answer;
    } catch (e) {
      // The SDK reports an abort (the caller's) with the timeout code too; the signal tells them apart.
      const timedOut = e instanceof SdkError && e.code === SdkErrorCode.RequestTimeout && !o.signal?.aborted;
      throw this.requestError(e, what, opts.signal, timedOut ? timeout : undefined);
    } finally {
      this.openRequests.delete(failNow);
      cancel?.dispose();
    }
  }

  /** Turns an SDK/transport failure of a request into one of our error types. */
  private requestError(e: unknown, what: string, signal: AbortSignal | undefined, timedOut: number | undefined): Error {
    if (timedOut !== undefined) return new CallTimeoutError(`${what} got no answer within ${timedOut} ms`, timedOut);
    if (signal?.aborted) return new CallCancelledError(`${what} was cancelled`);
    if (this.stopping && this.stopReason) return new ServerStoppedError(`${what} ended: ${this.stopReason}`);
    if (this.stopping) return new CallCancelledError(`${what} was cancelled: the server was stopped`);
    if (this._state.kind === 'crashed') {
      return new ServerCrashedError(`${what} failed: ${this._state.reason}`, this._state.exitCode, this._state.signal ?? null);
    }
    // The SDK's own check of an HTTP answer (a zod error listing every branch it tried) says little to a person.
    if ((e as { name?: unknown })?.name === 'ZodError' || Array.isArray((e as { issues?: unknown })?.issues)) {
      return new ServerRequestError(`${what} failed: server "${this.name}" sent an answer the host cannot use (not valid JSON-RPC)`);
    }
    if (e instanceof SdkError) {
      if (e.code === SdkErrorCode.ConnectionClosed || e.code === SdkErrorCode.NotConnected || e.code === SdkErrorCode.SendFailed) {
        return new ServerCrashedError(`${what} failed: the connection to the server closed`, null, null);
      }
      if (e.code === SdkErrorCode.InputRequiredRoundsExceeded) {
        const rounds = this.options.inputRequired?.maxRounds ?? 10;
        return new ServerRequestError(`${what} failed: the server kept asking for input (${rounds} rounds)`, e.code, e.data);
      }
      return new ServerRequestError(`${what} failed: ${e.message}`, e.code, e.data);
    }
    if (e instanceof ProtocolError) return new ServerRequestError(`${what} failed: ${e.message}`, e.code, e.data);
    return e instanceof Error ? e : new Error(String(e));
  }

  /**
   * Calls a tool (after any tools re-list in flight, so its outputSchema is current). By default a result whose
   * structuredContent breaks the tool's outputSchema, or lacks it, throws ServerRequestError; with
   * `validateOutput: false` it is returned as received, for `toResultView(result, tool)` to validate and show.
   */
  async callTool(name: string, args: Record<string, unknown>, opts: ToolCallOptions = {}): Promise<CallToolResult> {
    const session = this.requireSession();
    const client = session.client;
    const toolsRefresh = this.refreshes.tools?.running;
    if (toolsRefresh) await toolsRefresh.catch(() => undefined);
    const tool = this.listed.tools.find((t) => t.name === name);
    // 2026-07-28: a plain call does not offer the Tasks extension (tasks go through core/tasks), so no task answers it.
    const extensions = client.getServerCapabilities()?.extensions;
    const _meta =
      client.getProtocolEra() === 'modern' && extensions && Object.hasOwn(extensions, TASKS_EXTENSION_ID)
        ? { [CLIENT_CAPABILITIES_META_KEY]: this.capabilitiesWithoutTasks() }
        : undefined;
    const secure = secureCall(tool, opts.secureArguments, this.log, client.getProtocolEra() === 'modern');
    const call = this.send(
      `tool "${name}"`,
      opts,
      (c, { signal, timeout }) =>
        c.callTool(
          { name, arguments: args, ...secure?.params, ...(_meta ? { _meta } : {}) },
          {
            signal,
            timeout,
            resetTimeoutOnProgress: true,
            onprogress: opts.onProgress,
            ...secure?.options,
            toolDefinition: tool ? definitionForSdk(tool) : { name, inputSchema: { type: 'object' } },
          },
        ),
      WITH_SIGN_IN,
      session,
    );
    const result = restoreDraftShapes<CallToolResult>(
      await call.catch((e: unknown) => {
        throw secure ? secureArgumentsRefusal(e, name, this.name) : e;
      }),
    );
    const problem = opts.validateOutput === false ? undefined : structuredOutputProblem(result, tool);
    if (problem) throw new ServerRequestError(`tool "${name}" failed: ${problem}`, -32602);
    return result;
  }

  private capabilitiesWithoutTasks(): ClientCapabilities {
    const caps = this.capabilities() as Record<string, unknown>;
    const { [TASKS_EXTENSION_ID]: _, ...extensions } = caps.extensions as Record<string, unknown>;
    return { ...caps, extensions } as ClientCapabilities;
  }

  /**
   * Answers one server-to-client request that arrived inside a task (2026-07-28 `inputRequests`) through the same
   * handler, checks and UI as the standalone request; anything the host did not declare is refused.
   */
  async answerInputRequest(method: string, params: unknown, signal?: AbortSignal): Promise<unknown> {
    return answerInTask(this.featureHost, method, isObject(params) ? params : {}, signal ?? new AbortController().signal, this.session);
  }

  async readResource(uri: string, opts: CallOptions = {}): Promise<ReadResourceResult> {
    return restoreDraftShapes(
      await this.send(`reading ${uri}`, opts, (client, o) => client.readResource({ uri }, { ...o, cacheMode: 'bypass' }), WITH_SIGN_IN),
    );
  }

  async getPrompt(name: string, args: Record<string, string> = {}, opts: CallOptions = {}) {
    return restoreDraftShapes(await this.send(`prompt "${name}"`, opts, (client, o) => client.getPrompt({ name, arguments: args }, o), WITH_SIGN_IN));
  }

  /** Whether the server offers completions (`completion/complete`). */
  get supportsCompletions(): boolean {
    return !!this.session?.client.getServerCapabilities()?.completions;
  }

  /** The server's suggestions for one argument, bounded (`boundCompletion`); none when it offers no completions. */
  async complete(request: CompletionRequest, opts: CallOptions = {}): Promise<Completion> {
    const session = this.requireSession();
    if (!session.client.getServerCapabilities()?.completions) return { values: [], hasMore: false };
    // A loose result schema: an answer over the spec's 100 values is cut by boundCompletion, not refused whole.
    const answer = await this.send(
      `completing "${request.argument.name}"`,
      opts,
      (client, o) =>
        client.request(
          {
            method: 'completion/complete',
            params: { ref: request.ref, argument: request.argument, ...(request.context ? { context: { arguments: request.context } } : {}) },
          },
          LooseCompleteResult,
          o,
        ),
      { timeoutMs: COMPLETION_TIMEOUT_MS },
      session,
    );
    return boundCompletion(answer.completion);
  }

  /** A request of a method the SDK does not know (SEP-2631's files/*), its answer checked against `schema`. */
  request<T>(
    method: string,
    params: Record<string, unknown>,
    schema: StandardSchemaV1<unknown, T>,
    opts: CallOptions & { headers?: Record<string, string> } = {},
  ): Promise<T> {
    return this.send(method, opts, (client, o) => client.request({ method, params }, schema, { ...o, ...(opts.headers ? { headers: opts.headers } : {}) }));
  }

  /** The MCP server's URL, or undefined for a stdio server (a process on this machine). */
  get serverUrl(): string | undefined {
    return this.server.transport === 'stdio' ? undefined : this.server.url;
  }

  private filesDeclared: unknown;
  /** The server's `capabilities.files` (SEP-2631) as it sent it, kept from its last initialize or server/discover answer. */
  get serverFilesCapability(): unknown {
    return this.filesDeclared;
  }

  /** The request timeout of this connection (a transfer's deadline starts from it). */
  get requestTimeoutMs(): number {
    return this.options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  }

  private _transfers?: FileTransfers;
  /** SEP-2631 out-of-band upload and download for this server (enabled when the `files` capability is declared). */
  get transfers(): FileTransfers {
    this._transfers ??= new FileTransfers(this, this.options.capabilities?.files === true);
    return this._transfers;
  }

  /** What the server declared it can do, once running. */
  get serverCapabilities() {
    return this.session?.client.getServerCapabilities();
  }

  /** Whether the server sends updates of a resource the host subscribes to. */
  get supportsSubscriptions(): boolean {
    return !!this.session?.client.getServerCapabilities()?.resources?.subscribe;
  }

  /**
   * Subscribes to a resource's updates (`onDidUpdateResource`), in the shape of the era: `resources/subscribe`
   * (2025-11-25) or a `subscriptions/listen` stream (2026-07-28). Undefined when the server offers no
   * subscriptions. Disposing unsubscribes; a subscription ends with the connection.
   */
  async subscribeResource(uri: string): Promise<IDisposable | undefined> {
    const session = this.requireSession();
    const client = session.client;
    if (!client.getServerCapabilities()?.resources?.subscribe) return undefined;
    const what = `subscribing to ${uri}`;
    if (client.getProtocolEra() === 'modern') {
      const listening = await this.send(what, {}, (c, { timeout }) => c.listen({ resourceSubscriptions: [uri] }, { timeout }), {}, session);
      this.log.info(`listening for updates of ${uri}`);
      return {
        dispose: () => {
          void listening.close().catch(() => undefined);
        },
      };
    }
    await this.send(what, {}, (c, { timeout }) => c.subscribeResource({ uri }, { timeout }), {}, session);
    this.log.info(`subscribed to ${uri}`);
    const timeout = this.requestTimeoutMs;
    return {
      dispose: () => {
        if (this.session !== session) return;
        void client.unsubscribeResource({ uri }, { timeout }).then(
          () => this.log.info(`unsubscribed from ${uri}`),
          (e) => this.log.debug(`unsubscribing from ${uri}: ${shortErrorText(e)}`),
        );
      },
    };
  }

  /** Runs the answer to one of the server's requests, counted in `openWork` until it settles. */
  private async answering<T>(work: () => Promise<T>): Promise<T> {
    this.answeringRequests++;
    try {
      return await work();
    } finally {
      this.answeringRequests--;
    }
  }

  /**
   * What the connection holds open (the lifetime tests count it; all 0 once stopped): sessions not yet ended, the
   * server's requests being answered, the tasks it sent them, the tool calls in flight that offered tasks, and the
   * host's requests in flight.
   */
  get openWork(): { sessions: number; answering: number; receivedTasks: number; taskOfferingCalls: number; requests: number } {
    let receivedTasks = 0;
    let taskOfferingCalls = 0;
    for (const session of this.sessions) {
      receivedTasks += session.receivedTaskCount;
      taskOfferingCalls += session.taskOfferingCallCount;
    }
    return { sessions: this.sessions.size, answering: this.answeringRequests, receivedTasks, taskOfferingCalls, requests: this.openRequests.size };
  }

  /** How many listeners are subscribed to this connection's events (what the lifetime tests count). */
  get listenerCount(): number {
    return [
      this.stateEmitter,
      this.listsEmitter,
      this.elicitationCompleteEmitter,
      this.serverLogEmitter,
      this.resourceUpdatedEmitter,
      this.taskStatusEmitter,
      this.sandboxRefusalEmitter,
    ].reduce((n, e) => n + e.listenerCount, 0);
  }

  /**
   * Ends the connection at once, without waiting: nothing starts any more, a sign-in under way is given up, the
   * host's requests in flight fail, the session's work ends (the server's tasks, its HTTP requests), the server
   * is stopped as for a host going away (`shutdown`: a stdio process group gets SIGTERM, then SIGKILL, within
   * about 3 × SHUTDOWN_GRACE_MS), and every listener is dropped. A caller that needs the server gone awaits
   * `stop()` first. Once is enough: a second call, or one after `stop()`, does nothing more.
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.shutDown = true;
    this.stopping = true;
    this.options.oauth?.cancelPendingSignIn?.();
    const disposed = new Error(`the connection to server "${this.name}" was disposed`);
    for (const failNow of this.openRequests) failNow(disposed);
    this.shutdown().catch((e: unknown) => this.log.debug(`stopping after dispose: ${shortErrorText(e)}`));
    this.stateEmitter.dispose();
    this.listsEmitter.dispose();
    this.elicitationCompleteEmitter.dispose();
    this.serverLogEmitter.dispose();
    this.resourceUpdatedEmitter.dispose();
    this.taskStatusEmitter.dispose();
    this.sandboxRefusalEmitter.dispose();
  }
}

export type { IDisposable };

/** A server's log message (`notifications/message`), as written to the connection's log. */
export interface ServerLogMessage {
  level: McpLogLevel;
  logger?: string;
  text: string;
}
