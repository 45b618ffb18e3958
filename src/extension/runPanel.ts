// The panel that runs one tool: its form (file slots included), Run/Cancel, progress, and the
// session's results, newest first (kept when the panel closes). One panel per (server, tool); opening it again reveals it.
// A prompt gets the same panel: its arguments are the form, its messages the result.

import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { CallToolResult, Prompt, Tool } from '@modelcontextprotocol/client';
import { toolAppUri } from '../core/apps';
import type { TransportKind } from '../core/config';
import type { ServerConnection } from '../core/connection';
import type { UrlElicitationRequest } from '../core/elicitation';
import { findFileSlots } from '../core/files';
import { buildForm, defaultValues, promptArgumentsSchema, toPayload, type FormModel, type FormValues } from '../core/forms';
import type { ResultLike } from '../core/results';
import { checkValues, FileChoices, runPrompt, runTool, type RunOutcome } from '../core/run';
import type { ResultEntry, RunPanelInit, WebviewNotification } from '../shared/protocol';
import { ToolPanelApps } from './apps/toolPanelApps';
import { filesConfirmationDetail, handleFileMessage } from './fileSelections';
import { readResourceInEditor, saveResultItem } from './resultActions';
import { WebviewElicitationUi } from './elicitationUi';
import { completeFormField, completionRefOf } from './formCompletions';
import { readTemplate, templateArguments, type TemplateSubject } from './resources/templates';
import { startUploadProgress } from './uploadProgress';
import { tasks } from './tasks/taskRegistry';
import { toolLabel } from './serverDescriptions';
import type { ServerManager } from './serverManager';
import { encodeSettings, inlineLimitsFromSettings, readSettings } from './settings';
import { McpPanel } from './webviewPanel';
import { errorText } from '../core/errors';

export interface RunPanelContext {
  manager: ServerManager;
  extensionUri: vscode.Uri;
}

/** Progress is forwarded at most this often; a burst of notifications must not flood the webview. */
const PROGRESS_INTERVAL_MS = 100;

/** A tool's results of this session: they outlive its panel, so reopening the tool shows them again. */
interface SessionResults {
  entries: ResultEntry[];
  /** The raw results, kept for "Save to workspace…" (the view holds no full bytes). */
  raw: Map<string, ResultLike>;
}

/**
 * What a panel runs: a tool, a prompt (prompts/get with the form's values as its arguments), or a resource
 * template (its variables as the form; the URI they name is read and opened).
 */
export type PanelSubject = { kind: 'tool'; tool: Tool } | { kind: 'prompt'; prompt: Prompt } | TemplateSubject;

function subjectTitle(subject: PanelSubject): string {
  if (subject.kind === 'template') return subject.template.title ?? subject.template.name;
  return subject.kind === 'tool' ? toolLabel(subject.tool) : subject.prompt.title ?? subject.prompt.name;
}

function subjectName(subject: PanelSubject): string {
  if (subject.kind === 'template') return subject.template.uriTemplate;
  return subject.kind === 'tool' ? subject.tool.name : subject.prompt.name;
}

function subjectDescription(subject: PanelSubject): string | undefined {
  if (subject.kind === 'template') return subject.template.description ?? subject.template.uriTemplate;
  return subject.kind === 'tool' ? subject.tool.description : subject.prompt.description;
}

export class RunPanel {
  private static readonly open = new Map<string, RunPanel>();
  private static readonly sessionResults = new Map<string, SessionResults>();

  /** Opens (or reveals) the tool's panel; `prefill` puts files into a slot first (Explorer "Run MCP Tool with This File…"). */
  static show(context: RunPanelContext, server: string, tool: Tool, prefill?: { field: string; paths: string[] }): Promise<RunPanel> {
    return RunPanel.showSubject(context, server, { kind: 'tool', tool }, prefill);
  }

  /** Opens (or reveals) a prompt's panel. */
  static showPrompt(context: RunPanelContext, server: string, prompt: Prompt): Promise<RunPanel> {
    return RunPanel.showSubject(context, server, { kind: 'prompt', prompt });
  }

  /** Opens (or reveals) a resource template's panel. */
  static showTemplate(context: RunPanelContext, server: string, subject: TemplateSubject): Promise<RunPanel> {
    return RunPanel.showSubject(context, server, subject);
  }

  private static async showSubject(context: RunPanelContext, server: string, subject: PanelSubject,
    prefill?: { field: string; paths: string[] }): Promise<RunPanel> {
    const key = JSON.stringify([server, subject.kind, subjectName(subject)]);
    let panel = RunPanel.open.get(key);
    if (!panel) {
      let results = RunPanel.sessionResults.get(key);
      if (!results) RunPanel.sessionResults.set(key, (results = { entries: [], raw: new Map() }));
      panel = new RunPanel(context, server, subject, results);
      RunPanel.open.set(key, panel);
      panel.panel.onDidDispose(() => RunPanel.open.delete(key));
    } else {
      panel.panel.reveal();
    }
    if (prefill) {
      const outcome = await panel.files.add(prefill.field, prefill.paths);
      panel.panel.post(outcome.ok
        ? { type: 'fileSelected', field: prefill.field, files: outcome.files }
        : { type: 'fileRefused', field: prefill.field, reason: outcome.reason });
    }
    return panel;
  }

  readonly panel: McpPanel;
  readonly model: FormModel;
  readonly files: FileChoices;
  private values: FormValues;
  /** `task`: the call runs as a task, which outlives this panel (closing it does not cancel the task). */
  private running?: { callId: string; abort: AbortController; task?: boolean };
  /** The tool's MCP App, when it has one. */
  private readonly apps?: ToolPanelApps;

  private constructor(private readonly context: RunPanelContext, readonly server: string, readonly subject: PanelSubject,
    private readonly results: SessionResults) {
    const scan = subject.kind === 'tool' ? findFileSlots(subject.tool, context.manager.get(server)?.log) : { slots: [], warnings: [] };
    const schema = subject.kind === 'tool' ? subject.tool.inputSchema
      : promptArgumentsSchema(subject.kind === 'prompt' ? subject.prompt.arguments : templateArguments(subject.variables));
    this.model = buildForm(schema, scan.slots);
    this.model.warnings.push(...scan.warnings);
    this.values = defaultValues(this.model);
    const transport = () => context.manager.get(server)?.connection?.transportInUse ?? transportOf(context.manager, server);
    this.files = new FileChoices(scan.slots, () => inlineLimitsFromSettings(transport()));
    this.panel = McpPanel.create({
      viewType: 'mcpHost.tool',
      title: `${subjectTitle(subject)} (${server})`,
      extensionUri: context.extensionUri,
      init: () => this.init(),
      onProblem: (m) => this.problem(m),
      appFrames: subject.kind === 'tool' && toolAppUri(subject.tool) !== undefined,
    });
    if (subject.kind === 'tool' && toolAppUri(subject.tool)) {
      this.apps = new ToolPanelApps(this.panel, context, server, subject.tool);
      void this.apps.prepare();
    }
    this.panel.onRequest('validate', ({ values }) => ({ errors: checkValues(this.model, values, this.files) }));
    const ref = completionRefOf(subject);
    if (ref) this.panel.onRequest('complete', (params) => completeFormField(context.manager.get(server)?.connection, ref, this.model, params));
    this.panel.onMessage((message) => {
      this.handle(message).catch((e: unknown) => {
        this.problem(`handling '${message.type}' failed: ${errorText(e)}`);
        void vscode.window.showErrorMessage(`MCP: ${errorText(e)}`);
      });
    });
    this.panel.onDidDispose(() => { if (!this.running?.task) this.running?.abort.abort(); });
  }

  private init(): RunPanelInit {
    return {
      kind: 'run',
      heading: {
        title: subjectTitle(this.subject), server: this.server, description: subjectDescription(this.subject),
      },
      form: this.model,
      values: this.values,
      files: this.files.summaries(),
      results: this.results.entries,
      runningCallId: this.running?.callId,
      app: this.apps?.current,
      appStandby: this.apps?.standby,
      completions: !!completionRefOf(this.subject) && !!this.context.manager.get(this.server)?.connection?.supportsCompletions,
    };
  }

  private problem(message: string): void {
    this.context.manager.get(this.server)?.log.warn(`${this.subject.kind} panel ${subjectName(this.subject)}: ${message}`);
  }

  private async handle(message: WebviewNotification): Promise<void> {
    switch (message.type) {
      case 'valuesChanged':
        this.values = message.values;
        return;
      case 'pickFile':
      case 'removeFile':
        return handleFileMessage(this.panel, this.files, message);
      case 'submit':
        this.values = message.values;
        return this.run(message.values);
      case 'cancelCall':
        if (this.running?.callId === message.callId) this.running.abort.abort();
        return;
      case 'readResource':
        return readResourceInEditor(this.context.manager, this.server, message.uri);
      case 'saveOutput':
        return this.saveOutput(message.resultId, message.itemId);
      case 'appClosed':
        return this.apps?.closed(message.callId);
    }
  }

  /** Validates, confirms, encodes and calls; the outcome goes to the webview. */
  private async run(values: FormValues): Promise<void> {
    if (this.running) {
      void vscode.window.showInformationMessage(`${subjectName(this.subject)} is still running; cancel it or wait for its result.`);
      return;
    }
    const errors = checkValues(this.model, values, this.files);
    this.panel.post({ type: 'validation', errors });
    if (Object.keys(errors).length > 0) return;
    if ((this.files.count > 0 || readSettings().confirmEveryCall) && !(await this.confirm())) return;

    const callId = randomUUID();
    const abort = new AbortController();
    this.running = { callId, abort };
    this.panel.post({ type: 'callStarted', callId });
    const progress = throttledProgress((p) => this.panel.post({ type: 'progress', callId, ...p }));
    try {
      const connection = await this.context.manager.start(this.server);
      // The tool's app (if any) loads while the tool runs, with the arguments (file contents left out).
      if (this.apps) void this.apps.begin(connection, callId, toPayload(this.model, values));
      const { result, view } = await this.call(connection, values, abort.signal, progress.report);
      progress.flush();
      const entry: ResultEntry = { id: callId, at: Date.now(), view };
      this.results.entries.unshift(entry);
      this.results.raw.set(callId, result);
      this.panel.post({ type: 'result', callId, view: entry.view });
      this.panel.post({ type: 'callEnded', callId, outcome: 'done' });
      this.apps?.finish(callId, { result: result as CallToolResult });
    } catch (e) {
      progress.flush();
      // Not `instanceof CallCancelledError`: the connection's classes live in their own bundle.
      const cancelled = abort.signal.aborted;
      this.apps?.finish(callId, { reason: cancelled ? 'The call was cancelled.' : errorText(e) });
      this.panel.post({ type: 'callEnded', callId, outcome: cancelled ? 'cancelled' : 'failed', error: cancelled ? undefined : errorText(e) });
    } finally {
      progress.stop();
      this.running = undefined;
    }
  }

  /** Runs the core pipeline with this panel's UI: files read and encoded only now, dropped after dispatch. */
  private call(connection: ServerConnection, values: FormValues, signal: AbortSignal,
    onProgress: (p: { progress: number; total?: number; message?: string }) => void): Promise<RunOutcome> {
    const settings = readSettings();
    const timeoutMs = settings.requestTimeoutMs || undefined;
    const input = { form: this.model, values };
    if (this.subject.kind === 'template') return readTemplate(connection, this.subject, toPayload(this.model, values) as Record<string, string>, signal);
    if (this.subject.kind === 'prompt') return runPrompt(connection, this.subject.prompt.name, input, { signal, timeoutMs });
    const tool = this.subject.tool;
    const running = this.running;
    return runTool(connection, { tool, input, files: this.files }, {
      elicitation: new WebviewElicitationUi(this.context.extensionUri, connection.server.transport, connection.log),
      waitForRetry: askToRetry,
      onProgress, signal, timeoutMs,
      encode: { ...encodeSettings(connection.server.transport), uploader: connection.files },
      // Files that go by upload are sent first, under one progress notification with Cancel.
      // A tool that must run as a task goes through the window's tasks (shown in the Tasks view, status as progress).
      callTool: (name, a, o) => tasks().callTool(connection, tool, a, {
        ...o, onStatus: (t) => { if (running) running.task = true; onProgress({ progress: 0, message: `${t.status}${t.statusMessage ? `: ${t.statusMessage}` : ''}` }); },
      }),
      uploadProgress: async (uploads, outer) => {
        const progress = await startUploadProgress(uploads, outer);
        return { signal: progress.signal, report: (file, sent) => progress.report(file, sent), destination: (_file, host) => progress.destination(host), done: () => progress.done() };
      },
    });
  }

  private async confirm(): Promise<boolean> {
    const what = this.files.count > 0 ? `Send ${this.files.count === 1 ? '1 file' : `${this.files.count} files`} to` : this.subject.kind === 'tool' ? 'Run' : this.subject.kind === 'prompt' ? 'Get' : 'Read';
    const choice = await vscode.window.showWarningMessage(
      `${what} the ${this.subject.kind} "${subjectTitle(this.subject)}" on "${this.server}"?`,
      { modal: true, detail: filesConfirmationDetail(this.files, this.server, `the ${this.subject.kind} "${subjectName(this.subject)}"`) },
      this.files.count > 0 ? 'Send' : 'Run',
    );
    return choice !== undefined;
  }

  private async saveOutput(resultId: string, itemId: string): Promise<void> {
    const result = this.results.raw.get(resultId);
    const save = this.results.entries.find((r) => r.id === resultId)?.view.saves.find((s) => s.ref === itemId);
    if (result && save) await saveResultItem(result, save, () => this.context.manager.start(this.server));
  }
}

function transportOf(manager: ServerManager, server: string): TransportKind {
  const def = manager.get(server)?.definition;
  return def?.type ?? 'stdio';
}

/** Coalesces progress notifications: at most one post per interval, the latest wins. */
function throttledProgress(post: (p: { progress: number; total?: number; message?: string }) => void) {
  let latest: { progress: number; total?: number; message?: string } | undefined;
  let timer: NodeJS.Timeout | undefined;
  const flush = (): void => {
    if (latest) post(latest);
    latest = undefined;
  };
  return {
    report(p: { progress: number; total?: number; message?: string }): void {
      latest = { progress: p.progress, total: p.total, message: p.message?.slice(0, 500) };
      timer ??= setInterval(flush, PROGRESS_INTERVAL_MS);
    },
    flush,
    stop(): void {
      if (timer) clearInterval(timer);
      latest = undefined;
    },
  };
}

/** The "done in the browser, but the server has not said so" control of a URL the server required. */
async function askToRetry(request: UrlElicitationRequest, signal: AbortSignal): Promise<'retry' | 'cancel'> {
  const asked = vscode.window.showInformationMessage(
    `Waiting for "${request.server}" to confirm that ${request.domain} is done.`, 'Retry Now', 'Cancel');
  const aborted = new Promise<undefined>((resolve) => signal.addEventListener('abort', () => resolve(undefined), { once: true }));
  return (await Promise.race([asked, aborted])) === 'Retry Now' ? 'retry' : 'cancel';
}
