// MCP tools for VS Code's chat agents: two language model tools (grouped in the `mcpHost` tool set), one that
// lists the tools of the configured servers with model-facing schemas (file arguments as workspace paths) and
// one that calls a tool. A call is checked before anything is read (paths, limits, types), confirmed in chat's
// own confirmation naming each file, its size and type, the tool and the server, and then run through the run
// pipeline as the panel runs it. Refusals go back to the model as tool errors naming the file and the rule.
// A result larger than mcpHost.agents.maxResultCharacters reaches the model as a preview and a handle; a third
// tool reads any range of it (keptResults.ts).

import * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/client';
import {
  boundedAgentResultParts,
  describeAgentFiles,
  modelFacingSchema,
  planAgentCall,
  type AgentCallPlan,
  type AgentPart,
  type WorkspaceFolderRules,
} from '../../core/agents';
import type { ServerConnection } from '../../core/connection';
import { errorText } from '../../core/errors';
import { authorizeUploads, runTool, type AuthorizedUploads } from '../../core/run';
import type { ResultLike, SaveItem } from '../../core/results';
import { saveResultItem } from '../panels/resultActions';
import { serverState, type ServerManager } from '../servers/serverManager';
import type { Container } from '../activation/container';
import { inlineLimitsFromSettings } from '../settings';
import { KeptResultDocuments, READ_RESULT_TOOL, type ReadResultInput } from './keptResults';
import { oneLine } from '../../shared/format';
import { modelArgumentsProblem, securePropertyNames } from '../../core/secureParams';
import { affectsSetting, readAgentSettings } from '../settings';
import { ConnectionState } from '../../core/connection/types';

export const LIST_TOOL = 'mcpHost_listTools';
export const CALL_TOOL = 'mcpHost_callTool';

/** How long a confirmed call's checked files are kept for its invocation. */
const PLAN_TTL_MS = 10 * 60_000;
const MAX_PENDING_PLANS = 32;
/** How long the "save the tool's files?" question waits before the model is told nothing was saved. */
const SAVE_QUESTION_MS = 2 * 60_000;
const SAVE_CHOICE = 'Save…';

interface CallInput {
  server?: unknown;
  tool?: unknown;
  arguments?: unknown;
}

/** The open workspace folders on disk, each with the `files.exclude` globs that are on for it. */
export function workspaceFolderRules(): WorkspaceFolderRules[] {
  return (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === 'file')
    .map((f) => {
      const exclude = vscode.workspace.getConfiguration('files', f.uri).get<Record<string, unknown>>('exclude', {});
      return {
        root: f.uri.fsPath,
        name: f.name,
        excludes: Object.entries(exclude ?? {})
          .filter(([, on]) => on === true)
          .map(([glob]) => glob),
      };
    });
}

/** The model-facing description of one server's tools. */
function describeTools(server: string, connection: ServerConnection): unknown[] {
  const limits = connection.transfers.limitsFor(inlineLimitsFromSettings(connection.transportInUse ?? connection.server.transport));
  return connection.tools.map((tool) => {
    const facing = modelFacingSchema(tool, limits);
    return {
      server,
      tool: tool.name,
      ...(tool.title ? { title: tool.title } : {}),
      ...(tool.description ? { description: tool.description } : {}),
      inputSchema: facing.inputSchema,
      ...(facing.slots.length ? { fileArguments: facing.slots.map((s) => s.label) } : {}),
      ...(facing.warnings.length ? { warnings: facing.warnings } : {}),
    };
  });
}

/** Result parts as VS Code's API has them: data parts only where the running editor offers them. */
function toolResult(parts: readonly AgentPart[]): vscode.LanguageModelToolResult {
  const DataPart = (vscode as unknown as { LanguageModelDataPart?: new (data: Uint8Array, mimeType: string) => unknown }).LanguageModelDataPart;
  return new vscode.LanguageModelToolResult(
    parts.map((p) =>
      p.kind === 'data' && DataPart
        ? new DataPart(Buffer.from(p.base64, 'base64'), p.mimeType)
        : new vscode.LanguageModelTextPart(p.kind === 'text' ? p.text : `[${p.mimeType} data]`),
    ) as vscode.LanguageModelTextPart[],
  );
}

export class AgentTools implements vscode.Disposable {
  /** Confirmations asked for, by input: the plan and its uploads, authorized before the question (SEP-2631). */
  private readonly pending = new Map<string, { plan: AgentCallPlan; uploads?: AuthorizedUploads; at: number }>();
  /** The last confirmation asked for (the test API reads it: the test workbench answers dialogs by itself). */
  lastConfirmation?: { title: string; message: string };
  readonly results = new KeptResultDocuments();

  private readonly manager: ServerManager;

  constructor(private readonly window: Container) {
    this.manager = window.manager;
  }

  dispose(): void {
    for (const p of this.pending.values()) p.uploads?.abandon();
    this.pending.clear();
    this.results.dispose();
  }

  register(): vscode.Disposable {
    return vscode.Disposable.from(
      vscode.lm.registerTool<{ server?: string }>(LIST_TOOL, {
        invoke: (options, token) => this.list(options.input?.server, token),
      }),
      vscode.lm.registerTool<CallInput>(CALL_TOOL, {
        prepareInvocation: (options) => this.prepare(options.input),
        invoke: (options, token) => this.call(options.input, token),
      }),
      vscode.lm.registerTool<ReadResultInput>(READ_RESULT_TOOL, {
        invoke: (options) => this.results.read(options.input, readAgentSettings().maxResultCharacters),
      }),
    );
  }

  private excluded(server: string): string | undefined {
    return readAgentSettings().excludedServers.includes(server)
      ? `The server "${server}" is excluded from agents (setting mcpHost.agents.excludedServers).`
      : undefined;
  }

  /** Running servers' tools; a stopped server is started only when named (starting may ask for its inputs). */
  private async list(only: string | undefined, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    if (only !== undefined && (this.excluded(only) || !this.manager.get(only)))
      throw new Error(this.excluded(only) ?? `There is no MCP server named "${only}".`);
    const servers = this.manager.list().filter((s) => !this.excluded(s.name) && (only === undefined || s.name === only));
    const tools: unknown[] = [];
    const notRunning: string[] = [];
    for (const server of servers) {
      if (token.isCancellationRequested) break;
      const running = ConnectionState.isRunning(serverState(server)) ? server.connection : undefined;
      try {
        if (running) tools.push(...describeTools(server.name, running));
        else if (only !== undefined) tools.push(...describeTools(server.name, await this.manager.start(server.name)));
        else notRunning.push(server.name);
      } catch (e) {
        notRunning.push(`${server.name} (${errorText(e)})`);
      }
    }
    const text = JSON.stringify({ tools, ...(notRunning.length ? { stoppedServers: notRunning } : {}) }, null, 1);
    const hint = notRunning.length ? ` To list a stopped server's tools, call ${LIST_TOOL} with {"server": name}; that starts it.` : '';
    return new vscode.LanguageModelToolResult([
      new vscode.LanguageModelTextPart(
        `Call a tool with ${CALL_TOOL} {server, tool, arguments}. A file argument takes the path of a file in the workspace; the host reads and sends the file.${hint}\n${text}`,
      ),
    ]);
  }

  private async resolve(input: CallInput | undefined): Promise<{ server: string; connection: ServerConnection; tool: Tool }> {
    const server = input?.server;
    const name = input?.tool;
    if (typeof server !== 'string' || typeof name !== 'string') throw new Error('Give "server" and "tool" (strings), as listed by mcpHost_listTools.');
    const excluded = this.excluded(server);
    if (excluded) throw new Error(excluded);
    if (!this.manager.get(server)) throw new Error(`There is no MCP server named "${server}".`);
    const connection = await this.manager.start(server);
    const tool = connection.tools.find((t) => t.name === name);
    if (!tool) throw new Error(`The server "${server}" has no tool named "${name}". Its tools: ${connection.tools.map((t) => t.name).join(', ') || 'none'}.`);
    return { server, connection, tool };
  }

  private async plan(input: CallInput | undefined): Promise<{ server: string; connection: ServerConnection; plan: AgentCallPlan }> {
    const { server, connection, tool } = await this.resolve(input);
    const transport = connection.transportInUse ?? connection.server.transport;
    // SEP-3221: a model never sets a secure value (the host fills them from what the person set).
    const secureNamed = modelArgumentsProblem(tool, input?.arguments);
    if (secureNamed) throw new Error(`Refused, nothing was sent to "${server}": ${secureNamed}.`);
    const checked = await planAgentCall(tool, input?.arguments ?? {}, {
      folders: workspaceFolderRules(),
      limits: () => connection.transfers.limitsFor(inlineLimitsFromSettings(transport)),
    });
    if (!checked.ok) throw new Error(`Refused, nothing was sent to "${server}": ${checked.reason}`);
    return { server, connection, plan: checked.plan };
  }

  /** Chat's confirmation: the tool, the server and each file with its size and type. A refused call asks nothing. */
  private async prepare(input: CallInput | undefined): Promise<vscode.PreparedToolInvocation> {
    let planned: Awaited<ReturnType<AgentTools['plan']>>;
    try {
      planned = await this.plan(input);
    } catch (e) {
      return { invocationMessage: `MCP: ${errorText(e)}` };
    }
    const { server, plan, connection } = planned;
    // Files that go by upload are authorized first, so the question names the host their bytes go to.
    let uploads: AuthorizedUploads | undefined;
    try {
      uploads = await authorizeUploads(plan.files.entries(), plan.files.limits, connection.transfers);
    } catch (e) {
      return { invocationMessage: `MCP: Refused, nothing was sent to "${server}": ${errorText(e)}` };
    }
    this.remember(input, plan, uploads);
    const files = describeAgentFiles(plan);
    const count = files.length === 1 ? '1 file' : `${files.length} files`;
    let text = files.length
      ? `Send ${files.length === 1 ? 'this file' : `these ${files.length} files`} to the tool "${plan.tool.name}" on the MCP server "${server}":\n${files.map((f) => `\n• ${f}`).join('')}`
      : `Run the tool "${plan.tool.name}" on the MCP server "${server}".`;
    if (uploads)
      text += `\n\nUploaded before the call, to the host the server named:\n${uploads
        .lines()
        .map((l) => `\n• ${l}`)
        .join('')}`;
    const args = JSON.stringify(plan.values);
    if (args !== '{}') text += `\n\nArguments: ${args.length > 2000 ? `${args.slice(0, 2000)}…` : args}`;
    const secure = securePropertyNames(plan.tool);
    if (secure.length) text += `\n\nWith the secure values you set for "${server}" (${secure.join(', ')}; not shown, and never given to the model).`;
    const title = `Run "${plan.tool.name}" on "${server}"${files.length ? ` with ${count}` : ''}?`;
    this.lastConfirmation = { title, message: text };
    // Server-chosen names are shown as text, never as markup.
    const message = new vscode.MarkdownString().appendText(text);
    return {
      invocationMessage: `Running ${plan.tool.name} on ${server}${files.length ? ` with ${count}` : ''}`,
      confirmationMessages: { title, message },
    };
  }

  private remember(input: unknown, plan: AgentCallPlan, uploads: AuthorizedUploads | undefined): void {
    const now = Date.now();
    const drop = (key: string) => {
      this.pending.get(key)?.uploads?.abandon();
      this.pending.delete(key);
    };
    for (const [key, p] of this.pending) if (now - p.at > PLAN_TTL_MS || this.pending.size >= MAX_PENDING_PLANS) drop(key);
    drop(JSON.stringify(input));
    this.pending.set(JSON.stringify(input), { plan, ...(uploads ? { uploads } : {}), at: now });
  }

  private async call(input: CallInput | undefined, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    // The files the user confirmed; reading them refuses any that changed since (size, time, first bytes).
    const key = JSON.stringify(input);
    const confirmed = this.pending.get(key);
    this.pending.delete(key);
    const { server, connection, plan: fresh } = await this.plan(input);
    const plan = confirmed && Date.now() - confirmed.at <= PLAN_TTL_MS ? confirmed.plan : fresh;
    // The uploads authorized for the confirmation go with its plan (sent only to the hosts it named).
    const uploads = plan === confirmed?.plan ? confirmed.uploads : undefined;
    if (plan !== confirmed?.plan) confirmed?.uploads?.abandon();
    if (plan === fresh && fresh.described.length > 0) {
      throw new Error(
        `Refused, nothing was sent to "${server}": the user did not confirm these files (the arguments changed after the confirmation, or it expired). Call the tool again.`,
      );
    }
    const abort = new AbortController();
    const cancel = token.onCancellationRequested(() => abort.abort());
    try {
      const { result, view } = await this.run(connection, plan, abort.signal, uploads);
      const { parts, kept } = boundedAgentResultParts(result, view, {
        media: true,
        maxChars: readAgentSettings().maxResultCharacters,
        readTool: READ_RESULT_TOOL,
        keep: (readable) => this.results.keep(`${plan.tool.name} on "${server}"`, readable),
      });
      // A long text kept for range reads is read there (and opened as a document), not offered as a file.
      const keptRefs = new Set(kept?.parts.map((p) => `content/${Number(p.id) - 1}`));
      const saves = view.saves.filter((s) => !keptRefs.has(s.ref));
      if (saves.length) parts.push({ kind: 'text', text: await this.offerSaves(server, plan.tool.name, result, saves, token) });
      const modelText = parts.map((p) => (p.kind === 'text' ? p.text : `[${p.mimeType} data]`)).join('\n');
      if (kept) kept.modelText = modelText;
      // The person sees the whole result in the tool's panel, marked with what the model was given.
      this.window.toolPanels.addAgentResult(server, plan.tool, result, view, { whole: !kept, modelText, ...(kept ? { handle: kept.handle } : {}) });
      return toolResult(parts);
    } catch (e) {
      if (abort.signal.aborted) throw new vscode.CancellationError();
      throw new Error(`${plan.tool.name} on "${server}" failed: ${errorText(e)}`);
    } finally {
      cancel.dispose();
    }
  }

  /** The run pipeline with the window's hooks for an agent: elicitation and required URLs through the existing panels. */
  private async run(connection: ServerConnection, plan: AgentCallPlan, signal: AbortSignal, uploads?: AuthorizedUploads): ReturnType<typeof runTool> {
    const tool = plan.tool;
    const hooks = this.window.runHooks('agent');
    // The model's call is completed with the secure values the person set (or stopped, saying what to set).
    const secureArguments = await hooks.secureArguments(connection, tool);
    return runTool(
      connection,
      {
        tool,
        input: { form: plan.form, values: plan.values },
        files: plan.files,
        ...(uploads ? { uploads } : {}),
        ...(secureArguments ? { secureArguments } : {}),
      },
      hooks.forCall(connection, tool, { signal }),
    );
  }

  /** File outputs are saved only when the user says so; the model is told where they went, or that they did not. */
  private async offerSaves(server: string, toolName: string, result: ResultLike, saves: readonly SaveItem[], token: vscode.CancellationToken): Promise<string> {
    const names = saves.map((s) => oneLine(s.name)).join(', ');
    const one = saves.length === 1;
    let timer: NodeJS.Timeout | undefined;
    let cancelled: vscode.Disposable | undefined;
    const unanswered = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), SAVE_QUESTION_MS);
      cancelled = token.onCancellationRequested(() => resolve(undefined));
    });
    const choice = await Promise.race([
      vscode.window.showInformationMessage(
        `"${oneLine(toolName)}" on "${server}" returned ${one ? 'a file' : `${saves.length} files`}: ${names}. Save to the workspace?`,
        SAVE_CHOICE,
      ),
      unanswered,
    ]).finally(() => {
      clearTimeout(timer);
      cancelled?.dispose();
    });
    if (choice !== SAVE_CHOICE) return `The tool returned ${names}; the user did not save ${one ? 'it' : 'them'}, so nothing was written to the workspace.`;
    const lines: string[] = [];
    for (const save of saves) {
      if (token.isCancellationRequested) {
        lines.push(`The user did not save ${save.name}.`);
        continue;
      }
      lines.push(await this.saveOne(server, result, save));
    }
    return lines.join('\n');
  }

  private async saveOne(server: string, result: ResultLike, save: SaveItem): Promise<string> {
    try {
      const target = await saveResultItem(result, save, () => this.manager.start(server));
      if (!target) return `The user did not save ${save.name}.`;
      // A file the server wrote itself was opened, not saved.
      return save.source === 'path'
        ? `${save.name} is the server's own file at ${vscode.workspace.asRelativePath(target)}.`
        : `The user saved ${save.name} as ${vscode.workspace.asRelativePath(target)}.`;
    } catch (e) {
      return `${save.name} could not be saved: ${errorText(e)}`;
    }
  }
}

/** Registers the agent tools while the setting allows it; turning the setting off unregisters them. */
export function registerAgentTools(context: vscode.ExtensionContext, window: Container): AgentTools {
  const tools = new AgentTools(window);
  let registration: vscode.Disposable | undefined;
  const update = (): void => {
    const on = readAgentSettings().enabled && typeof vscode.lm?.registerTool === 'function';
    if (on && !registration) registration = tools.register();
    if (!on && registration) {
      registration.dispose();
      registration = undefined;
    }
  };
  update();
  context.subscriptions.push(
    tools,
    tools.results.register(),
    { dispose: () => registration?.dispose() },
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (affectsSetting(e, 'agents.enabled')) update();
    }),
  );
  return tools;
}
