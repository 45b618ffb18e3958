// The tool panel: one tool's form (file slots included), Run/Cancel, progress, and the session's results, newest
// first (kept when the panel closes). One panel per (server, tool); opening it again reveals it. Prompts and resource
// templates get the same panel: a prompt's arguments are the form and its messages the result; a template's
// variables are the form and the resource they name is read and opened.

import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { CallToolResult, Prompt, Tool } from '@modelcontextprotocol/client';
import { toolAppUri } from '../../core/apps';
import type { TransportKind } from '../../core/config';
import type { ServerConnection } from '../../core/connection';
import type { UrlElicitationRequest } from '../../core/elicitation';
import { findFileSlots } from '../../core/files';
import { buildForm, defaultValues, promptArgumentsSchema, promptAsTool, toPayload, type FormModel, type FormValues } from '../../core/forms';
import type { ResultLike } from '../../core/results';
import { authorizeUploads, checkValues, FileChoices, runPrompt, runTool, type AuthorizedUploads, type RunOutcome } from '../../core/run';
import type { AgentGiven, ResultEntry, ResultView, ToolPanelInit, SecureSection, WebviewNotification } from '../../shared/protocol';
import { takesSecureValues } from '../../core/secureParams';
import { ToolPanelApps } from '../apps/toolPanelApps';
import { filesConfirmationDetail, handleFileMessage } from './fileSelections';
import { openFileOutput, readResourceInEditor, saveResultItem } from './resultActions';
import { completeFormField, completionRefOf } from './formCompletions';
import { readTemplate, templateArguments, type TemplateSubject } from '../resources/templates';
import { digestProgressReporter } from './uploadProgress';
import { entryLabel, toolLabel } from '../servers/serverDescriptions';
import type { ServerManager } from '../servers/serverManager';
import { encodeSettings, inlineLimitsFromSettings, readSettings } from '../settings';
import { WebviewHost } from './webviewHost';
import type { Container } from '../activation/container';
import { CallCancelledError, errorText } from '../../core/errors';
import { Disposable, DisposableStore, linkAbort, toDisposable } from '../../core/events';
import { oneLine } from '../../shared/format';

/** What a panel reaches of the window: its services (container.ts). */
export type ToolPanelContext = Container;

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
  if (subject.kind === 'template') return entryLabel(subject.template);
  return subject.kind === 'tool' ? toolLabel(subject.tool) : entryLabel(subject.prompt);
}

function subjectName(subject: PanelSubject): string {
  if (subject.kind === 'template') return oneLine(subject.template.uriTemplate);
  return oneLine(subject.kind === 'tool' ? subject.tool.name : subject.prompt.name);
}

function subjectDescription(subject: PanelSubject): string | undefined {
  if (subject.kind === 'template') return subject.template.description ?? subject.template.uriTemplate;
  return subject.kind === 'tool' ? subject.tool.description : subject.prompt.description;
}

/** The window's tool panels: the open ones by (server, kind, name), and each one's results of this session. */
export class ToolPanels implements vscode.Disposable {
  readonly open = new Map<string, ToolPanel>();
  readonly sessionResults = new Map<string, SessionResults>();

  resultsOf(key: string): SessionResults {
    let results = this.sessionResults.get(key);
    if (!results) this.sessionResults.set(key, (results = { entries: [], raw: new Map() }));
    return results;
  }

  /** The tool panel in front, if one is. */
  active(): ToolPanel | undefined {
    return [...this.open.values()].find((p) => p.webview.panel.active && p.subject.kind === 'tool');
  }

  /**
   * A chat agent's call of a tool, shown whole among that tool's results (its panel's, now or when opened),
   * marked with what the model was given.
   */
  addAgentResult(server: string, tool: Tool, result: ResultLike, view: ResultView, agent: AgentGiven): void {
    const key = panelKey(server, { kind: 'tool', tool });
    const entry: ResultEntry = { id: randomUUID(), at: Date.now(), view, agent };
    const results = this.resultsOf(key);
    results.entries.unshift(entry);
    results.raw.set(entry.id, result);
    this.open.get(key)?.webview.post({ type: 'result', callId: entry.id, view, agent });
  }

  /** Closes every open tool panel (the window is going away). */
  dispose(): void {
    for (const panel of [...this.open.values()]) panel.dispose();
  }
}

function panelKey(server: string, subject: PanelSubject): string {
  return JSON.stringify([server, subject.kind, subjectName(subject)]);
}

/**
 * The panel of one tool, prompt or resource template. Owns its webview host, its app, the handlers it registers and
 * each run's progress timer; closing the panel disposes it.
 */
export class ToolPanel extends Disposable {
  /** Opens (or reveals) the tool's panel; `prefill` puts files into a slot first (Explorer "Run MCP Tool with This File…"). */
  static show(context: ToolPanelContext, server: string, tool: Tool, prefill?: { field: string; paths: string[] }): Promise<ToolPanel> {
    return ToolPanel.showSubject(context, server, { kind: 'tool', tool }, prefill);
  }

  /**
   * Opens the tool's panel filled with `values` and `files` (by field id; each checked again as it is chosen):
   * Run Again from the History, a saved call. A panel already open is replaced unless a call runs in it.
   */
  static async showFilled(
    context: ToolPanelContext,
    server: string,
    tool: Tool,
    values: FormValues,
    files: ReadonlyArray<{ field: string; paths: string[] }>,
  ): Promise<ToolPanel> {
    const open = context.toolPanels.open.get(panelKey(server, { kind: 'tool', tool }));
    if (open?.running) throw new Error(`${tool.name} is still running; cancel it or wait for its result.`);
    open?.dispose();
    const panel = await ToolPanel.show(context, server, tool);
    panel.values = { ...panel.values, ...structuredClone(values) };
    for (const { field, paths } of files) {
      const outcome = await panel.files.add(field, paths);
      if (!outcome.ok) throw new Error(outcome.reason);
      panel.webview.post({ type: 'fileSelected', field, files: outcome.files });
    }
    return panel;
  }

  /**
   * Runs the panel's current values as Run does (validated, confirmed); the result and how long the call took
   * (the confirmation not counted), or undefined when none came.
   */
  runFilled(): Promise<(RunOutcome & { durationMs: number }) | undefined> {
    return this.run(this.values);
  }

  /** Opens (or reveals) a prompt's panel. */
  static showPrompt(context: ToolPanelContext, server: string, prompt: Prompt): Promise<ToolPanel> {
    return ToolPanel.showSubject(context, server, { kind: 'prompt', prompt });
  }

  /** Opens (or reveals) a resource template's panel. */
  static showTemplate(context: ToolPanelContext, server: string, subject: TemplateSubject): Promise<ToolPanel> {
    return ToolPanel.showSubject(context, server, subject);
  }

  private static async showSubject(
    context: ToolPanelContext,
    server: string,
    subject: PanelSubject,
    prefill?: { field: string; paths: string[] },
  ): Promise<ToolPanel> {
    const key = panelKey(server, subject);
    let panel = context.toolPanels.open.get(key);
    if (!panel) {
      panel = new ToolPanel(context, server, subject, context.toolPanels.resultsOf(key), key);
    } else {
      panel.webview.reveal();
    }
    if (prefill) {
      const outcome = await panel.files.add(prefill.field, prefill.paths);
      panel.webview.post(
        outcome.ok
          ? { type: 'fileSelected', field: prefill.field, files: outcome.files }
          : { type: 'fileRefused', field: prefill.field, reason: outcome.reason },
      );
    }
    return panel;
  }

  readonly webview: WebviewHost;
  readonly model: FormModel;
  readonly files: FileChoices;
  private values: FormValues;
  /** `task`: the call runs as a task, which outlives this panel (closing it does not cancel the task). */
  private running?: { callId: string; abort: AbortController; task?: boolean };
  /** The tool's MCP App, when it has one. */
  private readonly apps?: ToolPanelApps;
  /** The tool's secure values' section (SEP-3221), refreshed after values were remembered. */
  private secure?: SecureSection;
  /** What the run under way holds (its progress timer), released when it ends or the panel closes. */
  private readonly runResources = this.register(new DisposableStore());

  private constructor(
    private readonly context: ToolPanelContext,
    readonly server: string,
    readonly subject: PanelSubject,
    private readonly results: SessionResults,
    key: string,
  ) {
    super();
    const open = context.toolPanels.open;
    open.set(key, this);
    this.register(
      toDisposable(() => {
        if (open.get(key) === this) open.delete(key);
      }),
    );
    // A prompt's file arguments (x-mcp-file) are slots like a tool's: same pickers, checks and confirmation.
    const asTool = subject.kind === 'tool' ? subject.tool : subject.kind === 'prompt' ? promptAsTool(subject.prompt) : undefined;
    const scan = asTool ? findFileSlots(asTool, context.manager.get(server)?.log) : { slots: [], warnings: [] };
    const schema = asTool ? asTool.inputSchema : promptArgumentsSchema(templateArguments(subject.kind === 'template' ? subject.variables : []));
    this.model = buildForm(schema, scan.slots);
    this.model.warnings.push(...scan.warnings);
    this.values = defaultValues(this.model);
    const transport = () => context.manager.get(server)?.connection?.transportInUse ?? transportOf(context.manager, server);
    // A running server that takes no uploads (no `files` capability) gets limits without them: refused from stat.
    this.files = new FileChoices(scan.slots, () => {
      const limits = inlineLimitsFromSettings(transport());
      return context.manager.get(server)?.connection?.transfers.limitsFor(limits) ?? limits;
    });
    this.webview = this.register(
      WebviewHost.create({
        // Named when the panel served tools only, and kept: menus and users' keybindings match on it (activeWebviewPanelId).
        viewType: 'mcpHost.tool',
        title: `${subjectTitle(subject)} (${server})`,
        extensionUri: context.extensionUri,
        init: () => this.init(),
        onProblem: (m) => this.problem(m),
        appFrames: subject.kind === 'tool' && toolAppUri(subject.tool) !== undefined,
      }),
    );
    // Closing the panel closes what it holds; a call under way is cancelled unless it runs as a task.
    this.register(this.webview.onDidDispose(() => this.dispose()));
    this.register(
      toDisposable(() => {
        if (!this.running?.task) this.running?.abort.abort();
      }),
    );
    if (subject.kind === 'tool' && toolAppUri(subject.tool)) {
      this.apps = this.register(new ToolPanelApps(this.webview, context, server, subject.tool));
      void this.apps.prepare();
    }
    if (subject.kind === 'tool') void this.refreshSecure(false);
    this.register(this.webview.onRequest('validate', ({ values }) => ({ errors: checkValues(this.model, values, this.files) })));
    const ref = completionRefOf(subject);
    if (ref) this.register(this.webview.onRequest('complete', (params) => completeFormField(context.manager.get(server)?.connection, ref, this.model, params)));
    this.register(
      this.webview.onMessage((message) => {
        this.handle(message).catch((e: unknown) => {
          this.problem(`handling '${message.type}' failed: ${errorText(e)}`);
          void vscode.window.showErrorMessage(`MCP: ${errorText(e)}`);
        });
      }),
    );
  }

  private init(): ToolPanelInit {
    return {
      kind: 'tool',
      heading: {
        title: subjectTitle(this.subject),
        server: this.server,
        description: subjectDescription(this.subject),
      },
      form: this.model,
      values: this.values,
      files: this.files.summaries(),
      results: this.results.entries,
      runningCallId: this.running?.callId,
      app: this.apps?.current,
      appStandby: this.apps?.standby,
      completions: !!completionRefOf(this.subject) && !!this.context.manager.get(this.server)?.connection?.supportsCompletions,
      ...(this.secure ? { secure: this.secure } : {}),
    };
  }

  /** The secure section as it is now (what is remembered); `post` sends the panel again with it. */
  private async refreshSecure(post: boolean): Promise<void> {
    if (this.subject.kind !== 'tool') return;
    const before = JSON.stringify(this.secure);
    this.secure = await this.context.secureValues.section(this.server, this.subject.tool, this.context.manager.get(this.server)?.connection);
    if ((post || before !== JSON.stringify(this.secure)) && !this.isDisposed) this.webview.post({ type: 'init', panel: this.init() });
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
        return handleFileMessage(this.webview, this.files, message);
      case 'submit':
        this.values = message.values;
        await this.run(message.values, message.secureValues);
        return;
      case 'cancelCall':
        if (this.running?.callId === message.callId) this.running.abort.abort();
        return;
      case 'readResource':
        return readResourceInEditor(this.context, this.server, message.uri);
      case 'saveOutput':
        return this.saveOutput(message.resultId, message.itemId);
      case 'openOutput':
        return this.openOutput(message.resultId, message.itemId);
      case 'appClosed':
        return this.apps?.closed(message.callId);
    }
  }

  /** Validates, confirms, encodes and calls; the outcome goes to the webview. */
  private async run(values: FormValues, typedSecure?: FormValues): Promise<(RunOutcome & { durationMs: number }) | undefined> {
    if (this.running) {
      void vscode.window.showInformationMessage(`${subjectName(this.subject)} is still running; cancel it or wait for its result.`);
      return undefined;
    }
    const errors = checkValues(this.model, values, this.files);
    // The secure section is checked by the same form engine; what passes is remembered for the workspace.
    // (the server is started first: its configuration's secure values count)
    const secure =
      this.subject.kind === 'tool' && takesSecureValues(this.subject.tool)
        ? await this.context.secureValues.fromSection(this.server, this.subject.tool, await this.context.manager.start(this.server), typedSecure)
        : undefined;
    if (secure && 'errors' in secure) Object.assign(errors, secure.errors);
    this.webview.post({ type: 'validation', errors });
    if (Object.keys(errors).length > 0) return undefined;
    const secureArguments = secure && 'values' in secure ? secure.values : undefined;
    if (typedSecure && Object.values(typedSecure).some((v) => v !== '' && v !== undefined)) await this.refreshSecure(true);
    // Files that go by upload (SEP-2631) are authorized before the confirmation, which names their hosts.
    const uploading = this.subject.kind === 'tool' && this.files.entries().some((e) => e.files.some((f) => f.upload));
    if (!uploading && (this.files.count > 0 || readSettings().confirmEveryCall) && !(await this.confirm())) return undefined;

    const callId = randomUUID();
    const abort = new AbortController();
    this.running = { callId, abort };
    this.webview.post({ type: 'callStarted', callId });
    const progress = this.runResources.add(throttledProgress((p) => this.webview.post({ type: 'progress', callId, ...p })));
    try {
      const connection = await this.context.manager.start(this.server);
      let uploads: AuthorizedUploads | undefined;
      if (uploading) {
        uploads = await authorizeWithProgress(this.files, connection, abort.signal);
        if (!(await this.confirm(uploads))) {
          uploads?.abandon();
          this.webview.post({ type: 'callEnded', callId, outcome: 'cancelled' });
          return undefined;
        }
      }
      // The tool's app (if any) loads while the tool runs, with the arguments (file contents left out).
      if (this.apps) void this.apps.begin(connection, callId, toPayload(this.model, values));
      const started = performance.now();
      const { result, view } = await this.call(connection, values, abort.signal, progress.report, uploads, secureArguments);
      const durationMs = performance.now() - started;
      progress.flush();
      const entry: ResultEntry = { id: callId, at: Date.now(), view };
      this.results.entries.unshift(entry);
      this.results.raw.set(callId, result);
      this.webview.post({ type: 'result', callId, view: entry.view });
      this.webview.post({ type: 'callEnded', callId, outcome: 'done' });
      this.apps?.finish(callId, { result: result as CallToolResult });
      return { result, view, durationMs };
    } catch (e) {
      progress.flush();
      const cancelled = e instanceof CallCancelledError;
      this.apps?.finish(callId, { reason: cancelled ? 'The call was cancelled.' : errorText(e) });
      this.webview.post({ type: 'callEnded', callId, outcome: cancelled ? 'cancelled' : 'failed', error: cancelled ? undefined : errorText(e) });
      return undefined;
    } finally {
      this.runResources.delete(progress);
      this.running = undefined;
    }
  }

  /** Runs the core pipeline with this panel's UI: files read and encoded only now, dropped after dispatch. */
  private call(
    connection: ServerConnection,
    values: FormValues,
    signal: AbortSignal,
    onProgress: (p: { progress: number; total?: number; message?: string }) => void,
    uploads?: AuthorizedUploads,
    secureArguments?: Record<string, unknown>,
  ): Promise<RunOutcome> {
    const settings = readSettings();
    const timeoutMs = settings.requestTimeoutMs || undefined;
    const input = { form: this.model, values };
    if (this.subject.kind === 'template')
      return readTemplate(this.context.resourceDocuments, connection, this.subject, toPayload(this.model, values) as Record<string, string>, signal);
    if (this.subject.kind === 'prompt') {
      return runPrompt(connection, this.subject.prompt.name, input, {
        signal,
        timeoutMs,
        files: this.files,
        encode: encodeSettings(connection.server.transport),
      });
    }
    const tool = this.subject.tool;
    const running = this.running;
    const hooks = this.context.runHooks('person').forCall(connection, tool, {
      onProgress,
      signal,
      waitForRetry: askToRetry,
      onTaskStatus: (t) => {
        if (running) running.task = true;
        onProgress({ progress: 0, message: `${t.status}${t.statusMessage ? `: ${t.statusMessage}` : ''}` });
      },
    });
    return runTool(connection, { tool, input, files: this.files, ...(uploads ? { uploads } : {}), ...(secureArguments ? { secureArguments } : {}) }, hooks);
  }

  private async confirm(uploads?: AuthorizedUploads): Promise<boolean> {
    const what =
      this.files.count > 0
        ? `Send ${this.files.count === 1 ? '1 file' : `${this.files.count} files`} to`
        : this.subject.kind === 'tool'
          ? 'Run'
          : this.subject.kind === 'prompt'
            ? 'Get'
            : 'Read';
    const choice = await vscode.window.showWarningMessage(
      `${what} the ${this.subject.kind} "${subjectTitle(this.subject)}" on "${this.server}"?`,
      { modal: true, detail: filesConfirmationDetail(this.files, this.server, `the ${this.subject.kind} "${subjectName(this.subject)}"`, uploads) },
      this.files.count > 0 ? 'Send' : 'Run',
    );
    return choice !== undefined;
  }

  private async saveOutput(resultId: string, itemId: string): Promise<void> {
    const result = this.results.raw.get(resultId);
    const save = this.results.entries.find((r) => r.id === resultId)?.view.saves.find((s) => s.ref === itemId);
    if (result && save) await saveResultItem(result, save, () => this.context.manager.start(this.server));
  }

  private async openOutput(resultId: string, itemId: string): Promise<void> {
    const save = this.results.entries.find((r) => r.id === resultId)?.view.saves.find((s) => s.ref === itemId);
    if (save)
      await openFileOutput(
        save,
        () => this.context.manager.start(this.server),
        () => this.context.openedFilesFolder(),
      );
  }
}

/**
 * The files' uploads authorized (sha-256 of each, then files/authorizeUpload; nothing of them leaves) under a
 * notification with Cancel, since digesting a large file takes a moment.
 */
function authorizeWithProgress(files: FileChoices, connection: ServerConnection, outer: AbortSignal): Promise<AuthorizedUploads | undefined> {
  const uploads = files.entries().flatMap((e) => e.files.filter((f) => f.upload));
  const title = uploads.length === 1 ? `Preparing the upload of ${uploads[0]!.name}` : `Preparing the upload of ${uploads.length} files`;
  return Promise.resolve(
    vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (progress, token) => {
      const abort = linkAbort(outer);
      const cancelled = token.onCancellationRequested(() => abort.abort());
      return authorizeUploads(files.entries(), files.limits, connection.transfers, abort.signal, digestProgressReporter(uploads, progress)).finally(() => {
        abort.dispose();
        cancelled.dispose();
      });
    }),
  );
}

function transportOf(manager: ServerManager, server: string): TransportKind {
  const def = manager.get(server)?.definition;
  return def?.type ?? 'stdio';
}

/** Coalesces progress notifications: at most one post per interval, the latest wins; disposing stops it. */
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
    dispose(): void {
      if (timer) clearInterval(timer);
      latest = undefined;
    },
  };
}

/** The "done in the browser, but the server has not said so" control of a URL the server required. */
async function askToRetry(request: UrlElicitationRequest, signal: AbortSignal): Promise<'retry' | 'cancel'> {
  const asked = vscode.window.showInformationMessage(`Waiting for "${request.server}" to confirm that ${request.domain} is done.`, 'Retry Now', 'Cancel');
  const aborted = new Promise<undefined>((resolve) => signal.addEventListener('abort', () => resolve(undefined), { once: true }));
  return (await Promise.race([asked, aborted])) === 'Retry Now' ? 'retry' : 'cancel';
}
