// Resources open read-only in editors through the `mcp-host-resource:` file system. While a resource's tab is open it
// is subscribed (resources/subscribe in 2025-11-25, subscriptions/listen in 2026-07-28) and refreshes on
// notifications/resources/updated; closing its last tab unsubscribes. A server restart subscribes again.

import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { ReadResourceResult } from '@modelcontextprotocol/client';
import type { ServerConnection } from '../../core/connection';
import { Disposable, toDisposable, type IDisposable } from '../../core/events';
import { formatBytes } from '../../core/files';
import { safeFileName } from '../../core/results';
import type { ServerManager } from '../servers/serverManager';
import { errorText } from '../../core/errors';
import { ConnectionState } from '../../core/connection/types';

/** VS Code's own MCP support owns `mcp-resource:`; this extension's resources live beside it. */
export const RESOURCE_SCHEME = 'mcp-host-resource';

/** A document shows at most this many characters of a resource's text. */
const RESOURCE_TEXT_MAX_CHARS = 5 * 1024 * 1024;

/**
 * `mcp-host-resource:/<server>/<file name>?<server and resource URI, base64url>`: the name gives the tab its title and
 * language; the query (immune to the URI's percent-decoding on its way through the workbench) says what to read.
 */
export function resourceDocumentUri(server: string, uri: string): vscode.Uri {
  const name = safeFileName(basename(uri.replace(/[?#].*$/, '')) || 'resource', 'resource');
  const query = Buffer.from(JSON.stringify([server, uri])).toString('base64url');
  return vscode.Uri.from({ scheme: RESOURCE_SCHEME, path: `/${safeFileName(server, 'server')}/${name}`, query });
}

export function parseResourceDocumentUri(doc: vscode.Uri): { server: string; uri: string } | undefined {
  if (doc.scheme !== RESOURCE_SCHEME) return undefined;
  try {
    const [server, uri] = JSON.parse(Buffer.from(doc.query, 'base64url').toString('utf8')) as unknown[];
    return typeof server === 'string' && typeof uri === 'string' ? { server, uri } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What the editor shows: a single binary content as its bytes (an image opens in the image viewer); otherwise
 * the text, with a line for each binary content.
 */
export function resourceBytes(read: ReadResourceResult): Uint8Array {
  const contents = read.contents ?? [];
  const only = contents.length === 1 ? contents[0] : undefined;
  if (only && 'blob' in only && typeof only.blob === 'string') return Buffer.from(only.blob, 'base64');
  return Buffer.from(resourceText(read), 'utf8');
}

/** A read resource as document text: its text contents, and a line for each binary one. */
export function resourceText(read: ReadResourceResult): string {
  const contents = read.contents ?? [];
  const parts = contents.map((c) => {
    const header = contents.length > 1 ? `--- ${c.uri}${c.mimeType ? ` (${c.mimeType})` : ''} ---\n` : '';
    if ('text' in c && typeof c.text === 'string') return header + c.text;
    const size = 'blob' in c && typeof c.blob === 'string' ? Math.floor((c.blob.length * 3) / 4) : 0;
    return `${header}[binary ${c.mimeType ?? 'content'}, about ${formatBytes(size)}: use Read Resource in the MCP view to save it]`;
  });
  const text = parts.join('\n');
  return text.length > RESOURCE_TEXT_MAX_CHARS
    ? `${text.slice(0, RESOURCE_TEXT_MAX_CHARS)}\n[… ${text.length - RESOURCE_TEXT_MAX_CHARS} more characters not shown]`
    : text;
}

interface Watched {
  server: string;
  uri: string;
  connection?: ServerConnection;
  subscription?: Promise<IDisposable | undefined>;
}

/** The window's `mcp-host-resource:` documents (one, created by the container on first use). */
export class ResourceDocuments extends Disposable implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly changed = this.register(new vscode.EventEmitter<vscode.FileChangeEvent[]>());
  readonly onDidChangeFile = this.changed.event;
  private readonly sizes = new Map<string, { size: number; mtime: number }>();
  /** The resources open in tabs, by document URI. */
  private readonly watched = new Map<string, Watched>();
  /** The update listener on each connection a watched resource is subscribed through. */
  private readonly listening = new Map<ServerConnection, IDisposable>();
  /** A read just made by `open`, served to the document's first load instead of reading again. */
  private readonly seeded = new Map<string, ReadResourceResult>();

  constructor(private readonly manager: ServerManager) {
    super();
    for (const subscription of [
      vscode.workspace.registerFileSystemProvider(RESOURCE_SCHEME, this, { isReadonly: true, isCaseSensitive: true }),
      vscode.window.tabGroups.onDidChangeTabs(() => this.sync()),
      vscode.workspace.onDidOpenTextDocument(() => this.sync()),
      manager.onDidChange(() => this.sync()),
      vscode.commands.registerCommand('mcpHost.refreshResource', (doc?: vscode.Uri) => {
        const target = doc ?? vscode.window.activeTextEditor?.document.uri;
        if (target?.scheme === RESOURCE_SCHEME) this.changedResource(target);
      }),
    ])
      this.register(subscription);
    this.register(
      toDisposable(() => {
        for (const watched of this.watched.values()) void watched.subscription?.then((s) => s?.dispose());
        this.watched.clear();
        for (const listener of this.listening.values()) listener.dispose();
        this.listening.clear();
      }),
    );
  }

  // A read-only file system: the editor reloads on `onDidChangeFile` like any file changed on disk.
  async readFile(doc: vscode.Uri): Promise<Uint8Array> {
    const target = parseResourceDocumentUri(doc);
    if (!target) throw vscode.FileSystemError.FileNotFound(doc);
    const key = doc.toString();
    const seeded = this.seeded.get(key);
    this.seeded.delete(key);
    const read = seeded ?? (await (await this.manager.start(target.server)).readResource(target.uri));
    const bytes = resourceBytes(read);
    this.sizes.set(key, { size: bytes.byteLength, mtime: Date.now() });
    return bytes;
  }

  stat(doc: vscode.Uri): vscode.FileStat {
    if (!parseResourceDocumentUri(doc)) throw vscode.FileSystemError.FileNotFound(doc);
    const known = this.sizes.get(doc.toString());
    return { type: vscode.FileType.File, ctime: 0, mtime: known?.mtime ?? Date.now(), size: known?.size ?? 0, permissions: vscode.FilePermission.Readonly };
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }
  readDirectory(): never {
    throw vscode.FileSystemError.NoPermissions('MCP resources are read-only');
  }
  createDirectory(): never {
    throw vscode.FileSystemError.NoPermissions('MCP resources are read-only');
  }
  writeFile(): never {
    throw vscode.FileSystemError.NoPermissions('MCP resources are read-only');
  }
  delete(): never {
    throw vscode.FileSystemError.NoPermissions('MCP resources are read-only');
  }
  rename(): never {
    throw vscode.FileSystemError.NoPermissions('MCP resources are read-only');
  }

  private changedResource(doc: vscode.Uri): void {
    this.sizes.set(doc.toString(), { size: this.sizes.get(doc.toString())?.size ?? 0, mtime: Date.now() });
    this.changed.fire([{ type: vscode.FileChangeType.Changed, uri: doc }]);
  }

  /** Opens the resource in a read-only editor (it stays subscribed while a tab shows it). */
  async open(server: string, uri: string, read?: ReadResourceResult): Promise<void> {
    const docUri = resourceDocumentUri(server, uri);
    const open = vscode.workspace.textDocuments.some((d) => d.uri.toString() === docUri.toString());
    if (read && !open) this.seeded.set(docUri.toString(), read);
    const doc = await vscode.workspace.openTextDocument(docUri);
    this.seeded.delete(docUri.toString());
    // Already open: show what the server has now.
    if (open) this.changedResource(docUri);
    const mimeType = read?.contents?.[0]?.mimeType;
    const language = languageForMime(mimeType);
    if (language && doc.languageId === 'plaintext') await vscode.languages.setTextDocumentLanguage(doc, language);
    await vscode.window.showTextDocument(doc, { preview: true });
    this.sync();
  }

  /** Subscribes to what the tabs show, unsubscribes from what they no longer show; after a restart, again. */
  private sync(): void {
    const shown = new Set<string>();
    for (const group of vscode.window.tabGroups.all) {
      for (const tab of group.tabs) {
        const input = tab.input;
        if (input instanceof vscode.TabInputText && input.uri.scheme === RESOURCE_SCHEME) shown.add(input.uri.toString());
      }
    }
    for (const [key, watched] of this.watched) {
      if (!shown.has(key)) {
        this.watched.delete(key);
        void watched.subscription?.then((s) => s?.dispose());
      }
    }
    for (const key of shown) {
      const target = parseResourceDocumentUri(vscode.Uri.parse(key));
      if (!target) continue;
      let watched = this.watched.get(key);
      if (!watched) this.watched.set(key, (watched = { ...target }));
      const connection = this.manager.get(target.server)?.connection;
      if (!ConnectionState.isRunning(connection?.state)) {
        // Stopped or crashed: its subscriptions are gone; the next start subscribes again.
        watched.connection = undefined;
        watched.subscription = undefined;
        continue;
      }
      if (watched.connection === connection) continue;
      // A new connection (first open, or after a restart): the old subscription ended with the old one.
      watched.connection = connection;
      this.listen(connection);
      watched.subscription = connection.subscribeResource(target.uri).catch((e: unknown) => {
        connection.log.warn(`could not subscribe to ${target.uri}: ${errorText(e)}`);
        return undefined;
      });
    }
    // A connection no tab is subscribed through any more (closed, stopped, replaced) is not listened to.
    const inUse = new Set([...this.watched.values()].map((w) => w.connection));
    for (const [connection, listener] of this.listening) {
      if (inUse.has(connection)) continue;
      listener.dispose();
      this.listening.delete(connection);
    }
  }

  private listen(connection: ServerConnection): void {
    if (this.listening.has(connection)) return;
    this.listening.set(
      connection,
      connection.onDidUpdateResource((uri) => {
        for (const [key, watched] of this.watched) {
          if (watched.connection === connection && watched.uri === uri) this.changedResource(vscode.Uri.parse(key));
        }
      }),
    );
  }
}

export function languageForMime(mimeType: string | undefined): string | undefined {
  if (!mimeType) return undefined;
  if (mimeType.includes('json')) return 'json';
  if (mimeType.includes('markdown')) return 'markdown';
  if (mimeType.includes('html')) return 'html';
  return undefined;
}
