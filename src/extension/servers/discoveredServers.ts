// Servers configured for other apps (Claude Desktop, Claude Code, Cursor, Windsurf, GitHub Copilot CLI, Codex),
// read only, each source turned on by its own setting (`mcpHost.discovery.<source>`), shown as a group of its own
// in the MCP view. They join the window's servers under a name that says where they come from; their file is
// the other app's, so they start only after the trust question workspace servers get (serverTrust.ts).
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import { affectsSetting, setting } from '../settings';
import type { ServerDefinition } from '../../core/config';
import { carryModules } from '../../core/carryOnDemand';
import type { SourceResult } from '../../core/discovery';
import { DISCOVERY_SOURCES, SOURCE_LABELS, type DiscoverySourceId } from '../../core/discovery/sourceIds';
import { Disposable } from '../../core/events';
import type { ServerManager } from './serverManager';

export interface DiscoveredEntry {
  source: DiscoverySourceId;
  /** The name in the other app's file. */
  originalName: string;
  /** The definition as the window knows it: named `<name> (<app>)`. */
  definition: ServerDefinition;
}

/** Whether a source is turned on (user settings only: the settings are application-scoped). */
export function discoveryEnabled(source: DiscoverySourceId): boolean {
  return setting(`discovery.${source}`) === true;
}

export class DiscoveredServers extends Disposable {
  private results: SourceResult[] = [];
  private entries: DiscoveredEntry[] = [];

  constructor(private readonly manager: ServerManager) {
    super();
    manager.setExtraServers(() => this.read());
    this.register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (affectsSetting(e, 'discovery')) void manager.reload();
      }),
    );
  }

  /** The sources turned on, read again (each file bounded; a broken one is a problem of its source alone). */
  private async read(): Promise<ServerDefinition[]> {
    const enabled = DISCOVERY_SOURCES.filter(discoveryEnabled);
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
    this.results = enabled.length
      ? await carryModules().discovery.discoverServers({ home: homedir(), platform: process.platform, env: process.env, workspaceFolders: folders }, enabled)
      : [];
    this.entries = this.results.flatMap((r) =>
      r.servers.map((s) => ({
        source: r.source,
        originalName: s.definition.name,
        definition: { ...s.definition, name: `${s.definition.name} (${SOURCE_LABELS[r.source]})` },
      })),
    );
    return this.entries.map((e) => e.definition);
  }

  /** The sources turned on, in order, with what was found and what could not be read. */
  get sources(): readonly SourceResult[] {
    return this.results;
  }

  /** The servers of one source, as the window names them. */
  serversOf(source: DiscoverySourceId): DiscoveredEntry[] {
    return this.entries.filter((e) => e.source === source);
  }

  /** The discovered server the window knows by this name. */
  byName(name: string): DiscoveredEntry | undefined {
    return this.entries.find((e) => e.definition.name === name);
  }

  isDiscovered(name: string): boolean {
    return this.byName(name) !== undefined;
  }

  all(): readonly DiscoveredEntry[] {
    return this.entries;
  }
}
