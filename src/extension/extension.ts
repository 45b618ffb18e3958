// Activation: wires the server manager, the Servers view, the status bar and the commands, and
// returns the API the integration tests drive (documented in docs/DESIGN.md, "Extension API").

import * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/client';
import type { ServerDefinition } from '../core/config';
import type { ConnectionState } from '../core/connection';
import { findFileSlots } from '../core/files';
import { buildForm, defaultValues, pointer } from '../core/forms';
import type { ResultView } from '../core/results';
import { liveCount } from '../core/events';
import { FileChoices, runTool } from '../core/run';
import type { CachedLoad, CodeCacheVerdict } from './codeCache';
import { registerCarryCommands } from './carry';
import { registerCommands } from './commands';
import { DiscoveredServers } from './discoveredServers';
import { registerResourceDocuments } from './resources/resourceDocuments';
import { removeOpenedFiles } from './resultActions';
import { registerTasks, tasks, type TrackedTask } from './tasks/taskRegistry';
import { TasksTreeProvider } from './tasks/tasksView';
import { elicitationHandlerFor, WebviewElicitationUi } from './elicitationUi';
import { ServerInputs } from './serverInputs';
import { serverState, ServerManager } from './serverManager';
import { createStatusBarItem, ServersTreeProvider, type ServerTreeNode } from './serversView';
import { SkillsFeature } from './skills';
import { encodeSettings, inlineLimitsFromSettings, readSettings } from './settings';
import { RunPanel } from './runPanel';
import { McpPanel } from './webviewPanel';
import { registerWalkthrough } from './walkthrough';
import { createRunHistory, runHistory } from './replay/runHistory';
import { ReplayTree } from './replay/replayTree';
import { registerAgentTools, type AgentTools } from './agents/agentTools';
import { registerSecureValueCommands, secureValues } from './secureValues';
import { registerChatParticipant, type McpChatParticipant } from './agents/chatParticipant';

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
   * Calls a tool the way the Run Tool panel does, without the panel: arguments merged over the schema's defaults
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
  /** Where the server log channels are written (one file per channel), the user's mcp.json, and the code cache (none without local storage). */
  paths: { logFolder: vscode.Uri; userConfig: vscode.Uri; codeCache: string | undefined };
  /** Opens (or reveals) the Run Tool panel of a tool. */
  openTool(server: string, tool: string): Promise<void>;
  /** The language model tools chat agents call (files for agents). */
  agents: {
    /** The confirmation the last call asked for (the test workbench answers confirmations by itself). */
    lastConfirmation(): { title: string; message: string } | undefined;
    /** The @mcp chat participant's handler, as chat calls it. */
    participant: vscode.ChatRequestHandler;
  };
  /**
   * What the lifetime test reads: listeners on the manager's change event and on each server's connection, the
   * connections not disposed yet, and the run panels and webview panels alive.
   */
  lifetimes(): { changeListeners: number; connections: number; connectionListeners: Record<string, number>; runPanels: number; webviewPanels: number };
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

let activeManager: ServerManager | undefined;

/**
 * How the extension's entry (start.ts) loaded this bundle: when VS Code loaded the entry, when it called its
 * activate (which then loaded this bundle), whether from a code cache, and where that cache is kept.
 */
export interface BundleLoad {
  loadedAt: number; activateCalledAt: number; fromCodeCache: boolean; codeCacheDir: string | undefined;
  codeCache: CodeCacheVerdict; codeCacheBytes: number; phases: CachedLoad<unknown>['phases'];
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
}

export async function activate(context: vscode.ExtensionContext, load: BundleLoad): Promise<McpHostApi> {
  const activateStartedAt = performance.now();
  const inputs = new ServerInputs(context, (problem) => manager.hostLog.warn(`inputs panel: ${problem}`));
  const manager: ServerManager = new ServerManager(context, inputs, (server, log) => elicitationHandlerFor(context.extensionUri, server, log, () => manager.get(server.name)?.connection));
  context.subscriptions.push(manager);
  activeManager = manager;

  const discovered = new DiscoveredServers(manager);
  const history = createRunHistory(context);
  const replayTree = new ReplayTree(history);
  context.subscriptions.push(replayTree);
  const tree = new ServersTreeProvider(manager, discovered, replayTree);
  context.subscriptions.push(
    discovered,
    tree,
    vscode.window.createTreeView('mcpHost.servers', { treeDataProvider: tree, showCollapseAll: true }),
    createStatusBarItem(manager),
    registerResourceDocuments(manager),
    { dispose: removeOpenedFiles },
    registerTasks(manager, (registry) => {
      const provider = new TasksTreeProvider(registry);
      return vscode.Disposable.from(provider, vscode.window.createTreeView('mcpHost.tasks', { treeDataProvider: provider }));
    }),
  );
  context.subscriptions.push({ dispose: () => RunPanel.disposeAll() });
  registerCommands(context, manager, replayTree);
  registerCarryCommands(context, manager, discovered);
  registerWalkthrough(context);
  context.subscriptions.push(registerSecureValueCommands(context, manager));
  const agentTools = registerAgentTools(context, manager);
  const skills = new SkillsFeature(manager);
  context.subscriptions.push(skills);
  const participant = registerChatParticipant(context, manager, skills);
  await manager.reload();

  const api = createApi(context, manager, tree, { tools: agentTools, participant }, load.codeCacheDir);
  const activatedAt = performance.now();
  api.activationMs = activatedAt - load.loadedAt;
  api.fromCodeCache = load.fromCodeCache;
  api.activation = {
    codeCache: load.codeCache, codeCacheBytes: load.codeCacheBytes, untilActivateMs: load.activateCalledAt - load.loadedAt, ...load.phases,
    activateMs: activatedAt - activateStartedAt,
  };
  const ms = (from: number, to: number) => `${(to - from).toFixed(1)} ms`;
  manager.hostLog.info(`activated in ${api.activationMs.toFixed(1)} ms: VS Code called activate ${ms(load.loadedAt, load.activateCalledAt)} after loading the entry, `
    + `the bundle loaded in ${ms(load.activateCalledAt, activateStartedAt)} (code cache: ${load.codeCache}), activate ran ${ms(activateStartedAt, activatedAt)}`);
  return api;
}

/** VS Code waits for this promise (a few seconds at most): every server is stopped within a shorter budget. */
export function deactivate(): Promise<void> | undefined {
  return activeManager?.shutdown();
}

function createApi(context: vscode.ExtensionContext, manager: ServerManager, tree: ServersTreeProvider, agents: { tools: AgentTools; participant: McpChatParticipant },
  codeCache: string | undefined): McpHostApi {
  const request = (name: string) => {
    const server = manager.get(name);
    if (!server) throw new Error(`There is no MCP server named "${name}".`);
    return { server: server.definition, declared: server.declaredInputs };
  };
  const taskRows = new TasksTreeProvider(tasks());
  context.subscriptions.push(taskRows);
  return {
    activationMs: 0,
    fromCodeCache: false,
    activation: { codeCache: 'no storage', codeCacheBytes: 0, untilActivateMs: 0, readMs: 0, compileMs: 0, runMs: 0, activateMs: 0 },
    tasks: () => tasks().list(),
    tasksView: { children: () => taskRows.getChildren(), item: (task) => taskRows.getTreeItem(task) },
    servers: {
      list: () => manager.list().map((s) => ({ name: s.name, state: serverState(s), definition: s.definition })),
      onDidChange: manager.onDidChange,
      start: async (name) => { await manager.start(name); },
      stop: (name) => manager.stop(name),
      restart: async (name) => { await manager.restart(name); },
      tools: (name) => manager.get(name)?.connection?.tools ?? [],
      reload: () => manager.reload(),
    },
    tree: {
      children: (node) => tree.getChildren(node),
      item: (node) => tree.getTreeItem(node),
    },
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
      const settings = readSettings();
      const secureArguments = await secureValues().forModel(serverName, tool, connection);
      const { view } = await runTool(connection, { tool, input: { form: model, values: { ...defaultValues(model), ...args } }, files: choices, ...(secureArguments ? { secureArguments } : {}) }, {
        elicitation: new WebviewElicitationUi(context.extensionUri, connection.server.transport, connection.log),
        timeoutMs: settings.requestTimeoutMs || undefined,
        encode: { ...encodeSettings(connection.server.transport), uploader: connection.files },
        callTool: (_name, a, o) => tasks().callTool(connection, tool, a, o ?? {}),
        record: runHistory()?.recorder('person'),
      });
      return view;
    },
    async openTool(serverName, toolName) {
      const connection = await manager.start(serverName);
      const tool = connection.tools.find((t) => t.name === toolName);
      if (!tool) throw new Error(`The server "${serverName}" has no tool named "${toolName}".`);
      await RunPanel.show({ manager, extensionUri: context.extensionUri }, serverName, tool);
    },
    agents: { lastConfirmation: () => agents.tools.lastConfirmation, participant: agents.participant.handle },
    lifetimes: () => ({ ...manager.lifetimes(), runPanels: liveCount(RunPanel), webviewPanels: liveCount(McpPanel) }),
    inputs: {
      set: (name, id, value) => manager.inputs.set(request(name), id, value),
      storedIn: (name, id) => manager.inputs.storedIn(request(name), id),
      clear: (name) => manager.inputs.clear(request(name)),
    },
    secureValues: {
      storedIn: (server, name) => secureValues().storedIn(server, name),
      forget: (server, names) => secureValues().forget(server, names),
      set: async (server, toolName, values) => {
        const tool = (await manager.start(server)).tools.find((t) => t.name === toolName);
        if (!tool) throw new Error(`The server "${server}" has no tool named "${toolName}".`);
        await secureValues().remember(server, tool, values);
      },
    },
  };
}
