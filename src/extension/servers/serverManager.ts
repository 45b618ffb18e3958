// The configured MCP servers of this window: read from the workspace's .vscode/mcp.json files and
// the user's mcp.json, one ServerConnection each (started on first use, or at startup when
// `mcpHost.autoStart` is set), a log channel each, restarted when their configuration changes.

import { homedir } from 'node:os';
import * as vscode from 'vscode';
import type { Root } from '@modelcontextprotocol/client';
import {
  formatConfigError,
  inputIdsUsedBy,
  loadMcpConfigSync,
  resolveServer,
  UnresolvedInputError,
  type ConfigError,
  type InputDefinition,
  type ResolvedServer,
  type ServerDefinition,
} from '../../core/config';
import type { EraCache, EraCacheEntry, ElicitationHandler, ServerConnection } from '../../core/connection';
import { ConnectionState } from '../../core/connection/types';
import { Disposable, DisposableStore, Emitter, toDisposable, type Event, type IDisposable } from '../../core/events';
import { DEFAULT_UPLOAD_MAX_BYTES } from '../../core/files';
import { Logger, type LogLevel } from '../../core/log';
import type { ServerInputs } from './serverInputs';
import { mcpLevelOfChannel } from './serverLogLevel';
import { definitionHash, ServerNotTrustedError, type ServerTrust } from './serverTrust';
import type { SandboxRefusals } from './sandboxRefusals';
import { KnownTools, type KnownTool } from './knownTools';
import type { StartQuestions } from './serverDescriptions';
import { offeredToUser } from '../../core/apps';
import { samplingHandlerFor } from '../sampling/samplingPanel';
import type { ServerSignIns } from './serverSignIns';
import { affectsSetting, CONNECTION_SETTINGS, readSettings } from '../settings';
import { connectionBundle, loadedConnectionBundle } from '../activation/connectionBundle';
import { debugLaunchFor, watchForRestart } from './devMode';
import { HOST_VERSION } from '../../shared/version';

export const USER_CONFIG_NAME = 'mcp.json';
const ERA_CACHE_KEY = 'mcpHost.eraCache.v2';
const LEGACY_ERA_CACHE_KEY = 'mcpHost.eraCache';

export interface ManagedServer {
  readonly name: string;
  readonly definition: ServerDefinition;
  /** The `inputs` declared in the server's config file. */
  declaredInputs: InputDefinition[];
  readonly channel: vscode.LogOutputChannel;
  readonly log: Logger;
  connection?: ServerConnection;
  /** Why the server could not be created (inputs refused, variables unresolved); shown as an error state. */
  setupError?: string;
  /** Who the server's sign-in says you are, once running with a token that says. */
  signedInAs?: string;
  /** The watchers of its `dev.watch`, ended with it. */
  devWatch?: vscode.Disposable;
}

/** What the tree shows and the tests read. */
export function serverState(server: ManagedServer): ConnectionState {
  if (server.connection) return server.connection.state;
  return server.setupError ? { kind: 'error', reason: server.setupError } : { kind: 'stopped' };
}

/** What a server is started from: its definition and the declarations of the inputs it uses. */
function definitionKey(def: ServerDefinition, declared: InputDefinition[]): string {
  const used = new Set(inputIdsUsedBy(def));
  return JSON.stringify([def, declared.filter((i) => used.has(i.id))]);
}

/**
 * The window's services a server's start and the Servers view use, owned by the window's composition root
 * (container.ts), which builds each on first use.
 */
export interface ServerServices {
  /** Values of the `${input:…}` variables of the configuration. */
  readonly serverInputs: ServerInputs;
  /** Whether a workspace server may start, and the question before its first start. */
  readonly serverTrust: ServerTrust;
  /** The servers' OAuth sign-ins: their state (SecretStorage) and the client provider each HTTP server signs in with. */
  readonly serverSignIns: ServerSignIns;
  /** What sandboxed servers were refused this session, and **Allow**. */
  readonly sandboxRefusals: SandboxRefusals;
}

/** How long `deactivate` may take to stop every server: well under the time VS Code gives it. */
export const SHUTDOWN_BUDGET_MS = 3000;

/**
 * The last resort when the extension host exits without a deactivate that finished: every stdio server's process
 * group (detached, so it would outlive the host) is killed on the way out. A signal ends the host without
 * `deactivate` or the `exit` event (code-server stopped with SIGTERM, a terminal closed): the groups are killed
 * first, then, when nothing else handles the signal, the host ends as the signal would have ended it.
 * Registered by the window's owner (container.ts); disposing it (the window goes away) kills the groups still
 * there and removes the listeners.
 */
export function killStdioServersOnExit(): IDisposable {
  const onExit = (): void => loadedConnectionBundle()?.killRemainingStdioServers();
  process.on('exit', onExit);
  const handlers = (['SIGTERM', 'SIGHUP', 'SIGINT'] as const).map((signal) => {
    const onSignal = (): void => {
      loadedConnectionBundle()?.killRemainingStdioServers();
      if (process.listenerCount(signal) > 1) return;
      process.removeListener(signal, onSignal);
      process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
    return { signal, onSignal };
  });
  return toDisposable(() => {
    onExit();
    process.removeListener('exit', onExit);
    for (const { signal, onSignal } of handlers) process.removeListener(signal, onSignal);
  });
}

/** Settings read when a connection is created: changing one restarts the running servers. */
class GlobalStateEraCache implements EraCache {
  constructor(private readonly memento: vscode.Memento) {
    // The first format keyed entries by the resolved command line, which could hold an input's secret.
    if (memento.get(LEGACY_ERA_CACHE_KEY) !== undefined) void memento.update(LEGACY_ERA_CACHE_KEY, undefined);
  }
  private all(): Record<string, EraCacheEntry> {
    return this.memento.get<Record<string, EraCacheEntry>>(ERA_CACHE_KEY, {});
  }
  get(key: string): EraCacheEntry | undefined {
    return this.all()[key];
  }
  async set(key: string, entry: EraCacheEntry): Promise<void> {
    await this.memento.update(ERA_CACHE_KEY, { ...this.all(), [key]: entry });
  }
  async delete(key: string): Promise<void> {
    const all = { ...this.all() };
    delete all[key];
    await this.memento.update(ERA_CACHE_KEY, all);
  }
}

/**
 * The window's servers. It owns every connection it creates and the listeners it puts on them: a connection
 * replaced (restart, new inputs) or removed (configuration) is disposed with its listeners, and disposing the
 * manager disposes them all, its watchers and its channels.
 */
export class ServerManager extends Disposable implements vscode.Disposable {
  private readonly servers = new Map<string, ManagedServer>();
  private readonly changed = this.register(new Emitter<void>());
  /** Each connection this manager created and has not disposed yet, with what goes with it (listeners, sign-in). */
  private readonly connections = new Map<ServerConnection, DisposableStore>();
  private readonly eraCache: EraCache;
  private readonly starting = new Map<string, Promise<ServerConnection>>();
  private errors: ConfigError[] = [];
  private reloading: Promise<void> = Promise.resolve();
  /** The tools each definition was seen to offer (global state), named in Run Tool… before the server starts. */
  private readonly knownTools: KnownTools;
  /** Fires when a server is added, removed or changes state, or its lists change. */
  readonly onDidChange: Event<void> = this.changed.event;

  constructor(
    private readonly context: vscode.ExtensionContext,
    /** Read when used, not here: the container builds each service on first use. */
    private readonly services: ServerServices,
    /** The elicitation handler of one server (it depends on the server's transport). */
    private readonly elicitationFor: (server: ResolvedServer, log: Logger) => ElicitationHandler,
  ) {
    super();
    this.eraCache = new GlobalStateEraCache(context.globalState);
    this.knownTools = new KnownTools(context.globalState);
    const watcher = vscode.workspace.createFileSystemWatcher('**/.vscode/mcp.json');
    const userWatcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(context.globalStorageUri, USER_CONFIG_NAME));
    for (const w of [watcher, userWatcher]) {
      this.register(w);
      for (const event of [w.onDidChange, w.onDidCreate, w.onDidDelete]) this.register(event(() => this.reload()));
    }
    this.register(
      toDisposable(() => {
        for (const s of this.servers.values()) s.devWatch?.dispose();
        for (const owned of this.connections.values()) owned.dispose();
        this.connections.clear();
      }),
    );
    for (const subscription of [
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        for (const s of this.servers.values()) void s.connection?.notifyRootsChanged();
        void this.reload();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.changed.fire()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (affectsSetting(e, 'trustWorkspaceServers')) this.changed.fire();
        if (affectsSetting(e, 'trace')) for (const s of this.servers.values()) s.log.level = logLevel(s.definition);
        if (CONNECTION_SETTINGS.some((key) => affectsSetting(e, key))) this.restartRunning('a setting it uses changed');
      }),
    ])
      this.register(subscription);
  }

  get userConfigUri(): vscode.Uri {
    return vscode.Uri.joinPath(this.context.globalStorageUri, USER_CONFIG_NAME);
  }

  /** The workspace config files, one per folder (they may not exist). */
  get workspaceConfigUris(): vscode.Uri[] {
    return (vscode.workspace.workspaceFolders ?? []).map((f) => vscode.Uri.joinPath(f.uri, '.vscode', 'mcp.json'));
  }

  get configErrors(): readonly ConfigError[] {
    return this.errors;
  }

  list(): ManagedServer[] {
    return [...this.servers.values()];
  }

  get(name: string): ManagedServer | undefined {
    return this.servers.get(name);
  }

  /** Stopped servers that start only after the trust question (or, in Restricted Mode, not at all). */
  waitingForTrust(): ManagedServer[] {
    return this.list().filter((s) => serverState(s).kind === 'stopped' && !this.services.serverTrust.isTrusted(s.definition));
  }

  /** What starting the server will ask the user, or why it cannot start in this window. */
  async startQuestions(server: ManagedServer): Promise<StartQuestions> {
    const trusted = this.services.serverTrust.isTrusted(server.definition);
    return {
      trust: !trusted && vscode.workspace.isTrusted,
      restricted: !trusted && !vscode.workspace.isTrusted,
      inputs: !(await this.services.serverInputs.allStored({ server: server.definition, declared: server.declaredInputs })),
    };
  }

  /** The tools a server of this exact definition offered when it last ran (here or in another workspace). */
  knownToolsOf(server: ManagedServer): readonly KnownTool[] {
    return this.knownTools.of(definitionHash(server.definition));
  }

  /** Re-reads every config file; servers whose definition changed are restarted if they were running. */
  reload(): Promise<void> {
    this.reloading = this.reloading
      .then(() => this.doReload())
      .catch((e) => {
        void vscode.window.showErrorMessage(`MCP: could not read the server configuration: ${(e as Error).message}`);
      });
    return this.reloading;
  }

  private async doReload(): Promise<void> {
    // The user's file first, so a workspace server of the same name replaces it.
    const files = [this.userConfigUri, ...this.workspaceConfigUris].filter((u) => u.scheme === 'file').map((u) => u.fsPath);
    // Read without yielding (a few small files): activation, which waits for the first load, is not held up behind
    // the extension host's other work between the reads.
    const parsed = files.map((f) => loadMcpConfigSync(f));
    const next = new Map<string, { def: ServerDefinition; inputs: InputDefinition[] }>();
    this.errors = [];
    for (const config of parsed) {
      this.errors.push(...config.errors);
      for (const def of config.servers) next.set(def.name, { def, inputs: config.inputs });
    }
    for (const def of await this.extraServers()) if (!next.has(def.name)) next.set(def.name, { def, inputs: [] });
    for (const e of this.errors) this.reportConfigError(e);
    const errorText = this.errors.map(formatConfigError).join('\n');
    if (errorText && errorText !== this.reportedErrors) void this.notifyConfigErrors(this.errors);
    this.reportedErrors = errorText;

    const restarts: string[] = [];
    for (const [name, server] of this.servers) {
      const wanted = next.get(name);
      if (!wanted || definitionKey(wanted.def, wanted.inputs) !== definitionKey(server.definition, server.declaredInputs)) {
        const state = serverState(server).kind;
        if (wanted && (state === 'running' || state === 'starting')) restarts.push(name);
        await this.removeServer(name, wanted ? 'its configuration changed' : 'it was removed from the configuration');
      }
    }
    // Rebuilt in the configuration's order, keeping the servers that did not change.
    const kept = new Map(this.servers);
    this.servers.clear();
    const created = new Set<string>();
    for (const [name, { def, inputs }] of next) {
      const existing = kept.get(name);
      if (existing) existing.declaredInputs = inputs;
      else created.add(name);
      this.servers.set(name, existing ?? this.createServer(def, inputs));
    }
    this.changed.fire();
    const autoStart = readSettings().autoStart && !this.loaded;
    this.loaded = true;
    for (const [name, server] of this.servers) {
      // A restart of a changed definition goes through start(), so a changed command is asked about again.
      // A server in dev mode starts with the window, and when its entry is added or changed.
      const devStart = created.has(name) && server.definition.dev !== undefined;
      if (!restarts.includes(name) && !autoStart && !devStart) continue;
      if (!vscode.workspace.isTrusted && !this.services.serverTrust.isUserLevel(server.definition)) {
        server.log.info('not started: the workspace is in Restricted Mode');
        continue;
      }
      void this.start(name).catch((e) => this.reportStartFailure(name, e));
    }
  }

  /** The first load is done (`mcpHost.autoStart` applies to it only). */
  private loaded = false;
  /** The config errors last shown, so an unchanged broken file is not announced again. */
  private reportedErrors = '';
  /** Servers from outside the configuration files (other apps' configs, discoveredServers.ts). */
  private extraServers: () => Promise<ServerDefinition[]> = () => Promise.resolve([]);

  /** Where servers from outside the configuration come from: read at each reload, after the files, never replacing a configured one. */
  setExtraServers(provider: () => Promise<ServerDefinition[]>): void {
    this.extraServers = provider;
  }

  private async notifyConfigErrors(errors: readonly ConfigError[]): Promise<void> {
    const first = errors[0]!;
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
    const choice = await vscode.window.showWarningMessage(
      `MCP configuration error: ${vscode.workspace.asRelativePath(first.file)}:${first.line}:${first.column}: ${first.message}${more}`,
      'Open',
    );
    if (choice) {
      const position = new vscode.Position(Math.max(0, first.line - 1), Math.max(0, first.column - 1));
      await vscode.window.showTextDocument(vscode.Uri.file(first.file), { selection: new vscode.Range(position, position) });
    }
  }

  private reportConfigError(e: ConfigError): void {
    const server = e.server ? this.servers.get(e.server) : undefined;
    (server?.channel ?? this.problemsChannel()).error(formatConfigError(e));
  }

  private problems?: vscode.LogOutputChannel;
  /** Lines for the host log written once something else opens it. */
  private laterLines: string[] = [];
  private problemsChannel(): vscode.LogOutputChannel {
    if (!this.problems) {
      this.problems = this.register(vscode.window.createOutputChannel('MCP Host', { log: true }));
      for (const line of this.laterLines.splice(0)) this.problems.info(line);
    }
    return this.problems;
  }

  /** An info line for the host log that does not open it: written now if it is open, else when it opens. */
  hostLogLater(line: string): void {
    if (this.problems) this.problems.info(line);
    else this.laterLines.push(line);
  }

  /** Where messages about the extension itself (not one server) go. */
  get hostLog(): vscode.LogOutputChannel {
    return this.problemsChannel();
  }

  private createServer(definition: ServerDefinition, declaredInputs: InputDefinition[]): ManagedServer {
    const existingChannel = this.channels.get(definition.name);
    const channel = existingChannel ?? this.createChannel(definition.name);
    this.channels.set(definition.name, channel);
    const log = new Logger((level, message) => writeLog(channel, level, message), logLevel(definition));
    const watch = definition.dev?.watch;
    const devWatch = watch
      ? watchForRestart(definition.name, watch, workspaceFolderOf(definition.file)?.uri, log, (changed) => this.restartForChange(definition.name, changed))
      : undefined;
    return { name: definition.name, definition, declaredInputs, channel, log, devWatch };
  }

  private createChannel(name: string): vscode.LogOutputChannel {
    const channel = this.register(vscode.window.createOutputChannel(`MCP: ${name}`, { log: true }));
    // The server is asked for the messages its channel shows (logging/setLevel, or each request's _meta).
    this.register(
      channel.onDidChangeLogLevel((level) => {
        void this.servers.get(name)?.connection?.setServerLogLevel(mcpLevelOfChannel(level));
      }),
    );
    return channel;
  }

  /** Channels outlive a server's config changes so its history stays in one place. */
  private readonly channels = new Map<string, vscode.LogOutputChannel>();

  private async removeServer(name: string, why: string): Promise<void> {
    const server = this.servers.get(name);
    if (!server) return;
    this.servers.delete(name);
    server.devWatch?.dispose();
    if (server.connection) server.log.info(`stopping: ${why}`);
    await this.disposeConnection(server);
  }

  /** Stops the server's connection and disposes it with what goes with it; the server has no connection after. */
  private async disposeConnection(server: ManagedServer): Promise<void> {
    const connection = server.connection;
    if (!connection) return;
    server.connection = undefined;
    this.connections.get(connection)?.dispose();
    this.connections.delete(connection);
    await connection.stop().catch(() => undefined);
    connection.dispose();
    this.changed.fire();
  }

  /** What the lifetime tests read: the connections not disposed yet and the listeners on each, the manager's own. */
  lifetimes(): { changeListeners: number; connections: number; connectionListeners: Record<string, number> } {
    const connectionListeners: Record<string, number> = {};
    for (const s of this.servers.values()) if (s.connection) connectionListeners[s.name] = s.connection.listenerCount;
    return { changeListeners: this.changed.listenerCount, connections: this.connections.size, connectionListeners };
  }

  /** Starts the server if needed (asking for its inputs the first time) and returns its running connection. */
  async start(name: string): Promise<ServerConnection> {
    const pending = this.starting.get(name);
    if (pending) return pending;
    const promise = this.doStart(name).finally(() => this.starting.delete(name));
    this.starting.set(name, promise);
    return promise;
  }

  private async doStart(name: string): Promise<ServerConnection> {
    if (this.shuttingDown) throw new Error('the window is closing');
    const server = this.requireServer(name);
    if (ConnectionState.isRunning(server.connection?.state)) return server.connection;
    await this.services.serverTrust.ensureTrusted(server.definition);
    if (!server.connection) server.connection = await this.createConnection(server);
    await server.connection.start();
    return server.connection;
  }

  private async createConnection(server: ManagedServer): Promise<ServerConnection> {
    const request = { server: server.definition, declared: server.declaredInputs };
    const values = await this.services.serverInputs.valuesFor(request, this.context.extensionUri);
    if (!values) {
      server.setupError = 'its inputs were not given (run MCP: Edit Server Inputs, then start it)';
      this.changed.fire();
      throw new Error(`${server.name}: ${server.setupError}`);
    }
    let resolved;
    try {
      resolved = await resolveServer(server.definition, {
        workspaceFolder: workspaceFolderOf(server.definition.file)?.uri.fsPath,
        userHome: homedir(),
        inputs: server.declaredInputs,
        resolveInput: async (id) => values.get(id),
      });
    } catch (e) {
      server.setupError = e instanceof UnresolvedInputError ? e.message : `its configuration could not be resolved: ${(e as Error).message}`;
      this.changed.fire();
      throw e;
    }
    server.setupError = undefined;
    const launch = await debugLaunchFor(server.name, resolved, server.definition.dev?.debug, workspaceFolderOf(server.definition.file), server.log).catch(
      (e: unknown) => {
        server.setupError = (e as Error).message ?? String(e);
        this.changed.fire();
        throw e;
      },
    );
    resolved = launch.server;
    const settings = readSettings();
    const { ServerConnection } = connectionBundle();
    const oauth = await this.services.serverSignIns.clientProviderFor(resolved, server.log);
    const connection = new ServerConnection(resolved, {
      log: server.log,
      roots: workspaceRoots,
      clientInfo: { name: 'mcp-host-vscode', version: HOST_VERSION },
      elicitation: this.elicitationFor(resolved, server.log),
      sampling: samplingHandlerFor(this.context.extensionUri, server.log),
      eraCache: this.eraCache,
      capabilities: {
        apps: true,
        fileInputs: settings.advertiseFileInputs,
        binaryElicitation: settings.binaryUploads ? { maxFileSize: DEFAULT_UPLOAD_MAX_BYTES } : false,
        files: settings.fileTransfer,
        samplingTools: true,
        taskRequests: true,
      },
      requestTimeoutMs: settings.requestTimeoutMs || undefined,
      maxMessageBytes: settings.maxMessageBytes,
      serverLogLevel: mcpLevelOfChannel(server.channel.logLevel),
      oauth,
      onStderrLine: launch.onStderrLine,
    });
    const owned = new DisposableStore();
    this.connections.set(connection, owned);
    // The sign-in's redirect receiver (a loopback listener) serves every start of this connection, and ends with it.
    if (oauth) owned.add(oauth);
    let previous = connection.state.kind;
    const rememberTools = (): void => {
      if (!ConnectionState.isRunning(connection.state)) return;
      this.knownTools
        .remember(definitionHash(server.definition), connection.tools.filter(offeredToUser))
        .catch((e) => server.log.warn(`could not remember its tools: ${(e as Error).message}`));
    };
    owned.add(
      connection.onDidChangeState((state) => {
        rememberTools();
        if (state.kind === 'crashed' && previous !== 'crashed') void this.reportCrash(server, state.reason);
        previous = state.kind;
        if (ConnectionState.isRunning(state) && resolved.transport !== 'stdio') {
          void this.services.serverSignIns.status(resolved.url).then((s) => {
            server.signedInAs = s.signedIn ? (s.account ?? 'you') : undefined;
            this.changed.fire();
          });
        }
        this.changed.fire();
      }),
    );
    owned.add(
      connection.onDidChangeLists(() => {
        rememberTools();
        this.changed.fire();
      }),
    );
    owned.add(connection.onSandboxRefusal((refusal) => this.services.sandboxRefusals.report(server.name, refusal)));
    return connection;
  }

  private async reportCrash(server: ManagedServer, reason: string): Promise<void> {
    const choice = await vscode.window.showErrorMessage(`MCP server "${server.name}" stopped unexpectedly: ${reason}`, 'Restart', 'Show Output');
    if (choice === 'Restart') void this.restart(server.name).catch((e) => this.reportStartFailure(server.name, e));
    if (choice === 'Show Output') server.channel.show(true);
  }

  reportStartFailure(name: string, error: unknown): void {
    if (error instanceof ServerNotTrustedError && error.declined) return; // the user's own answer
    const server = this.servers.get(name);
    const state = server && serverState(server);
    if (state?.kind === 'error' && state.signIn) {
      const text =
        state.signIn === 'cancelled'
          ? `MCP server "${name}" needs you to sign in (${state.reason}).`
          : `MCP server "${name}" could not sign in: ${state.reason}`;
      void vscode.window.showWarningMessage(text, 'Sign In', 'Show Output').then((choice) => {
        if (choice === 'Sign In') void this.restart(name).catch((e) => this.reportStartFailure(name, e));
        if (choice === 'Show Output') server?.channel.show(true);
      });
      return;
    }
    void vscode.window.showErrorMessage(`MCP server "${name}" could not start: ${(error as Error).message ?? String(error)}`, 'Show Output').then((choice) => {
      if (choice) server?.channel.show(true);
    });
  }

  /** Forgets the server's tokens and client registrations (SecretStorage) and stops it; true when there were some. */
  async signOut(name: string): Promise<boolean> {
    const server = this.requireServer(name);
    const url = server.connection?.server.transport !== 'stdio' ? (server.connection?.server as { url?: string } | undefined)?.url : undefined;
    const target = url ?? (server.definition.type !== 'stdio' ? server.definition.url : undefined);
    if (!target) return false;
    await server.connection?.stop();
    server.signedInAs = undefined;
    const had = await this.services.serverSignIns.signOut(target);
    this.changed.fire();
    return had;
  }

  async stop(name: string): Promise<void> {
    const server = this.requireServer(name);
    await server.connection?.stop();
    this.changed.fire();
  }

  async restart(name: string): Promise<ServerConnection> {
    const server = this.requireServer(name);
    await this.disposeConnection(server);
    server.setupError = undefined;
    return this.start(name);
  }

  /**
   * A file its `dev.watch` names changed: a server that runs (or tried to) restarts, and the calls in flight end
   * saying so. A server stopped by hand stays stopped.
   */
  private async restartForChange(name: string, changed: readonly string[]): Promise<void> {
    const server = this.servers.get(name);
    if (!server || serverState(server).kind === 'stopped') return;
    const what = `${changed.join(', ')} changed (dev.watch)`;
    server.log.info(`restarting: ${what}`);
    await server.connection?.stop(`the server was restarted: ${what}`);
    await this.restart(name).catch((e) => this.reportStartFailure(name, e));
  }

  private restartRunning(why: string): void {
    for (const server of this.servers.values()) {
      if (!['running', 'starting'].includes(serverState(server).kind)) continue;
      server.log.info(`restarting: ${why}`);
      void this.restart(server.name).catch((e) => this.reportStartFailure(server.name, e));
    }
  }

  /** Asks for the server's inputs again (all of them); a running server restarts with the new values. */
  async editInputs(name: string): Promise<void> {
    const server = this.requireServer(name);
    const values = await this.services.serverInputs.valuesFor({ server: server.definition, declared: server.declaredInputs }, this.context.extensionUri, true);
    if (!values) return;
    const wasRunning = server.connection && ['running', 'starting'].includes(server.connection.state.kind);
    await this.disposeConnection(server);
    server.setupError = undefined;
    this.changed.fire();
    if (wasRunning) await this.start(name);
  }

  showOutput(name: string): void {
    this.requireServer(name).channel.show(true);
  }

  private requireServer(name: string): ManagedServer {
    const server = this.servers.get(name);
    if (!server) throw new Error(`There is no MCP server named "${name}" in the configuration.`);
    return server;
  }

  /** `shutdown` was called: the window is going away and nothing starts any more. */
  private shuttingDown = false;

  /**
   * Stops every server at once within SHUTDOWN_BUDGET_MS: stdin ended, SIGTERM to its process group after
   * 1 s, SIGKILL after another; HTTP sessions closed meanwhile. Servers whose stop was already under way (a
   * configuration change) are hurried too. Never waits on logging (a closed channel is ignored).
   */
  async shutdown(): Promise<void> {
    this.shuttingDown = true;
    const stops = [...[...this.servers.values()].map((s) => s.connection?.shutdown()), loadedConnectionBundle()?.stopAllStdioServers()];
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(stops),
      new Promise((resolve) => {
        timer = setTimeout(resolve, SHUTDOWN_BUDGET_MS);
      }),
    ]);
    clearTimeout(timer);
  }

  /** Stops every server (within SHUTDOWN_BUDGET_MS, not awaited) and disposes what the manager owns. */
  override dispose(): void {
    if (this.isDisposed) return;
    void this.shutdown();
    this.servers.clear();
    super.dispose();
  }
}

/** The folder whose .vscode/mcp.json defines a server; the first folder for the user's file. */
function workspaceFolderOf(configFile: string): vscode.WorkspaceFolder | undefined {
  return vscode.workspace.getWorkspaceFolder(vscode.Uri.file(configFile)) ?? vscode.workspace.workspaceFolders?.[0];
}

function workspaceRoots(): Root[] {
  return (vscode.workspace.workspaceFolders ?? []).map((f) => ({ uri: f.uri.toString(), name: f.name }));
}

/** A server in dev mode logs its JSON-RPC traffic (as trace, which its channel shows at Info). */
function logLevel(definition: ServerDefinition): LogLevel {
  return readSettings().trace || definition.dev ? 'trace' : 'debug';
}

function writeLog(channel: vscode.LogOutputChannel, level: LogLevel, message: string): void {
  // Protocol trace is asked for with `mcpHost.trace`; writing it at info keeps it visible without
  // also changing the channel's own log level.
  if (level === 'trace') channel.info(`[trace] ${message}`);
  else channel[level](message);
}
