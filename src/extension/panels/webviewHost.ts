// A generic, typed host of one webview panel running the app in media/webview.js (the tool panel, elicitation,
// inputs and sampling panels each hold one). It owns the HTML (strict CSP, per-render nonce, resources only from media/), the ready
// handshake (nothing is posted before the webview says `ready`; messages wait in a queue),
// validation of every incoming message, and request/response correlation.

import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import {
  isWebviewMessage,
  type HostNotification,
  type HostResponse,
  type PanelInit,
  type RequestMethod,
  type RequestParams,
  type RequestResult,
  type WebviewNotification,
  type WebviewRequest,
} from '../../shared/protocol';
import { EMPTY_CSP, type AppCsp } from '../../core/apps/csp';
import { Disposable } from '../../core/events';
import { webviewHtml } from './webviewHtml';
import { errorText } from '../../core/errors';

export interface WebviewHostOptions {
  /** Builds the `init` message; called on every `ready` (first load and each reload after the panel was hidden). */
  init: () => PanelInit;
  /** Receives messages that failed validation or handlers that threw; nothing is logged otherwise. */
  onProblem?: (message: string) => void;
  /** The panel may hold MCP App frames: its policy lets in their nonce and the origins they declared. */
  appFrames?: boolean;
}

/** How long a page about to be replaced has to answer `reloadable` (what was typed kept) before it is replaced anyway. */
const RELOAD_WAIT_MS = 2000;

export interface CreatePanelOptions extends WebviewHostOptions {
  viewType: string;
  title: string;
  extensionUri: vscode.Uri;
  column?: vscode.ViewColumn;
  preserveFocus?: boolean;
}

type RequestHandler<M extends RequestMethod> = (params: RequestParams<M>) => RequestResult<M> | Promise<RequestResult<M>>;
type AnyRequestHandler = (params: unknown) => unknown;

/**
 * Owns its webview panel and every listener on it: closing the panel (the user, or `dispose`) disposes the
 * WebviewHost, its owners' `onDidDispose` handlers first.
 */
export class WebviewHost extends Disposable implements vscode.Disposable {
  /** Opens a new panel in the editor area. */
  static create(options: CreatePanelOptions): WebviewHost {
    const panel = vscode.window.createWebviewPanel(
      options.viewType,
      options.title,
      { viewColumn: options.column ?? vscode.ViewColumn.Active, preserveFocus: options.preserveFocus },
      WebviewHost.webviewOptions(options.extensionUri),
    );
    return new WebviewHost(panel, options.extensionUri, options);
  }

  /** Takes over a panel VS Code restored (from a `WebviewPanelSerializer`). */
  static adopt(panel: vscode.WebviewPanel, extensionUri: vscode.Uri, options: WebviewHostOptions): WebviewHost {
    panel.webview.options = WebviewHost.webviewOptions(extensionUri);
    return new WebviewHost(panel, extensionUri, options);
  }

  static webviewOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    return {
      enableScripts: true,
      enableCommandUris: false,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media')],
    };
  }

  private live = false;
  private disposed = false;
  private readonly queue: HostNotification[] = [];
  private readonly messageHandlers = new Set<(message: WebviewNotification) => void>();
  private readonly requestHandlers = new Map<RequestMethod, AnyRequestHandler>();
  private readonly disposeHandlers = new Set<() => void>();
  /** The script nonce of app frames in this panel (never the webview's own), and the origins allowed so far. */
  readonly appNonce = randomBytes(18).toString('base64');
  private appSources: AppCsp = { ...EMPTY_CSP };
  /** Set while a page asked to get ready for its reload has not answered. */
  private reloadTimer: ReturnType<typeof setTimeout> | undefined;

  private constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly extensionUri: vscode.Uri,
    private readonly options: WebviewHostOptions,
  ) {
    super();
    // Disposed last: the listeners below go first, so closing it here calls nothing of this object again.
    this.register(panel);
    this.register(panel.webview.onDidReceiveMessage((message: unknown) => this.receive(message)));
    // A hidden webview loses its document; it says `ready` again when shown.
    this.register(
      panel.onDidChangeViewState(() => {
        if (!panel.visible) this.live = false;
      }),
    );
    this.register(panel.onDidDispose(() => this.dispose()));
    panel.webview.html = this.html();
  }

  get title(): string {
    return this.panel.title;
  }
  set title(value: string) {
    this.panel.title = value;
  }

  /**
   * Widens the panel's policy to the origins an app declared, reloading the webview when that adds any (the
   * webview then asks for `init` again). The app's own policy still holds it to its own declaration. A page the
   * person may be typing into is asked first (`reloading`): it keeps what was typed and takes no more input, so
   * nothing typed goes into a page on its way out.
   */
  allowAppSources(csp: AppCsp): void {
    let grew = false;
    const merged = { ...this.appSources };
    for (const key of Object.keys(merged) as (keyof AppCsp)[]) {
      const added = csp[key].filter((s) => !merged[key].includes(s));
      if (added.length) {
        merged[key] = [...merged[key], ...added];
        grew = true;
      }
    }
    if (!grew || this.disposed) return;
    this.appSources = merged;
    // (a reload already asked for takes the widened policy too)
    if (this.reloadTimer) return;
    if (!this.live || !this.panel.visible) return this.reload();
    // From here on, messages wait for the new page.
    this.live = false;
    this.reloadTimer = setTimeout(() => this.reload(), RELOAD_WAIT_MS);
    void this.panel.webview.postMessage({ type: 'reloading' } satisfies HostNotification);
  }

  private reload(): void {
    clearTimeout(this.reloadTimer);
    this.reloadTimer = undefined;
    if (this.disposed) return;
    this.live = false;
    this.panel.webview.html = this.html();
  }

  override get isDisposed(): boolean {
    return this.disposed;
  }

  /** Posts now when the webview is live, otherwise after its next `ready` (right after `init`). */
  post(message: HostNotification): void {
    if (this.disposed) return;
    if (this.live && this.panel.visible) {
      void this.panel.webview.postMessage(message);
      return;
    }
    // Only the latest progress of a call matters once the webview is back.
    if (message.type === 'progress') {
      const stale = this.queue.findIndex((m) => m.type === 'progress' && m.callId === message.callId);
      if (stale >= 0) this.queue.splice(stale, 1);
    }
    this.queue.push(message);
  }

  /** Every notification from the webview except `ready` and `reloadable` (handled here). */
  onMessage(handler: (message: WebviewNotification) => void): vscode.Disposable {
    this.messageHandlers.add(handler);
    return new vscode.Disposable(() => this.messageHandlers.delete(handler));
  }

  /** Answers the webview's `method` requests; a thrown error is sent back as a failed response. */
  onRequest<M extends RequestMethod>(method: M, handler: RequestHandler<M>): vscode.Disposable {
    this.requestHandlers.set(method, handler as AnyRequestHandler);
    return new vscode.Disposable(() => this.requestHandlers.delete(method));
  }

  onDidDispose(handler: () => void): vscode.Disposable {
    this.disposeHandlers.add(handler);
    return new vscode.Disposable(() => this.disposeHandlers.delete(handler));
  }

  reveal(column?: vscode.ViewColumn, preserveFocus?: boolean): void {
    if (!this.disposed) this.panel.reveal(column, preserveFocus);
  }

  /** Closes the panel (if open) and lets go of every handler. */
  override dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.live = false;
    clearTimeout(this.reloadTimer);
    this.queue.length = 0;
    for (const handler of [...this.disposeHandlers]) handler();
    this.disposeHandlers.clear();
    this.messageHandlers.clear();
    this.requestHandlers.clear();
    super.dispose();
  }

  private receive(message: unknown): void {
    if (!isWebviewMessage(message)) {
      this.options.onProblem?.(`ignored a malformed message from the webview (${messageKind(message)})`);
      return;
    }
    if (message.type === 'ready') return this.handleReady();
    if (message.type === 'reloadable') {
      if (this.reloadTimer) this.reload();
      return;
    }
    if (message.type === 'request') return void this.answer(message);
    for (const handler of [...this.messageHandlers]) {
      try {
        handler(message);
      } catch (error) {
        this.options.onProblem?.(`handling '${message.type}' failed: ${errorText(error)}`);
      }
    }
  }

  private handleReady(): void {
    this.live = true;
    const pending = this.queue.splice(0);
    void this.panel.webview.postMessage({ type: 'init', panel: this.options.init() } satisfies HostNotification);
    // `init` already holds the state; what was queued is applied on top and every handler is idempotent.
    for (const message of pending) if (message.type !== 'init') void this.panel.webview.postMessage(message);
  }

  /** Runs the handler of `method` as a request of the webview does (the test API sends an app's requests this way). */
  async request<M extends RequestMethod>(method: M, params: RequestParams<M>): Promise<RequestResult<M>> {
    const handler = this.requestHandlers.get(method);
    if (!handler) throw new Error(`no handler for '${method}'`);
    return (await handler(params)) as RequestResult<M>;
  }

  private async answer(request: WebviewRequest): Promise<void> {
    let response: HostResponse;
    try {
      const result = await this.request(request.method, request.params);
      // The union of methods does not narrow by `request.method`; the handler was registered for this method.
      response = { type: 'response', id: request.id, method: request.method, ok: true, result } as HostResponse;
    } catch (error) {
      response = { type: 'response', id: request.id, method: request.method, ok: false, error: errorText(error) };
    }
    if (!this.disposed && this.live) void this.panel.webview.postMessage(response);
  }

  private html(): string {
    const webview = this.panel.webview;
    const media = (...parts: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'media', ...parts)).toString();
    return webviewHtml({
      cspSource: webview.cspSource,
      nonce: randomBytes(18).toString('base64'),
      title: this.panel.title,
      scriptUri: media('webview.js'),
      styleUri: media('webview.css'),
      codiconsUri: media('codicons', 'codicon.css'),
      app: this.options.appFrames ? { nonce: this.appNonce, csp: this.appSources } : undefined,
      appBridgeUri: this.options.appFrames ? media('app-bridge.js') : undefined,
    });
  }
}

/** What kind of message the webview sent, for a log line (never its content). */
function messageKind(message: unknown): string {
  if (typeof message === 'object' && message !== null && 'type' in message) return `type ${String(message.type).slice(0, 40)}`;
  return typeof message;
}
