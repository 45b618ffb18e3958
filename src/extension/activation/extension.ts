// Activation: wires the server manager, the Servers view, the status bar and the commands, and
// returns the API the integration tests drive (documented in docs/DESIGN.md, "Extension API").

import * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/client';
import type { ServerDefinition } from '../../core/config';
import type { ConnectionState } from '../../core/connection';
import { findFileSlots } from '../../core/files';
import { buildForm, defaultValues, pointer } from '../../core/forms';
import type { ResultView } from '../../core/results';
import { liveCount } from '../../core/events';
import { FileChoices, runTool } from '../../core/run';
import type { CachedLoad, CodeCacheVerdict } from './codeCache';
import { registerCarryCommands, registerRegistryView, type RegistryView } from '../carry/carryOnDemand';
import { registerCommands } from './commands';
import { Container } from './container';
import { DiscoveredServers } from '../servers/discoveredServers';
import type { TrackedTask } from '../tasks/taskRegistry';
import { TasksTreeProvider } from '../tasks/tasksView';
import { serverState } from '../servers/serverManager';
import { createStatusBarItem, ServersTreeProvider, type ServerTreeNode } from '../servers/serversView';
import { SkillsFeature } from '../servers/skills';
import { inlineLimitsFromSettings } from '../settings';
import { ToolPanel } from '../panels/toolPanel';
import { WebviewHost } from '../panels/webviewHost';
import { registerWalkthrough } from './walkthrough';
import { ReplayTree } from '../replay/replayTree';
import { registerAgentTools, type AgentTools } from '../agents/agentTools';
import { registerSecureValueCommands } from '../servers/secureValues';
import { registerChatParticipant, type McpChatParticipant } from '../agents/chatParticipant';

export interface McpHostApi {
  /** Milliseconds from the load of the extension's entry (start.ts) to the end of `activate()`. */
  activationMs: number;
  /** Whether the extension's code came from the code cache of an earlier activation (start.ts). */
  fromCodeCache: boolean;
  /** Where the activation's time went, and what became of the code cache and why (codeCache.ts). */
  activation: ActivationReport;
  /** The Tasks view's rows: every task of this window, newest first; `tasksView` is its provider. */
  tasks(): TrackedTask[];
  tasksView: { children(): TrackedTask[]; item(task: TrackedTask): vscode.TreeItem };
  servers: {
    list(): { name: string; state: ConnectionState; definition: ServerDefinition }[];
    /** Fires when a server is added, removed or changes state, or its lists change. */
    onDidChange: vscode.Event<void>;
    start(name: string): Promise<void>;
    stop(name: string): Promise<void>;
    restart(name: string): Promise<void>;
    /** The tools of a running server (empty when it is not running). */
    tools(name: string): Tool[];
    /** Re-reads the configuration files now (the file watcher does it too). */
    reload(): Promise<void>;
  };
  /**
   * Calls a tool the way the tool panel does, without the panel: arguments merged over the schema's defaults
   * and validated against the form,
   * files (by slot label, e.g. `image` or `doc.attachment`) checked, read and encoded by the extension.
   * No confirmation is shown. Starts the server if needed.
   */
  callTool(server: string, tool: string, args: Record<string, unknown>, files?: Record<string, string[]>): Promise<ResultView>;
  /** The Servers view's data, as the view gets it. */
  tree: {
    children(node?: ServerTreeNode): ServerTreeNode[];
    item(node: ServerTreeNode): vscode.TreeItem;
  };
  /** The MCP view's registry section, as the view gets it: the first ask reads the registry's first page. */
  registryView: RegistryView;
  /** Where the server log channels are written (one file per channel), the user's mcp.json, and the code cache (none without local storage). */
  paths: { logFolder: vscode.Uri; userConfig: vscode.Uri; codeCache: string | undefined };
  /** Opens (or reveals) the tool panel of a tool. */
  openTool(server: string, tool: string): Promise<void>;
  /**
   * An MCP App's tools/call as the webview's app bridge relays it: to `name` on `server`, from the app of the tool
   * `appTool` (its panel opened if needed). The app's frame itself is the end-to-end tests' business.
   */
  appCallTool(server: string, appTool: string, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** The language model tools chat agents call (files for agents). */
  agents: {
    /** The confirmation the last call asked for (the test workbench answers confirmations by itself). */
    lastConfirmation(): { title: string; message: string } | undefined;
    /** The @mcp chat participant's handler, as chat calls it. */
    participant: vscode.ChatRequestHandler;
  };
  /**
   * What the lifetime test reads: listeners on the manager's change event and on each server's connection, the
   * connections not disposed yet, and the tool panels and webview hosts alive.
   */
  lifetimes(): { changeListeners: number; connections: number; connectionListeners: Record<string, number>; toolPanels: number; webviewPanels: number };
  inputs: {
    /** Stores an input's value (a password input's in SecretStorage) so starting the server asks nothing. */
    set(server: string, id: string, value: string): Promise<void>;
    /** Where an input's value is kept, never the value. */
    storedIn(server: string, id: string): Promise<'secrets' | 'workspaceState' | undefined>;
    clear(server: string): Promise<void>;
  };
  /** SEP-3221 secure values remembered for this workspace: where each is kept (never the value), and forgetting them. */
  secureValues: {
    storedIn(server: string, name: string): Promise<'secrets' | 'workspaceState' | undefined>;
    forget(server: string, names: string[]): Promise<void>;
    /** Remembers values for a tool's secure parameters, as the tool panel does (for tests and scripted setups). */
    set(server: string, tool: string, values: Record<string, unknown>): Promise<void>;
  };
}

/**
 * How the extension's entry (start.ts) loaded this bundle: when VS Code loaded the entry, when it called its
 * activate (which then loaded this bundle), whether from a code cache, and where that cache is kept.
 */
export interface BundleLoad {
  loadedAt: number;
  activateCalledAt: number;
  fromCodeCache: boolean;
  codeCacheDir: string | undefined;
  codeCache: CodeCacheVerdict;
  codeCacheBytes: number;
  phases: CachedLoad<unknown>['phases'];
  /** The process's CPU time (process.cpuUsage) when the entry's activate was called, and once this bundle had loaded. */
  cpuAtActivate: NodeJS.CpuUsage;
  cpuAtBundleLoaded: NodeJS.CpuUsage;
}

/** The parts of an activation, in milliseconds, with the code cache's verdict and the size of the cache read. */
export interface ActivationReport {
  codeCache: CodeCacheVerdict;
  codeCacheBytes: number;
  /** From the entry's load to VS Code's call of its activate(). */
  untilActivateMs: number;
  readMs: number;
  compileMs: number;
  runMs: number;
  /** The extension's activate() itself. */
  activateMs: number;
  /**
   * CPU time of the extension host process (every thread) while the entry's activate loaded this bundle, and
   * while this bundle's activate() ran: unlike the wall clock, not inflated by a busy machine.
   */
  cpu: { loadMs: number; activateMs: number };
}

/** What activation hands the entry: the API, and the window's shutdown for VS Code's deactivate. */
export interface Activation {
  api: McpHostApi;
  /** Stops every server within the shutdown budget (the services go with the context's subscriptions). */
  deactivate(): Promise<void>;
}

export async function activate(context: vscode.ExtensionContext, load: BundleLoad): Promise<Activation> {
  const activateStartedAt = performance.now();
  const container = new Container(context);
  const { manager } = container;
  context.subscriptions.push(container);

  const discovered = new DiscoveredServers(manager);
  const replayTree = new ReplayTree(container.runHistory);
  const tree = new ServersTreeProvider(manager, container, discovered, replayTree);
  const taskRows = new TasksTreeProvider(container.taskRegistry);
  // The resource documents' file system provider serves the tabs restored with the window.
  void container.resourceDocuments;
  context.subscriptions.push(
    replayTree,
    discovered,
    tree,
    vscode.window.createTreeView('mcpHost.servers', { treeDataProvider: tree, showCollapseAll: true }),
    createStatusBarItem(manager),
    taskRows,
    vscode.window.createTreeView('mcpHost.tasks', { treeDataProvider: taskRows }),
  );
  registerCommands(context, container, replayTree);
  registerCarryCommands(context, manager, discovered);
  const registryView = registerRegistryView(context, manager);
  registerWalkthrough(context);
  context.subscriptions.push(registerSecureValueCommands(container));
  const agentTools = registerAgentTools(context, container);
  const skills = new SkillsFeature(manager);
  context.subscriptions.push(skills);
  const participant = registerChatParticipant(context, container, skills);
  await manager.reload();

  const api = createApi(container, tree, taskRows, registryView, { tools: agentTools, participant }, load.codeCacheDir);
  const activatedAt = performance.now();
  const cpuAtEnd = process.cpuUsage();
  const cpuMs = (from: NodeJS.CpuUsage, to: NodeJS.CpuUsage) => (to.user - from.user + to.system - from.system) / 1000;
  api.activationMs = activatedAt - load.loadedAt;
  api.fromCodeCache = load.fromCodeCache;
  api.activation = {
    codeCache: load.codeCache,
    codeCacheBytes: load.codeCacheBytes,
    untilActivateMs: load.activateCalledAt - load.loadedAt,
    ...load.phases,
    activateMs: activatedAt - activateStartedAt,
    cpu: { loadMs: cpuMs(load.cpuAtActivate, load.cpuAtBundleLoaded), activateMs: cpuMs(load.cpuAtBundleLoaded, cpuAtEnd) },
  };
  const ms = (from: number, to: number) => `${(to - from).toFixed(1)} ms`;
  // Written with the host log's first other message: activation opens no output channel for it.
  manager.hostLogLater(
    `activated in ${api.activationMs.toFixed(1)} ms: VS Code called activate ${ms(load.loadedAt, load.activateCalledAt)} after loading the entry, ` +
      `the bundle loaded in ${ms(load.activateCalledAt, activateStartedAt)} (code cache: ${load.codeCache}), activate ran ${ms(activateStartedAt, activatedAt)} ` +
      `(CPU: ${api.activation.cpu.loadMs.toFixed(1)} ms loading, ${api.activation.cpu.activateMs.toFixed(1)} ms activating)`,
  );
  return { api, deactivate: () => manager.shutdown() };
}

function createApi(
  container: Container,
  tree: ServersTreeProvider,
  taskRows: TasksTreeProvider,
  registryView: RegistryView,
  agents: { tools: AgentTools; participant: McpChatParticipant },
  codeCache: string | undefined,
): McpHostApi {
  const { manager, context } = container;
  const request = (name: string) => {
    const server = manager.get(name);
    if (!server) throw new Error(`There is no MCP server named "${name}".`);
    return { server: server.definition, declared: server.declaredInputs };
  };
  return {
    activationMs: 0,
    fromCodeCache: false,
    activation: {
      codeCache: 'no storage',
      codeCacheBytes: 0,
      untilActivateMs: 0,
      readMs: 0,
      compileMs: 0,
      runMs: 0,
      activateMs: 0,
      cpu: { loadMs: 0, activateMs: 0 },
    },
    tasks: () => container.taskRegistry.list(),
    tasksView: { children: () => taskRows.getChildren(), item: (task) => taskRows.getTreeItem(task) },
    servers: {
      list: () => manager.list().map((s) => ({ name: s.name, state: serverState(s), definition: s.definition })),
      onDidChange: manager.onDidChange,
      start: async (name) => {
        await manager.start(name);
      },
      stop: (name) => manager.stop(name),
      restart: async (name) => {
        await manager.restart(name);
      },
      tools: (name) => manager.get(name)?.connection?.tools ?? [],
      reload: () => manager.reload(),
    },
    tree: {
      children: (node) => tree.getChildren(node),
      item: (node) => tree.getTreeItem(node),
    },
    registryView,
    paths: { logFolder: context.logUri, userConfig: manager.userConfigUri, codeCache },
    async callTool(serverName, toolName, args, files = {}) {
      const connection = await manager.start(serverName);
      const tool = connection.tools.find((t) => t.name === toolName);
      if (!tool) throw new Error(`The server "${serverName}" has no tool named "${toolName}".`);
      const slots = findFileSlots(tool, connection.log).slots;
      const model = buildForm(tool.inputSchema, slots);
      const choices = new FileChoices(slots, () => inlineLimitsFromSettings(connection.server.transport));
      for (const [label, paths] of Object.entries(files)) {
        const slot = slots.find((s) => s.label === label || pointer(s.path) === label);
        if (!slot) throw new Error(`${label} is not a file argument of ${toolName}.`);
        const outcome = await choices.add(pointer(slot.path), paths);
        if (!outcome.ok) throw new Error(outcome.reason);
      }
      const hooks = container.runHooks('person');
      const secureArguments = await hooks.secureArguments(connection, tool);
      const input = { form: model, values: { ...defaultValues(model), ...args } };
      const { view } = await runTool(
        connection,
        { tool, input, files: choices, ...(secureArguments ? { secureArguments } : {}) },
        hooks.forCall(connection, tool),
      );
      return view;
    },
    async openTool(serverName, toolName) {
      const connection = await manager.start(serverName);
      const tool = connection.tools.find((t) => t.name === toolName);
      if (!tool) throw new Error(`The server "${serverName}" has no tool named "${toolName}".`);
      await ToolPanel.show(container, serverName, tool);
    },
    async appCallTool(serverName, appTool, name, args) {
      const tool = (await manager.start(serverName)).tools.find((t) => t.name === appTool);
      if (!tool) throw new Error(`The server "${serverName}" has no tool named "${appTool}".`);
      const panel = await ToolPanel.show(container, serverName, tool);
      return panel.webview.request('appCallTool', { name, arguments: args });
    },
    agents: { lastConfirmation: () => agents.tools.lastConfirmation, participant: agents.participant.handle },
    lifetimes: () => ({ ...manager.lifetimes(), toolPanels: liveCount(ToolPanel), webviewPanels: liveCount(WebviewHost) }),
    inputs: {
      set: (name, id, value) => container.serverInputs.set(request(name), id, value),
      storedIn: (name, id) => container.serverInputs.storedIn(request(name), id),
      clear: (name) => container.serverInputs.clear(request(name)),
    },
    secureValues: {
      storedIn: (server, name) => container.secureValues.storedIn(server, name),
      forget: (server, names) => container.secureValues.forget(server, names),
      set: async (server, toolName, values) => {
        const tool = (await manager.start(server)).tools.find((t) => t.name === toolName);
        if (!tool) throw new Error(`The server "${server}" has no tool named "${toolName}".`);
        await container.secureValues.remember(server, tool, values);
      },
    },
  };
}
