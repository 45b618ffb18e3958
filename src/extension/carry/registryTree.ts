// The MCP view's registry section: the configured MCP Registry's servers, a page at a time. Nothing is asked of
// the registry until the section is first expanded (VS Code asks for its rows then); **Load more…** follows the
// registry's cursor. A server's row offers Install, Install in Workspace and Open Repository, done by the
// browser's own actOnServer (registryBrowser.ts); its children show what it would run.
import * as vscode from 'vscode';
import { affectsSetting } from '../settings';
import { errorText } from '../../core/errors';
import { installKinds, installTargets, RegistryClient, RegistryPager, type RegistryEntry } from '../../core/registry';
import { actOnServer, registryText, registryUrl, type RegistryAction } from './registryBrowser';
import { galleryAllowed } from './registryPolicy';
import type { ServerManager } from '../servers/serverManager';

export const REGISTRY_VIEW = 'mcpHost.registry';

export type RegistryNode =
  | { kind: 'server'; id: string; entry: RegistryEntry }
  | { kind: 'detail'; id: string; label: string; description?: string; icon: string }
  | { kind: 'more'; retry: boolean }
  | { kind: 'message'; text: string; error: boolean };

/** One registry's list: the pages read so far, and what went wrong with the last one. */
interface Listing {
  url: string;
  pager: RegistryPager;
  request: AbortController;
  servers: Extract<RegistryNode, { kind: 'server' }>[];
  problem?: string;
  firstPage?: Promise<void>;
  loading?: Promise<void>;
}

function serverItem(node: Extract<RegistryNode, { kind: 'server' }>): vscode.TreeItem {
  const { server, status, statusMessage } = node.entry;
  const deprecated = status === 'deprecated';
  const item = new vscode.TreeItem(registryText(server.title ? `${server.title} (${server.name})` : server.name), vscode.TreeItemCollapsibleState.Collapsed);
  item.id = node.id;
  item.description = [
    registryText(server.version, 40),
    deprecated ? 'deprecated' : undefined,
    registryText(installKinds(server).join(', ') || 'nothing to install'),
  ]
    .filter(Boolean)
    .join(' · ');
  // Read out as the row shows it (a string tooltip would be read instead).
  item.accessibilityInformation = { label: `${String(item.label)}, ${item.description}` };
  item.tooltip = [
    `${server.name} ${server.version}`,
    deprecated ? `Deprecated${statusMessage ? `: ${statusMessage}` : ''}` : undefined,
    registryText(server.description, 1000),
    server.repository ? `Repository: ${server.repository.url}` : undefined,
  ]
    .filter(Boolean)
    .join('\n');
  item.iconPath = deprecated ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground')) : new vscode.ThemeIcon('package');
  const installable = installTargets(server).some((t) => !t.unsupported);
  item.contextValue = `mcpRegistryServer${installable ? '.installable' : ''}${server.repository ? '.repository' : ''}`;
  return item;
}

/** What a server's row holds: its description, why it is deprecated, each package or remote, its repository. */
function detailRows(node: Extract<RegistryNode, { kind: 'server' }>): RegistryNode[] {
  const { server, status, statusMessage } = node.entry;
  const row = (key: string, label: string, icon: string, description?: string): RegistryNode => ({
    kind: 'detail',
    id: `${node.id}/${key}`,
    label: registryText(label),
    icon,
    ...(description ? { description: registryText(description) } : {}),
  });
  return [
    ...(server.description ? [row('description', server.description, 'info')] : []),
    ...(status === 'deprecated' ? [row('status', 'Deprecated', 'warning', statusMessage)] : []),
    ...installTargets(server).map((t, i) =>
      row(`target-${i}`, t.label, t.from === 'remote' ? 'globe' : 'package', t.unsupported ? `cannot install: ${t.unsupported}` : undefined),
    ),
    ...(server.repository ? [row('repository', server.repository.url, 'repo', server.repository.subfolder)] : []),
  ];
}

export class RegistryTree implements vscode.TreeDataProvider<RegistryNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<RegistryNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly watch: vscode.Disposable;
  private listing: Listing | undefined;

  constructor(
    private readonly manager: ServerManager,
    private readonly extensionUri: vscode.Uri,
  ) {
    this.watch = vscode.workspace.onDidChangeConfiguration((e) => {
      if (affectsSetting(e, 'registry.url') || e.affectsConfiguration('chat.mcp.access') || e.affectsConfiguration('chat.mcp.gallery.enabled')) this.refresh();
    });
  }

  async getChildren(node?: RegistryNode): Promise<RegistryNode[]> {
    if (node?.kind === 'server') return detailRows(node);
    if (node || !galleryAllowed()) return [];
    const listing = (this.listing ??= this.newListing());
    await (listing.firstPage ??= this.nextPage(listing));
    if (listing !== this.listing) return [];
    const done = listing.pager.done;
    return [
      ...listing.servers,
      ...(listing.problem ? [{ kind: 'message' as const, text: listing.problem, error: true }] : []),
      ...(done && !listing.problem && listing.servers.length === 0 ? [{ kind: 'message' as const, text: 'No servers found', error: false }] : []),
      ...(done ? [] : [{ kind: 'more' as const, retry: listing.problem !== undefined }]),
    ];
  }

  getTreeItem(node: RegistryNode): vscode.TreeItem {
    switch (node.kind) {
      case 'server':
        return serverItem(node);
      case 'detail': {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
        item.id = node.id;
        if (node.description) item.description = node.description;
        item.iconPath = new vscode.ThemeIcon(node.icon);
        item.contextValue = 'mcpRegistryDetail';
        return item;
      }
      case 'more': {
        const item = new vscode.TreeItem(node.retry ? 'Try again' : 'Load more…', vscode.TreeItemCollapsibleState.None);
        item.iconPath = new vscode.ThemeIcon(node.retry ? 'refresh' : 'more');
        item.command = { command: 'mcpHost.loadMoreFromRegistry', title: 'Load more' };
        item.contextValue = 'mcpRegistryMore';
        return item;
      }
      case 'message': {
        const item = new vscode.TreeItem(node.error ? 'The registry could not be read' : node.text, vscode.TreeItemCollapsibleState.None);
        if (node.error) item.description = registryText(node.text);
        item.tooltip = node.text;
        item.iconPath = new vscode.ThemeIcon(node.error ? 'error' : 'info');
        return item;
      }
    }
  }

  /** The next page of the listing shown (or the failed one again). */
  async loadMore(): Promise<void> {
    const listing = this.listing;
    if (!listing || listing.pager.done) return;
    await vscode.window.withProgress({ location: { viewId: REGISTRY_VIEW } }, () => this.nextPage(listing));
    if (listing === this.listing) this.changed.fire(undefined);
  }

  /** Forgets the pages read (the registry's URL or the policy changed, or the user asked): read again when shown. */
  refresh(): void {
    this.listing?.request.abort();
    this.listing = undefined;
    this.changed.fire(undefined);
  }

  /** A server row's Install, Install in Workspace or Open Repository: the browser's own. */
  act(node: unknown, action: RegistryAction): Promise<void> {
    const server = this.listing?.servers.find((s) => s === node || (isServerNode(node) && s.id === node.id));
    if (!server) throw new Error(`${action} is run on a server of the MCP view's registry section`);
    return actOnServer(this.manager, this.extensionUri, server.entry, action);
  }

  dispose(): void {
    this.listing?.request.abort();
    this.watch.dispose();
    this.changed.dispose();
  }

  private newListing(): Listing {
    const url = registryUrl();
    const request = new AbortController();
    return { url, request, pager: new RegistryPager(new RegistryClient(url, { signal: request.signal }), ''), servers: [] };
  }

  private nextPage(listing: Listing): Promise<void> {
    listing.loading ??= (async () => {
      try {
        const page = await listing.pager.next();
        const known = new Set(listing.servers.map((s) => s.id));
        for (const entry of page.entries) {
          const id = `${listing.url} ${entry.server.name}@${entry.server.version}`;
          if (!known.has(id)) listing.servers.push({ kind: 'server', id, entry });
          known.add(id);
        }
        listing.problem = undefined;
      } catch (e) {
        if (!listing.request.signal.aborted) listing.problem = errorText(e);
      } finally {
        listing.loading = undefined;
      }
    })();
    return listing.loading;
  }
}

function isServerNode(node: unknown): node is { kind: 'server'; id: string } {
  return typeof node === 'object' && node !== null && 'kind' in node && node.kind === 'server' && 'id' in node && typeof node.id === 'string';
}
