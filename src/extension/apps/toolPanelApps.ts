// The extension's side of MCP Apps in a tool panel: the tool's app resource is read (cached per server
// connection and URI) and sent to the webview, first as a standby loaded ahead when the panel opens, then
// with each call; while an app shows, its resource is watched and an updated one reloads it. What the app
// asks for, relayed by the webview's AppBridge, is decided here: tool calls through the host's usual checks
// and confirmations, resources of the app's own server only, links only after the user saw the full URL and
// agreed, and display modes mapped to the editor group.
import * as vscode from 'vscode';
import type { CallToolResult, CreateMessageResult, Tool } from '@modelcontextprotocol/client';
import {
  appDocument,
  AppResourceWatch,
  appResourceCacheOf,
  callableByApp,
  readCachedApp,
  toolAppUri,
  type AppResource,
  type AppResourceCache,
} from '../../core/apps';
import type { ServerConnection } from '../../core/connection';
import { checkDataUriValue, describeDataUri, findFileSlots, getAtPath } from '../../core/files';
import type { AppFrame, AppStandby } from '../../shared/protocol';
import { runTool } from '../../core/run';
import { AppDownloads } from './appDownloads';
import type { Container } from '../activation/container';
import { readSettings } from '../settings';
import type { WebviewHost } from '../panels/webviewHost';
import { errorText } from '../../core/errors';
import { samplingRequestProblem, type SamplingHandler, type SamplingRequest } from '../../core/sampling';
import { samplingHandlerFor } from '../sampling/samplingPanel';
import { Disposable, toDisposable, type IDisposable } from '../../core/events';
import { ConnectionState } from '../../core/connection/types';

/** Link schemes an app may ask to open (after consent); everything else is refused outright. */
const LINK_SCHEMES = new Set(['https:', 'http:', 'mailto:']);
const MAX_LINK_CHARS = 8192;
const MAX_CHAT_MESSAGE_CHARS = 8192;

const clipboardKey = (server: string, uri: string): string => `${server}\u0000${uri}`;

/** What an app reaches of the window (container.ts). */
export type ToolPanelAppsContext = Pick<Container, 'manager' | 'extensionUri' | 'runHooks' | 'appClipboardAnswers' | 'appModelContexts'>;

/** Owned by its tool panel: the request handlers it answers, and leaving full screen when the panel closes. */
export class ToolPanelApps extends Disposable {
  /** The app shown (the newest call's), sent again with every `init`. */
  current: AppFrame | undefined;
  /** The tool's app as the webview loads it ahead of the next run, sent again with every `init`. */
  standby: AppStandby | undefined;
  /** The shown app's resource, watched for updates, and its server's lists, changes of which the app is told. */
  private watch: AppResourceWatch | undefined;
  private lists: IDisposable | undefined;
  /** The newest call, and its outcome once known (the app may still be loading). */
  private call: { id: string; result?: CallToolResult; reason?: string } | undefined;
  private fullscreen = false;
  private sampling: SamplingHandler | undefined;
  private watchedConnection: ServerConnection | undefined;

  constructor(
    private readonly panel: WebviewHost,
    private readonly context: ToolPanelAppsContext,
    private readonly server: string,
    private readonly tool: Tool,
  ) {
    super();
    this.register(panel.onRequest('appCallTool', (p) => this.callTool(p.name, p.arguments)));
    this.register(panel.onRequest('appReadResource', async (p) => (await this.connection()).readResource(p.uri)));
    this.register(panel.onRequest('appOpenLink', (p) => this.openLink(p.url)));
    this.register(panel.onRequest('appDisplayMode', (p) => this.displayMode(p.mode)));
    const downloads = new AppDownloads({ server, tool: tool.title ?? tool.name }, () => this.connection());
    this.register(panel.onRequest('appDownloadFile', (p) => downloads.request(p.contents)));
    this.register(panel.onRequest('appMessage', (p) => this.offerToChat(p.text)));
    this.register(panel.onRequest('appSampling', (p) => this.sample(p)));
    this.register(panel.onRequest('appModelContext', (p) => this.keepModelContext(p.callId, p.text)));
    this.register(
      toDisposable(() => {
        this.stopWatching();
        if (this.fullscreen) void this.setFullscreen(false);
      }),
    );
  }

  /** As the panel opens: the app is read and loaded ahead (hidden) when its server runs; a failure waits for Run. */
  async prepare(): Promise<void> {
    const connection = this.context.manager.get(this.server)?.connection;
    if (!ConnectionState.isRunning(connection?.state)) return;
    const uri = toolAppUri(connection.tools.find((t) => t.name === this.tool.name) ?? this.tool);
    if (!uri) return;
    try {
      const app = await readCachedApp(connection, appResourceCacheOf(connection), uri);
      if (this.panel.isDisposed || this.standby) return;
      this.panel.allowAppSources(app.csp);
      this.standby = this.standbyOf(app);
      this.panel.post({ type: 'appPrepare', app: this.standby });
    } catch (e) {
      connection.log.debug(`app ${uri} not loaded ahead: ${errorText(e)}`);
    }
  }

  private standbyOf(app: AppResource): AppStandby {
    return {
      uri: app.uri,
      document: appDocument(app.html, app.csp, this.panel.appNonce),
      permissionsAsked: app.permissionsAsked,
      warnings: app.warnings,
      locale: vscode.env.language,
      prefersBorder: app.prefersBorder,
      ...(app.permissionsAsked.includes('clipboardWrite') && this.context.appClipboardAnswers.get(clipboardKey(this.server, app.uri))
        ? { clipboardWrite: true }
        : {}),
    };
  }

  /** An app asking for clipboardWrite, at its first run this session: the person allows it or not (remembered). */
  private async askClipboard(app: AppResource): Promise<void> {
    const key = clipboardKey(this.server, app.uri);
    if (!app.permissionsAsked.includes('clipboardWrite') || this.context.appClipboardAnswers.has(key)) return;
    const choice = await vscode.window.showWarningMessage(
      `The app ${app.uri} of "${this.tool.name}" (${this.server}) asks to write to your clipboard.`,
      { modal: true, detail: 'Allowed, it can replace what you copied whenever it runs, until VS Code restarts. Its other requests are unchanged.' },
      'Allow',
    );
    this.context.appClipboardAnswers.set(key, choice === 'Allow');
  }

  /**
   * As a call starts: reads the app (cached) and shows it with the tool's input, so it loads while the tool
   * runs; `finish` then hands it the result. A failure is shown in the panel; the result stays.
   */
  async begin(connection: ServerConnection, callId: string, toolInput: Record<string, unknown>): Promise<void> {
    const tool = connection.tools.find((t) => t.name === this.tool.name) ?? this.tool;
    const uri = toolAppUri(tool);
    if (!uri) return;
    this.call = { id: callId };
    try {
      const cache = appResourceCacheOf(connection);
      const app = await readCachedApp(connection, cache, uri);
      if (this.call?.id !== callId) return;
      await this.askClipboard(app);
      if (this.call?.id !== callId || this.panel.isDisposed) return;
      this.panel.allowAppSources(app.csp);
      this.standby = this.standbyOf(app);
      this.current = { ...this.standby, callId, toolInput, toolResult: this.call.result as unknown as Record<string, unknown> | undefined };
      this.panel.post({ type: 'appShow', app: this.current });
      this.watchShown(connection, cache, app);
      if (this.call.reason !== undefined) this.panel.post({ type: 'appToolCancelled', callId, reason: this.call.reason });
    } catch (e) {
      connection.log.warn(`app ${uri}: ${errorText(e)}`);
      // The failure note replaces the app shown before.
      this.closed(this.current?.callId ?? '');
      this.panel.post({ type: 'appFailed', callId, message: `The app could not be shown: ${errorText(e)}` });
    }
  }

  /** The webview closed the app of `callId`: a panel shown again does not bring it back. */
  closed(callId: string): void {
    if (this.current?.callId !== callId) return;
    this.current = undefined;
    // Nothing of the app runs until the next Run: no standby either (the webview dropped its own).
    this.standby = undefined;
    this.stopWatching();
  }

  /** No longer watching the shown app's resource or its server's lists. */
  private stopWatching(): void {
    this.watch?.dispose();
    this.watch = undefined;
    this.lists?.dispose();
    this.lists = undefined;
  }

  /**
   * While the app shows: subscribed to its resource (when the server offers subscriptions), read again when the
   * server reports it updated or its lists change; a changed document reloads the app with the same call's
   * input and result (and becomes the standby of the next run).
   */
  private watchShown(connection: ServerConnection, cache: AppResourceCache, app: AppResource): void {
    if (this.watch?.uri === app.uri && this.watchedConnection === connection) return;
    this.stopWatching();
    this.watchedConnection = connection;
    this.lists = connection.onDidChangeLists((list) => {
      if (list === 'prompts' || this.panel.isDisposed) return;
      this.panel.post({ type: 'appListChanged', list: list === 'tools' ? 'tools' : 'resources' });
    });
    this.watch = new AppResourceWatch(connection, cache, app.uri, {
      shown: app,
      onProblem: (message) => connection.log.warn(`app ${app.uri}: ${message}`),
      onChanged: (updated) => {
        if (this.panel.isDisposed) return;
        connection.log.info(`app ${updated.uri} changed on the server: reloading it`);
        this.panel.allowAppSources(updated.csp);
        this.standby = this.standbyOf(updated);
        if (this.current?.uri === updated.uri) {
          this.current = { ...this.current, ...this.standby };
          this.panel.post({ type: 'appShow', app: this.current });
        } else {
          this.panel.post({ type: 'appPrepare', app: this.standby });
        }
      },
    });
  }

  /** The call ended: its result, or why it has none (cancelled, failed). */
  finish(callId: string, outcome: { result: CallToolResult } | { reason: string }): void {
    if (this.call?.id !== callId) return;
    if ('result' in outcome) this.call.result = outcome.result;
    else this.call.reason = outcome.reason;
    if (this.current?.callId !== callId) return;
    if ('result' in outcome) {
      this.current.toolResult = outcome.result;
      this.panel.post({ type: 'appToolResult', callId, toolResult: this.current.toolResult });
    } else {
      this.panel.post({ type: 'appToolCancelled', callId, reason: outcome.reason });
    }
  }

  private async connection(): Promise<ServerConnection> {
    return this.context.manager.start(this.server);
  }

  /**
   * An app's tools/call: only tools of its own server that are visible to apps; file slot values must be
   * data: URIs that pass the slot's checks and are sent only after the user agreed (as is every call with
   * mcpHost.confirmEveryCall); then the window's run pipeline, as every caller's: the tool's secure values
   * (SEP-3221) added, a tool that must run as a task run as one, required URLs asked.
   */
  private async callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    const connection = await this.connection();
    const tool = connection.tools.find((t) => t.name === name);
    if (!tool) throw new Error(`"${this.server}" has no tool "${name}".`);
    if (!callableByApp(tool)) throw new Error(`The tool "${name}" is not available to apps.`);
    const files: string[] = [];
    for (const slot of findFileSlots(tool).slots) {
      const value = getAtPath(args, slot.path);
      if (value === undefined || value === null) continue;
      for (const item of Array.isArray(value) ? value : [value]) {
        const check = checkDataUriValue(slot.label, item, slot);
        if (!check.ok) throw new Error(check.reason);
        files.push(`${slot.label}: ${describeDataUri(item as string) ?? 'a file'}`);
      }
    }
    if (files.length > 0 || readSettings().confirmEveryCall) {
      const what = files.length > 0 ? `send ${files.length === 1 ? 'a file' : `${files.length} files`} to` : 'run';
      const choice = await vscode.window.showWarningMessage(
        `The app of "${this.tool.name}" wants to ${what} the tool "${name}" on "${this.server}".`,
        { modal: true, detail: files.length ? files.join('\n') : undefined },
        files.length ? 'Send' : 'Run',
      );
      if (choice === undefined) throw new Error('The user declined the call.');
    }
    const hooks = this.context.runHooks('app');
    const secureArguments = await hooks.secureArguments(connection, tool);
    const { result } = await runTool(
      connection,
      { tool, input: { json: args }, ...(secureArguments ? { secureArguments } : {}) },
      hooks.forCall(connection, tool),
    );
    return result;
  }

  /** Opens a web or mail link only after the user saw the whole URL and agreed; other schemes are refused unasked. */
  private async openLink(url: string): Promise<{ opened: boolean }> {
    if (url.length > MAX_LINK_CHARS) throw new Error(`The link is ${url.length} characters long; at most ${MAX_LINK_CHARS} are opened.`);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error('The link is not a valid URL.');
    }
    if (!LINK_SCHEMES.has(parsed.protocol)) throw new Error(`${parsed.protocol} links are not opened; only https, http and mailto.`);
    const choice = await vscode.window.showWarningMessage(
      `The app of "${this.tool.name}" (${this.server}) wants to open a link in your browser.`,
      { modal: true, detail: parsed.href },
      'Open Link',
    );
    if (choice !== 'Open Link') return { opened: false };
    return { opened: await vscode.env.openExternal(vscode.Uri.parse(parsed.href, true)) };
  }

  /** The app's name for the person: its resource URI (the server is named beside it). */
  private get appName(): string {
    return `The app ${this.current?.uri ?? `of "${this.tool.name}"`}`;
  }

  /**
   * `ui/message`: put in the chat input as the next message (the person still sends it), once they agreed here.
   * Declined, or no chat in this VS Code: the app is told it was not sent.
   */
  private async offerToChat(text: string): Promise<{ sent: boolean }> {
    const shown = text.length > MAX_CHAT_MESSAGE_CHARS ? `${text.slice(0, MAX_CHAT_MESSAGE_CHARS)}…` : text;
    const choice = await vscode.window.showWarningMessage(
      `${this.appName} (${this.server}) offers a message for chat.`,
      { modal: true, detail: shown },
      'Put in Chat',
    );
    if (choice !== 'Put in Chat') return { sent: false };
    try {
      await vscode.commands.executeCommand('workbench.action.chat.open', { query: shown, isPartialQuery: true });
      return { sent: true };
    } catch (e) {
      void vscode.window.showWarningMessage(`The app's message could not be put in chat: ${errorText(e)}`);
      return { sent: false };
    }
  }

  /** `ui/update-model-context` from the app shown (not one already replaced): for the @mcp participant's next turn. */
  private keepModelContext(callId: string, text: string): { kept: boolean } {
    const app = this.current;
    if (!app || app.callId !== callId) return { kept: false };
    this.context.appModelContexts.keep(this.server, app.uri, text);
    return { kept: true };
  }

  /**
   * `sampling/createMessage` from the app: the host's limits, then the sampling approval panel, which names the app
   * and its server (never approved without asking).
   */
  private async sample(params: Record<string, unknown>): Promise<CreateMessageResult> {
    const request = params as unknown as SamplingRequest;
    const problem = Array.isArray(request.messages) ? samplingRequestProblem(request) : 'the request has no messages';
    if (problem) throw new Error(`The sampling request was refused: ${problem}.`);
    const connection = await this.connection();
    this.sampling ??= samplingHandlerFor(this.context.extensionUri, connection.log);
    const abort = new AbortController();
    const stop = this.panel.onDidDispose(() => abort.abort());
    try {
      // The host's own answer (samplingPanel): a text block from the model the person approved.
      return (await this.sampling(request, { server: this.server, signal: abort.signal, requester: this.appName })) as CreateMessageResult;
    } finally {
      stop.dispose();
    }
  }

  /**
   * inline = the panel as it is; fullscreen = its editor group maximised, side bars hidden. Anything else (pip: a
   * webview cannot float over the editor, so it is not in availableDisplayModes) keeps the current mode, as the spec
   * asks of a mode the host does not offer.
   */
  private async displayMode(mode: string): Promise<{ mode: 'inline' | 'fullscreen' }> {
    if (mode === 'fullscreen' || mode === 'inline') await this.setFullscreen(mode === 'fullscreen');
    return { mode: this.fullscreen ? 'fullscreen' : 'inline' };
  }

  private async setFullscreen(on: boolean): Promise<void> {
    if (on === this.fullscreen) return;
    this.fullscreen = on;
    const run = (command: string) => vscode.commands.executeCommand(command).then(undefined, () => undefined);
    if (on) {
      this.panel.reveal();
      await run('workbench.action.maximizeEditorHideSidebar');
    } else {
      // The side bar comes back (focusing it shows it), then the panel has the focus again.
      await run('workbench.action.focusSideBar');
      if (!this.panel.isDisposed) this.panel.reveal();
    }
  }
}
