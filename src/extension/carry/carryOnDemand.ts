// The commands that bring servers in and out (carryCommands.ts, dist/carry.js) are registered at activation and
// load their bundle when first run: scripts/build.mjs turns this `require` into `require('./carry.js')`.
import * as vscode from 'vscode';
import type { DiscoveredServers } from '../servers/discoveredServers';
import type { ServerManager } from '../servers/serverManager';

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
