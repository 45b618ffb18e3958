// The commands that bring servers in and out (carryCommands.ts, dist/carry.js) are registered at activation and
// load their bundle when first run: scripts/build.mjs turns this `require` into `require('./carry.js')`.
import * as vscode from 'vscode';
import type { DiscoveredServers } from '../servers/discoveredServers';
import type { ServerManager } from '../servers/serverManager';
import { trackGalleryPolicy } from './registryPolicy';
import type { RegistryNode, RegistryTree } from './registryTree';

type CarryCommands = typeof import('./carryCommands');

// eslint-disable-next-line @typescript-eslint/no-require-imports -- its own bundle, loaded on first use
const carryCommands = (): CarryCommands => require('./carryCommands') as CarryCommands;

/** Browse the registry (MCP: Add Server from Registry…). */
export function browseServers(manager: ServerManager, extensionUri: vscode.Uri): Promise<void> {
  return carryCommands().browseServers(manager, extensionUri);
}

/** Install a bundle, import a discovered server, export servers, read the other apps' configs again; each failure shown as an error message. */
export function registerCarryCommands(context: vscode.ExtensionContext, manager: ServerManager, discovered: DiscoveredServers): void {
  const register = (id: string, run: (...args: never[]) => Promise<void>): void => {
    context.subscriptions.push(
      vscode.commands.registerCommand(id, async (...args: never[]) => {
        try {
          await run(...args);
        } catch (e) {
          void vscode.window.showErrorMessage(`MCP: ${(e as Error).message}`);
        }
      }),
    );
  };
  const serverOf = (arg: unknown): string | undefined =>
    typeof arg === 'string' ? arg : typeof arg === 'object' && arg !== null && 'server' in arg && typeof arg.server === 'string' ? arg.server : undefined;
  register('mcpHost.installBundle', (uri?: vscode.Uri) =>
    carryCommands().installBundleFile(manager, context.extensionUri, uri instanceof vscode.Uri ? uri : undefined),
  );
  register('mcpHost.importServer', (arg?: unknown) => carryCommands().importDiscovered(manager, discovered, serverOf(arg)));
  register('mcpHost.exportServers', (arg?: unknown) => carryCommands().exportServers(manager, serverOf(arg)));
  register('mcpHost.refreshDiscovered', () => manager.reload());
}

/** The registry section as the view (and the integration tests) read it. */
export interface RegistryView {
  children(node?: RegistryNode): Promise<RegistryNode[]>;
  item(node: RegistryNode): vscode.TreeItem;
}

/**
 * The MCP view's registry section. Its provider (registryTree.ts) is in the carry bundle, loaded when VS Code
 * first asks for the section's rows: when it is expanded (it starts collapsed), never at activation.
 */
export function registerRegistryView(context: vscode.ExtensionContext, manager: ServerManager): RegistryView {
  const changed = new vscode.EventEmitter<RegistryNode | undefined>();
  let tree: RegistryTree | undefined;
  const loaded = (): RegistryTree => {
    if (!tree) {
      tree = new (carryCommands().RegistryTree)(manager, context.extensionUri);
      tree.onDidChangeTreeData((node) => changed.fire(node));
    }
    return tree;
  };
  const view: RegistryView = { children: (node) => loaded().getChildren(node), item: (node) => loaded().getTreeItem(node) };
  const run = (id: string, action: (node: unknown) => Promise<void> | void): vscode.Disposable =>
    vscode.commands.registerCommand(id, async (node: unknown) => {
      try {
        await action(node);
      } catch (e) {
        void vscode.window.showErrorMessage(`MCP: ${(e as Error).message}`);
      }
    });
  context.subscriptions.push(
    changed,
    { dispose: () => tree?.dispose() },
    trackGalleryPolicy(),
    vscode.window.createTreeView<RegistryNode>('mcpHost.registry', {
      treeDataProvider: { onDidChangeTreeData: changed.event, getChildren: view.children, getTreeItem: view.item },
    }),
    // Searching is the browser's: it searches as you type.
    run('mcpHost.searchRegistry', async () => {
      await vscode.commands.executeCommand('mcpHost.browseServers');
    }),
    run('mcpHost.loadMoreFromRegistry', () => loaded().loadMore()),
    run('mcpHost.refreshRegistry', () => tree?.refresh()),
    run('mcpHost.installFromRegistry', (node) => loaded().act(node, 'Install')),
    run('mcpHost.installFromRegistryInWorkspace', (node) => loaded().act(node, 'Install in Workspace')),
    run('mcpHost.openRegistryRepository', (node) => loaded().act(node, 'Open Repository')),
  );
  return view;
}
