// The MCP commands: run a tool (palette, tree, Explorer), get a prompt, server lifecycle,
// configuration files, the guided Add Server…, and server inputs.

import { readBoundedText } from '../../core/io/boundedRead';
import { FILE_LIMITS } from '../../core/io/limits';
import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { Prompt, Tool } from '@modelcontextprotocol/client';
import { offeredToUser, toolAppUri } from '../../core/apps';
import { checkFile, describeAccept, findFileSlots, type FileSlot } from '../../core/files';
import { pointer } from '../../core/forms';
import { browseServers } from '../carry/carryOnDemand';
import { addServerToConfig, serverNamesIn, splitCommandLine, suggestServerName, uniqueServerName, type NewServerEntry } from '../servers/configEdits';
import { templateVariables } from '../resources/templates';
import { readResourceInEditor } from '../panels/resultActions';
import { describeNotStarted, describeStartQuestions, entryLabel, toolLabel, type StartQuestions } from '../servers/serverDescriptions';
import type { KnownTool } from '../servers/knownTools';
import { serverState, type ManagedServer, type ServerManager } from '../servers/serverManager';
import type { ServerTreeNode } from '../servers/serversView';
import { inlineLimitsFromSettings } from '../settings';
import { ToolPanel } from '../panels/toolPanel';
import { REPLAY_COMMANDS, replayCommands, type ReplayTree } from '../replay/replayTree';
import type { Container } from './container';
import { errorText } from '../../core/errors';
import { DisposableStore } from '../../core/events';
import { oneLine } from '../../shared/format';
import { ConnectionState } from '../../core/connection/types';

/** How long "Run MCP Tool with This File…" waits for servers to start before offering what it has. */
const EXPLORER_START_WAIT_MS = 15_000;

type ServerArg = string | ServerTreeNode | undefined;

export function registerCommands(context: vscode.ExtensionContext, container: Container, replayTree?: ReplayTree): void {
  const { manager } = container;
  const register = (id: string, run: (...args: never[]) => unknown): void => {
    context.subscriptions.push(
      vscode.commands.registerCommand(id, async (...args: never[]) => {
        try {
          return await run(...args);
        } catch (e) {
          void vscode.window.showErrorMessage(`MCP: ${errorText(e)}`);
          return undefined;
        }
      }),
    );
  };

  // History and Saved Calls: their commands are loaded with their bundle on first use.
  if (replayTree) {
    let handlers: Record<string, (...args: never[]) => unknown> | undefined;
    const deps = {
      panels: container,
      history: container.runHistory,
      tree: replayTree,
      showFilled: ToolPanel.showFilled.bind(ToolPanel),
      activePanel: () => container.toolPanels.active(),
    };
    for (const id of REPLAY_COMMANDS) register(id, (...args: never[]) => (handlers ??= replayCommands().replayCommandHandlers(deps))[id]!(...args));
  }

  register('mcpHost.runTool', async (serverArg?: ServerArg, toolName?: string) => {
    const chosen = await givenOrPicked(manager, TOOLS, serverArg, toolName);
    if (chosen) await ToolPanel.show(container, chosen.server, chosen.entry);
  });
  register('mcpHost.getPrompt', async (serverArg?: ServerArg, promptName?: string) => {
    const chosen = await givenOrPicked(manager, PROMPTS, serverArg, promptName);
    if (chosen) await ToolPanel.showPrompt(container, chosen.server, chosen.entry);
  });

  register('mcpHost.startServer', async (arg?: ServerArg) => {
    const name = serverNameOf(arg) ?? (await pickServer(manager, 'Start which MCP server?', (s) => !ConnectionState.isRunning(serverState(s))));
    if (name) await manager.start(name).catch((e) => manager.reportStartFailure(name, e));
  });
  register('mcpHost.stopServer', async (arg?: ServerArg) => {
    const name = serverNameOf(arg) ?? (await pickServer(manager, 'Stop which MCP server?', (s) => ['running', 'starting'].includes(serverState(s).kind)));
    if (name) await manager.stop(name);
  });
  register('mcpHost.restartServer', async (arg?: ServerArg) => {
    const name = serverNameOf(arg) ?? (await pickServer(manager, 'Restart which MCP server?'));
    if (name) await manager.restart(name).catch((e) => manager.reportStartFailure(name, e));
  });
  register('mcpHost.allowSandboxRefusal', async (node?: ServerTreeNode) => {
    if (node?.kind === 'sandboxRefusal') await container.sandboxRefusals.allow(node.server, node.refusal);
  });
  register('mcpHost.showOutput', async (arg?: ServerArg) => {
    const name = serverNameOf(arg) ?? (await pickServer(manager, 'Show the output of which MCP server?'));
    if (name) manager.showOutput(name);
  });
  register('mcpHost.editServerInputs', async (arg?: ServerArg) => {
    const name =
      serverNameOf(arg) ??
      (await pickServer(
        manager,
        'Edit the inputs of which MCP server?',
        (s) => container.serverInputs.uses({ server: s.definition, declared: s.declaredInputs }),
        'No configured MCP server uses ${input:…} variables.',
      ));
    if (name) await manager.editInputs(name);
  });
  const remote = (s: { definition: { type: string } }) => s.definition.type !== 'stdio';
  register('mcpHost.signIn', async (arg?: ServerArg) => {
    const name = serverNameOf(arg) ?? (await pickServer(manager, 'Sign in to which MCP server?', remote, 'No configured MCP server is reached over HTTP.'));
    // The server asks for the sign-in when it starts; the user is asked before the browser opens.
    if (name) await manager.restart(name).catch((e) => manager.reportStartFailure(name, e));
  });
  register('mcpHost.signOut', async (arg?: ServerArg) => {
    const name = serverNameOf(arg) ?? (await pickServer(manager, 'Sign out of which MCP server?', remote, 'No configured MCP server is reached over HTTP.'));
    if (!name) return;
    const had = await manager.signOut(name);
    void vscode.window.showInformationMessage(
      had ? `Signed out of MCP server "${name}": its tokens are forgotten.` : `MCP server "${name}" had no sign-in to forget.`,
    );
  });
  register('mcpHost.readResource', async (server?: string, uri?: string) => {
    if (server && uri) await readResourceInEditor(container, server, uri);
  });
  register('mcpHost.openResourceTemplate', async (server?: string, uriTemplate?: string) => {
    const template = server ? manager.get(server)?.connection?.resourceTemplates.find((t) => t.uriTemplate === uriTemplate) : undefined;
    if (!server || !template) return;
    await ToolPanel.showTemplate(container, server, { kind: 'template', template, variables: templateVariables(template) });
  });

  register('mcpHost.openWorkspaceConfig', async () => {
    const uri = manager.workspaceConfigUris[0];
    if (!uri) {
      void vscode.window.showInformationMessage('Open a folder first: the workspace configuration lives in its .vscode/mcp.json.');
      return;
    }
    await openConfig(uri);
  });
  register('mcpHost.openUserConfig', () => openConfig(manager.userConfigUri));
  register('mcpHost.addServer', () => addServer(manager));
  register('mcpHost.browseServers', () => browseServers(manager, context.extensionUri));
  register('mcpHost.runToolWithFile', async (uri?: vscode.Uri) => {
    const target = uri ?? vscode.window.activeTextEditor?.document.uri;
    if (!target || target.scheme !== 'file') {
      void vscode.window.showInformationMessage('Run MCP Tool with This File… works on files on this machine.');
      return;
    }
    await runToolWithFile(manager, container, target.fsPath);
  });
}

function serverNameOf(arg: ServerArg): string | undefined {
  if (typeof arg === 'string') return arg;
  if (arg && 'server' in arg) return arg.server;
  return undefined;
}

async function pickServer(
  manager: ServerManager,
  placeHolder: string,
  filter: (s: ManagedServer) => boolean = () => true,
  none = 'No MCP server is configured. Use MCP: Add Server… to add one.',
): Promise<string | undefined> {
  const servers = manager.list().filter(filter);
  if (servers.length === 0) {
    void vscode.window.showInformationMessage(none);
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    servers.map((s) => ({ label: s.name, description: serverState(s).kind })),
    { placeHolder },
  );
  return picked?.label;
}

interface PickItem<T> extends vscode.QuickPickItem {
  server: string;
  entry?: T;
  /** A tool the server offered when it last ran: picking the row starts the server, then opens the tool of this name. */
  knownName?: string;
}

/** What a server-wide quick pick offers: tools (MCP: Run Tool…) or prompts (MCP: Get Prompt…). */
interface PickKind<T extends { name: string }> {
  title: string;
  placeholder: string;
  entries(connection: NonNullable<ManagedServer['connection']>): readonly T[];
  item(entry: T): Pick<vscode.QuickPickItem, 'label' | 'detail'>;
  /** The entry a Servers-view row stands for, if it is one of these. */
  fromNode(node: ServerTreeNode): T | undefined;
  /** What a server not running offered when it last ran (tools only). */
  known?(manager: ServerManager, server: ManagedServer): readonly KnownTool[];
}

const TOOLS: PickKind<Tool> = {
  title: 'MCP: Run Tool',
  placeholder: 'Choose a tool to run, or type its name',
  entries: (connection) => connection.tools.filter(offeredToUser),
  fromNode: (node) => (node.kind === 'tool' ? node.tool : undefined),
  item: (tool) => ({
    label: `${toolAppUri(tool) ? '$(window) ' : findFileSlots(tool).slots.length > 0 ? '$(file-binary) ' : '$(tools) '}${toolLabel(tool)}`,
    detail: [toolAppUri(tool) ? 'App' : '', oneLine(tool.description?.split('\n')[0]?.slice(0, 200) ?? '')].filter(Boolean).join(' — ') || undefined,
  }),
  known: (manager, server) => manager.knownToolsOf(server),
};

const PROMPTS: PickKind<Prompt> = {
  title: 'MCP: Get Prompt',
  placeholder: 'Choose a prompt',
  entries: (connection) => connection.prompts,
  fromNode: (node) => (node.kind === 'prompt' ? node.prompt : undefined),
  item: (prompt) => ({
    label: `$(comment-discussion) ${entryLabel(prompt)}`,
    detail: prompt.description && oneLine(prompt.description.split('\n')[0]!.slice(0, 200)),
  }),
};

/** A row's description: the entry's name when its label is a title (so typing the name finds it), and the server. */
function nameAndServer(name: string, label: string, server: string): string {
  return label.replace(/^\$\([\w-]+\) /, '') === name ? server : `${name} · ${server}`;
}

/** The entry the typed text names exactly (its name or its title), if any. */
function namedBy<T extends { name: string }>(kind: PickKind<T>, entries: readonly T[], typed: string): T | undefined {
  const wanted = typed.trim().toLowerCase();
  if (!wanted) return undefined;
  return (
    entries.find((e) => e.name.toLowerCase() === wanted) ??
    entries.find(
      (e) =>
        kind
          .item(e)
          .label.replace(/^\$\([\w-]+\) /, '')
          .toLowerCase() === wanted,
    )
  );
}

/**
 * The tool (or prompt) a command was given: a Servers-view row, or a server and a name (from a tree
 * item's command). Without one, or when the server no longer has it, the user picks.
 */
async function givenOrPicked<T extends { name: string }>(
  manager: ServerManager,
  kind: PickKind<T>,
  arg: ServerArg,
  name: string | undefined,
): Promise<{ server: string; entry: T } | undefined> {
  const server = serverNameOf(arg);
  let entry = typeof arg === 'object' ? kind.fromNode(arg) : undefined;
  if (!entry && server && name) entry = kind.entries(await manager.start(server)).find((e) => e.name === name);
  return server && entry ? { server, entry } : pickFromServers(manager, kind);
}

/**
 * A quick pick of every tool (or prompt) of every running or startable server. Servers that start without
 * asking anything are started in the background and their entries appear as they come; the others get a
 * "Start …" row that stays whatever is typed (saying what starting asks), and a row per tool they offered
 * when they last ran. Picking one of those asks the server's questions (trust, inputs), then opens the entry;
 * so does a "Start …" row picked while the typed text names one of the server's entries. Otherwise the pick
 * opens again, filtered by the typed text unless that text was typed to find the "Start …" row.
 */
async function pickFromServers<T extends { name: string }>(
  manager: ServerManager,
  kind: PickKind<T>,
  typed = '',
): Promise<{ server: string; entry: T } | undefined> {
  if (manager.list().length === 0) {
    const choice = await vscode.window.showInformationMessage('No MCP server is configured.', 'Add Server…');
    if (choice) await vscode.commands.executeCommand('mcpHost.addServer');
    return undefined;
  }
  // The quick pick and its listeners; a background start that ends after it closed finds it gone.
  const owned = new DisposableStore();
  const quickPick = owned.add(vscode.window.createQuickPick<PickItem<T>>());
  quickPick.title = kind.title;
  quickPick.placeholder = kind.placeholder;
  quickPick.matchOnDescription = true;
  quickPick.matchOnDetail = true;
  quickPick.keepScrollPosition = true;
  quickPick.value = typed;
  // Rows keep arriving while servers start; a view that takes focus meanwhile (the walkthrough ticking its
  // "Run a tool" step as this opens) must not close it. Escape still does.
  quickPick.ignoreFocusOut = true;
  /** What starting each server not started asks (trust, inputs), or why it cannot start here. */
  const questions = new Map<string, StartQuestions>();
  const pending = new Set<string>();
  // Servers in the order their rows first appeared: a server that finishes starting adds its rows
  // below the ones shown, so no row moves under the pointer.
  const shown: string[] = [];

  const refresh = (): void => {
    if (owned.isDisposed) return;
    const servers = manager.list();
    for (const s of servers) if (!pending.has(s.name) && !shown.includes(s.name)) shown.push(s.name);
    const items: PickItem<T>[] = [];
    for (const name of shown) {
      const s = servers.find((candidate) => candidate.name === name);
      if (!s) continue;
      const state = serverState(s);
      if (ConnectionState.isRunning(state) && s.connection) {
        for (const entry of kind.entries(s.connection)) {
          const look = kind.item(entry);
          items.push({ ...look, description: nameAndServer(entry.name, look.label, s.name), server: s.name, entry });
        }
      } else if (!pending.has(s.name)) {
        const q = questions.get(s.name);
        const involves = ConnectionState.hasFailed(state) ? `${state.kind}: ${state.reason}` : q && describeStartQuestions(q);
        items.push({ label: `$(debug-start) Start ${s.name}…`, description: involves, server: s.name, alwaysShow: true });
        for (const known of kind.known?.(manager, s) ?? []) {
          const label = known.title ?? known.name;
          items.push({
            label: `$(debug-start) ${label}`,
            description: `${nameAndServer(known.name, label, s.name)}, not started`,
            detail: [`Starts ${s.name}${involves ? ` (${involves})` : ''}`, known.description].filter(Boolean).join(' — '),
            server: s.name,
            knownName: known.name,
          });
        }
      }
    }
    quickPick.items = items;
    quickPick.busy = pending.size > 0;
  };

  for (const s of manager.list()) {
    const state = serverState(s).kind;
    if (state === 'running') continue;
    const q = await manager.startQuestions(s);
    questions.set(s.name, q);
    if (q.trust || q.restricted || q.inputs || (state !== 'stopped' && state !== 'starting')) continue;
    pending.add(s.name);
    void manager
      .start(s.name)
      .catch(() => undefined)
      .finally(() => {
        pending.delete(s.name);
        refresh();
      });
  }
  owned.add(manager.onDidChange(refresh));
  refresh();
  quickPick.show();
  const picked = await new Promise<PickItem<T> | undefined>((resolve) => {
    owned.add(quickPick.onDidAccept(() => resolve(quickPick.selectedItems[0])));
    owned.add(quickPick.onDidHide(() => resolve(undefined)));
  });
  const typedNow = quickPick.value;
  owned.dispose();
  if (!picked) return undefined;
  if (picked.entry !== undefined) return { server: picked.server, entry: picked.entry };
  let connection;
  try {
    connection = await manager.start(picked.server);
  } catch (e) {
    manager.reportStartFailure(picked.server, e);
    return undefined;
  }
  const entries = kind.entries(connection);
  const wanted = picked.knownName !== undefined ? entries.find((e) => e.name === picked.knownName) : namedBy(kind, entries, typedNow);
  if (wanted) return { server: picked.server, entry: wanted };
  if (picked.knownName !== undefined) {
    void vscode.window.showInformationMessage(`MCP server "${picked.server}" started, but no longer offers "${picked.knownName}".`);
  }
  // Text typed to find the server's own Start row would hide the entries it now lists.
  return pickFromServers(manager, kind, findsStartRow(typedNow, picked.server) ? '' : typedNow);
}

/** Whether `typed` is part of the server's "Start …" row or names the server (it was typed to find that row). */
function findsStartRow(typed: string, server: string): boolean {
  const wanted = typed.trim().toLowerCase();
  return wanted !== '' && (`start ${server}…`.toLowerCase().includes(wanted) || wanted.includes(server.toLowerCase()));
}

async function openConfig(uri: vscode.Uri): Promise<void> {
  const exists = await vscode.workspace.fs.stat(uri).then(
    () => true,
    () => false,
  );
  if (!exists) {
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(uri, '..'));
    await vscode.workspace.fs.writeFile(uri, Buffer.from('{\n  "servers": {},\n  "inputs": []\n}\n', 'utf8'));
  }
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc);
}

async function addServer(manager: ServerManager): Promise<void> {
  const kind = await vscode.window.showQuickPick(
    [
      {
        label: '$(terminal) Command (stdio)',
        detail: 'Run a local command that speaks MCP over stdin/stdout, e.g. npx -y @modelcontextprotocol/server-everything',
        value: 'stdio' as const,
      },
      { label: '$(globe) HTTP', detail: 'Connect to a server at a URL (Streamable HTTP, with SSE fallback)', value: 'http' as const },
    ],
    { title: 'MCP: Add Server (1/2)', placeHolder: 'How is the server reached?' },
  );
  if (!kind) return;
  let entry: NewServerEntry;
  if (kind.value === 'stdio') {
    const line = await vscode.window.showInputBox({
      title: 'MCP: Add Server (1/2)',
      prompt: 'The command and its arguments',
      placeHolder: 'npx -y @modelcontextprotocol/server-everything',
      ignoreFocusOut: true,
      validateInput: (v) => (splitCommandLine(v).length === 0 ? 'Enter a command.' : undefined),
    });
    if (!line) return;
    const [command, ...args] = splitCommandLine(line);
    entry = { type: 'stdio', command: command!, args };
  } else {
    const url = await vscode.window.showInputBox({
      title: 'MCP: Add Server (1/2)',
      prompt: 'The server URL',
      placeHolder: 'https://example.com/mcp',
      ignoreFocusOut: true,
      validateInput: (v) => {
        try {
          return ['http:', 'https:'].includes(new URL(v).protocol) ? undefined : 'Use an http:// or https:// URL.';
        } catch {
          return 'Enter a URL such as https://example.com/mcp.';
        }
      },
    });
    if (!url) return;
    entry = { type: 'http', url };
  }

  const target = manager.workspaceConfigUris[0] ?? manager.userConfigUri;
  const text = await readBoundedText(target.fsPath, FILE_LIMITS.config, 'the config file').catch(() => '');
  const taken = [...serverNamesIn(text), ...manager.list().map((s) => s.name)];
  const name = await vscode.window.showInputBox({
    title: 'MCP: Add Server (2/2)',
    prompt: `A name for the server (written to ${vscode.workspace.asRelativePath(target)})`,
    value: uniqueServerName(suggestServerName(entry), taken),
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() === '' ? 'Enter a name.' : serverNamesIn(text).includes(v.trim()) ? 'A server with this name exists.' : undefined),
  });
  if (!name) return;
  const updated = addServerToConfig(text, name.trim(), entry);
  await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(target, '..'));
  await vscode.workspace.fs.writeFile(target, Buffer.from(updated, 'utf8'));
  await manager.reload();
  const doc = await vscode.workspace.openTextDocument(target);
  await vscode.window.showTextDocument(doc, { preview: true });
  void vscode.window.showInformationMessage(`Added the MCP server "${name.trim()}".`, 'Start Server').then((choice) => {
    if (choice) void manager.start(name.trim()).catch((e) => manager.reportStartFailure(name.trim(), e));
  });
}

interface CompatibleTool extends vscode.QuickPickItem {
  server: string;
  tool?: Tool;
  slot?: FileSlot;
}

/** A configured server that did not start by itself, and why (trust, inputs, Restricted Mode). */
interface HeldBack {
  server: string;
  questions: StartQuestions;
}

/**
 * Explorer "Run MCP Tool with This File…": the tools with a slot the file passes (checked first), then the form.
 * Servers that would ask something are not started from a context menu by themselves: they are named, with why,
 * and a button (or a row) starts them through their questions, then the tools that take the file are offered.
 */
async function runToolWithFile(manager: ServerManager, container: Container, path: string): Promise<void> {
  let found = await findToolsForFile(manager, path);
  while (found.compatible.length === 0) {
    const chosen = await offerToStart(found.heldBack, found.refusals, basename(path));
    if (!chosen) return;
    let started = 0;
    for (const name of chosen) {
      await manager.start(name).then(
        () => {
          started += 1;
        },
        (e) => manager.reportStartFailure(name, e),
      );
    }
    if (started === 0) return; // declined, or failed (and said so)
    found = await findToolsForFile(manager, path);
  }
  const startRows: CompatibleTool[] = found.heldBack
    .filter((h) => !h.questions.restricted)
    .map((h) => ({
      label: `$(debug-start) Start ${h.server}…`,
      description: describeNotStarted(h.questions),
      detail: 'Not started: its tools that take the file are offered after it starts',
      server: h.server,
      alwaysShow: true,
    }));
  const rows = [...found.compatible, ...startRows];
  const picked =
    rows.length === 1
      ? rows[0]
      : await vscode.window.showQuickPick(rows, {
          title: 'Run MCP Tool with This File',
          placeHolder: 'Choose the tool to give the file to',
          matchOnDescription: true,
          matchOnDetail: true,
        });
  if (!picked) return;
  if (!picked.tool || !picked.slot) {
    try {
      await manager.start(picked.server);
    } catch (e) {
      manager.reportStartFailure(picked.server, e);
      return;
    }
    await runToolWithFile(manager, container, path);
    return;
  }
  await ToolPanel.show(container, picked.server, picked.tool, { field: pointer(picked.slot.path), paths: [path] });
}

/**
 * Starts the servers that start without asking (waiting a bounded time for them), then checks the file against
 * every file slot of every running server's tools. Servers that would ask something are left stopped: `heldBack`.
 */
async function findToolsForFile(manager: ServerManager, path: string): Promise<{ compatible: CompatibleTool[]; refusals: string[]; heldBack: HeldBack[] }> {
  const compatible: CompatibleTool[] = [];
  const refusals: string[] = [];
  const heldBack: HeldBack[] = [];
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Finding MCP tools that take this file…', cancellable: false },
    async () => {
      const startable: Promise<unknown>[] = [];
      for (const s of manager.list()) {
        if (serverState(s).kind !== 'stopped') continue;
        const questions = await manager.startQuestions(s);
        // Only servers that start unasked: no trust question or inputs form pops up from a context menu by itself.
        if (questions.trust || questions.restricted || questions.inputs) heldBack.push({ server: s.name, questions });
        else startable.push(manager.start(s.name).catch(() => undefined));
      }
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled(startable),
        new Promise((r) => {
          timer = setTimeout(r, EXPLORER_START_WAIT_MS);
        }),
      ]);
      clearTimeout(timer);
      for (const s of manager.list()) {
        if (!ConnectionState.isRunning(s.connection?.state)) continue;
        const limits = inlineLimitsFromSettings(s.connection.transportInUse ?? s.definition.type);
        for (const tool of s.connection.tools.filter(offeredToUser)) {
          for (const slot of findFileSlots(tool).slots) {
            const check = await checkFile(path, slot, limits);
            if (check.ok) {
              compatible.push({
                label: `$(tools) ${toolLabel(tool)}`,
                description: nameAndServer(tool.name, toolLabel(tool), s.name),
                detail: `${slot.title ?? slot.label}: ${describeAccept(slot.accept)}${tool.description ? ` — ${tool.description.split('\n')[0]!.slice(0, 160)}` : ''}`,
                server: s.name,
                tool,
                slot,
              });
            } else {
              refusals.push(`${toolLabel(tool)} (${s.name}): ${check.reason}`);
            }
          }
        }
      }
    },
  );
  return { compatible, refusals, heldBack };
}

/**
 * No running server takes the file: says so, names the servers that did not start and why, and offers to start
 * them (each through its own questions). The names of the servers to start, or undefined.
 */
async function offerToStart(heldBack: readonly HeldBack[], refusals: readonly string[], fileName: string): Promise<string[] | undefined> {
  const refused = refusals.length > 0 ? `Tools that refuse it:\n${refusals.slice(0, 8).join('\n')}` : '';
  if (heldBack.length === 0) {
    void vscode.window.showInformationMessage(`No tool of a running MCP server takes ${fileName}.`, {
      modal: refusals.length > 0,
      detail: refused || undefined,
    });
    return undefined;
  }
  const restricted = heldBack.every((h) => h.questions.restricted);
  const startable = heldBack.filter((h) => !h.questions.restricted).map((h) => h.server);
  const listed = heldBack.map((h) => `• ${h.server}: ${describeNotStarted(h.questions)}`).join('\n');
  const next = restricted
    ? 'The workspace is in Restricted Mode: its servers start only once you trust the workspace.'
    : 'Starting a server defined in this workspace asks for your trust first (and for its inputs, if it has some); then the tools that take the file are offered.';
  const count = heldBack.length === 1 ? `1 configured server was not started` : `${heldBack.length} configured servers were not started`;
  const buttons = restricted
    ? ['Manage Workspace Trust']
    : [...startable.slice(0, 3).map((name) => `Start ${name}…`), ...(startable.length > 1 ? [`Start All (${startable.length})…`] : [])];
  const choice = await vscode.window.showInformationMessage(
    `No running MCP server has a tool that takes ${fileName}: ${count}.`,
    { modal: true, detail: [listed, next, refused].filter(Boolean).join('\n\n') },
    ...buttons,
  );
  if (!choice) return undefined;
  if (choice === 'Manage Workspace Trust') {
    await vscode.commands.executeCommand('workbench.trust.manage');
    return undefined;
  }
  return choice.startsWith('Start All (') ? startable : startable.filter((name) => choice === `Start ${name}…`);
}
