// The extension's side of MCP Apps in a tool panel: after a result, the tool's app resource is read
// (cached per server connection and URI) and sent to the webview; what the app then asks for, relayed by
// the webview's AppBridge, is decided here: tool calls through the host's usual checks and confirmations,
// resources of the app's own server only, links only after the user saw the full URL and agreed, and
// display modes mapped to the editor group.
import * as vscode from 'vscode';
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import { AppResourceCache, appDocument, callableByApp, readAppResource, toolAppUri } from '../../core/apps';
import type { ServerConnection, ToolCallOptions } from '../../core/connection';
import { callToolWithUrlElicitation } from '../../core/elicitation';
import { checkDataUriValue, describeDataUri, findFileSlots, getAtPath } from '../../core/files';
import type { AppFrame } from '../../shared/protocol';
import { WebviewElicitationUi } from '../elicitationUi';
import type { ServerManager } from '../serverManager';
import { readSettings } from '../settings';
import type { McpPanel } from '../webviewPanel';
import { errorText } from '../../core/errors';
import { Disposable, toDisposable } from '../../core/events';

/**
 * App resources per connection: a restart starts afresh; a list change drops them, an update drops that one. The
 * two listeners live as long as the connection (its dispose drops them), one pair per connection, not per panel.
 */
const caches = new WeakMap<ServerConnection, AppResourceCache>();

function cacheFor(connection: ServerConnection): AppResourceCache {
  let cache = caches.get(connection);
  if (!cache) {
    const created = new AppResourceCache();
    connection.onDidChangeLists(() => created.invalidate(connection.name));
    connection.onDidUpdateResource((uri) => created.invalidate(connection.name, uri));
    caches.set(connection, (cache = created));
  }
  return cache;
}

/** Link schemes an app may ask to open (after consent); everything else is refused outright. */
const LINK_SCHEMES = new Set(['https:', 'http:', 'mailto:']);
const MAX_LINK_CHARS = 8192;

export interface ToolPanelAppsContext {
  manager: ServerManager;
  extensionUri: vscode.Uri;
}

/** Owned by its run panel: the request handlers it answers, and leaving full screen when the panel closes. */
export class ToolPanelApps extends Disposable {
  /** The app shown (the newest call's), sent again with every `init`. */
  current: AppFrame | undefined;
  /** The newest call, and its outcome once known (the app may still be loading). */
  private call: { id: string; result?: CallToolResult; reason?: string } | undefined;
  private fullscreen = false;

  constructor(private readonly panel: McpPanel, private readonly context: ToolPanelAppsContext, private readonly server: string,
    private readonly tool: Tool) {
    super();
    this.register(panel.onRequest('appCallTool', (p) => this.callTool(p.name, p.arguments)));
    this.register(panel.onRequest('appReadResource', async (p) => (await this.connection()).readResource(p.uri) as unknown as Record<string, unknown>));
    this.register(panel.onRequest('appOpenLink', (p) => this.openLink(p.url)));
    this.register(panel.onRequest('appDisplayMode', (p) => this.displayMode(p.mode)));
    this.register(toDisposable(() => { if (this.fullscreen) void this.setFullscreen(false); }));
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
      const listed = connection.resources.find((r) => r.uri === uri);
      const app = await cacheFor(connection).get(this.server, uri, () => readAppResource(connection, uri, { listedMeta: listed?._meta }));
      if (this.call?.id !== callId) return;
      this.panel.allowAppSources(app.csp);
      this.current = {
        callId, uri, document: appDocument(app.html, app.csp, this.panel.appNonce),
        toolInput, toolResult: this.call.result as unknown as Record<string, unknown> | undefined,
        permissionsAsked: app.permissionsAsked, warnings: app.warnings, locale: vscode.env.language, prefersBorder: app.prefersBorder,
      };
      this.panel.post({ type: 'appShow', app: this.current });
      if (this.call.reason !== undefined) this.panel.post({ type: 'appToolCancelled', callId, reason: this.call.reason });
    } catch (e) {
      connection.log.warn(`app ${uri}: ${errorText(e)}`);
      this.panel.post({ type: 'appFailed', callId, message: `The app could not be shown: ${errorText(e)}` });
    }
  }

  /** The webview closed the app of `callId`: a panel shown again does not bring it back. */
  closed(callId: string): void {
    if (this.current?.callId === callId) this.current = undefined;
  }

  /** The call ended: its result, or why it has none (cancelled, failed). */
  finish(callId: string, outcome: { result: CallToolResult } | { reason: string }): void {
    if (this.call?.id !== callId) return;
    if ('result' in outcome) this.call.result = outcome.result;
    else this.call.reason = outcome.reason;
    if (this.current?.callId !== callId) return;
    if ('result' in outcome) {
      this.current.toolResult = outcome.result as unknown as Record<string, unknown>;
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
   * mcpHost.confirmEveryCall); then the same call path as Run.
   */
  private async callTool(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
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
        { modal: true, detail: files.length ? files.join('\n') : undefined }, files.length ? 'Send' : 'Run');
      if (choice === undefined) throw new Error('The user declined the call.');
    }
    const settings = readSettings();
    const result = await callToolWithUrlElicitation<CallToolResult, ToolCallOptions>(connection, name, args,
      new WebviewElicitationUi(this.context.extensionUri, connection.server.transport, connection.log), {
        log: connection.log,
        call: { timeoutMs: settings.requestTimeoutMs || undefined, validateOutput: false },
      });
    return result as unknown as Record<string, unknown>;
  }

  /** Opens a web or mail link only after the user saw the whole URL and agreed; other schemes are refused unasked. */
  private async openLink(url: string): Promise<{ opened: boolean }> {
    if (url.length > MAX_LINK_CHARS) throw new Error(`The link is ${url.length} characters long; at most ${MAX_LINK_CHARS} are opened.`);
    let parsed: URL;
    try { parsed = new URL(url); } catch { throw new Error('The link is not a valid URL.'); }
    if (!LINK_SCHEMES.has(parsed.protocol)) throw new Error(`${parsed.protocol} links are not opened; only https, http and mailto.`);
    const choice = await vscode.window.showWarningMessage(
      `The app of "${this.tool.name}" (${this.server}) wants to open a link in your browser.`,
      { modal: true, detail: parsed.href }, 'Open Link');
    if (choice !== 'Open Link') return { opened: false };
    return { opened: await vscode.env.openExternal(vscode.Uri.parse(parsed.href, true)) };
  }

  /** inline = the panel as it is; fullscreen = its editor group maximised, side bars hidden. Anything else keeps the current mode. */
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

