// The extension's face for server elicitations (core/elicitation's ElicitationUi): a webview panel
// per request showing which server asks, its message and form (file fields through the same
// pick -> check -> confirm path as tool slots), or the URL to open after consent.

import * as vscode from 'vscode';
import type { ResolvedServer, TransportKind } from '../../core/config';
import type { ElicitationHandler, ServerConnection } from '../../core/connection';
import { withAppQuestions } from '../apps/appElicitation';
import {
  createElicitationHandler,
  type ElicitationUi,
  type FileConfirmRequest,
  type FormAnswer,
  type FormElicitationRequest,
  type UploadConsentRequest,
  type UrlElicitationRequest,
} from '../../core/elicitation';
import { formatBytes, uploadLimitsFor, type FileSlot } from '../../core/files';
import type { FileField, FormField, FormModel } from '../../core/forms';
import type { Logger } from '../../core/log';
import { FileChoices } from '../../core/run';
import type { AnswerAction } from '../../shared/protocol';
import { showFormDialog } from './formDialog';
import { inlineLimitsFromSettings } from '../settings';
import { markQuestionAnswered } from '../activation/walkthrough';
import { WebviewHost } from './webviewHost';

function fileFields(fields: readonly FormField[]): FileField[] {
  return fields.flatMap((f) => (f.kind === 'file' ? [f] : f.kind === 'object' ? fileFields(f.fields) : []));
}

/** The file engine's view of a form's file field. */
function slotOf(field: FileField): FileSlot {
  return {
    path: field.path,
    label: field.path.join('.'),
    multiple: field.multiple,
    accept: field.accept.length > 0 ? field.accept : undefined,
    maxSize: field.maxSize,
    origin: field.transfer === 'upload' ? 'binary-elicitation' : 'x-mcp-file',
    required: field.required,
    title: field.label,
    description: field.description,
  };
}

/** An accepted form, open until its answer is sent: it shows SEP-1306 upload progress. */
interface AnsweredForm {
  panel: WebviewHost;
  /** Upload fields in the order the core uploads them (form order), with their total bytes. */
  fields: { id: string; bytes: number }[];
}

export class WebviewElicitationUi implements ElicitationUi {
  private answered?: AnsweredForm;
  /** Shown atop the next form: why the app the server named did not answer it (SEP-3118 fallback). */
  fallbackNote: string | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly transport: TransportKind,
    private readonly log: Logger,
  ) {}

  async form(request: FormElicitationRequest, signal: AbortSignal): Promise<FormAnswer> {
    this.closeAnswered();
    const note = this.fallbackNote;
    this.fallbackNote = undefined;
    const model: FormModel = note ? { ...request.form, warnings: [note, ...request.form.warnings] } : request.form;
    const fields = fileFields(model.fields);
    const slots = fields.map(slotOf);
    const files = new FileChoices(slots, (slot) =>
      slot.origin === 'binary-elicitation' ? uploadLimitsFor(this.transport) : inlineLimitsFromSettings(this.transport),
    );
    // The files the user had chosen when they cancelled the file confirmation: chosen again (checked anew).
    for (const field of fields) {
      const paths = request.files?.[field.path[0]!];
      if (paths?.length) await files.add(field.id, paths);
    }
    const heading = { title: `${request.server} asks`, server: request.server };
    let panel: WebviewHost | undefined;
    const answer = await showFormDialog({
      viewType: 'mcpHost.elicitation',
      title: `MCP: ${request.server} asks`,
      extensionUri: this.extensionUri,
      model,
      values: request.values,
      files,
      init: (values) => ({ kind: 'elicitation', mode: 'form', heading, message: request.message, form: model, values, files: files.summaries() }),
      signal,
      onProblem: (m) => this.log.warn(`elicitation panel: ${m}`),
      onPanel: (p) => {
        panel = p;
        if (request.errors) p.post({ type: 'validation', errors: request.errors });
      },
      keepOpenOnAccept: true,
    });
    if (answer.action !== 'cancel') markQuestionAnswered();
    if (answer.action !== 'accept') return answer;
    const uploads = fields
      .filter((f) => f.transfer === 'upload')
      .map((f) => ({ id: f.id, bytes: files.totalBytes(f.id) }))
      .filter((f) => f.bytes > 0);
    if (panel) this.answered = { panel, fields: uploads };
    const byName: Record<string, string[]> = {};
    for (const [field, paths] of Object.entries(files.paths())) {
      const slot = files.slot(field);
      if (slot) byName[slot.path[0]!] = paths;
    }
    return { action: 'accept', values: answer.values, files: byName };
  }

  url(request: UrlElicitationRequest, signal: AbortSignal): Promise<'accept' | 'decline' | 'cancel'> {
    return new Promise((resolve) => {
      let settled = false;
      const panel = WebviewHost.create({
        viewType: 'mcpHost.elicitation',
        title: `MCP: ${request.server} asks you to open a link`,
        extensionUri: this.extensionUri,
        init: () => ({
          kind: 'elicitation',
          mode: 'url',
          heading: { title: `${request.server} asks you to open a link`, server: request.server },
          message: request.message,
          url: request.url,
          domain: request.domainUnicode ?? request.domain,
          domainWarning:
            request.warnings.length > 0
              ? [...request.warnings, ...(request.domainUnicode ? [`The address is really ${request.domain}.`] : [])].join(' ')
              : undefined,
        }),
        onProblem: (m) => this.log.warn(`elicitation panel: ${m}`),
      });
      const finish = (action: AnswerAction): void => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', onAbort);
        resolve(action);
        panel.dispose();
      };
      const onAbort = (): void => finish('cancel');
      signal.addEventListener('abort', onAbort);
      panel.onDidDispose(() => finish('cancel'));
      panel.onMessage((message) => {
        if (message.type === 'openUrl') {
          // Only the URL the server sent is ever opened, whatever the webview posts.
          void vscode.env.openExternal(vscode.Uri.parse(request.url, true));
          finish('accept');
        } else if (message.type === 'answer') {
          finish(message.action);
        }
      });
    });
  }

  async confirmUploadDestination(request: UploadConsentRequest): Promise<boolean> {
    const choice = await vscode.window.showWarningMessage(
      `${request.server} wants ${request.fileName} (${formatBytes(request.size)}) uploaded to ${request.destination}, which is not the server itself. Upload it?`,
      { modal: true, detail: `Field: ${request.field}\nUpload address: ${request.url}\nYour MCP credentials are not sent there.` },
      'Upload',
    );
    return choice === 'Upload';
  }

  async confirmFiles(request: FileConfirmRequest): Promise<boolean> {
    const lines = request.files.map(
      (f) => `• ${f.field}: ${f.name} (${formatBytes(f.size)}, ${f.mediaType}) ${f.upload ? `uploaded to ${f.destination}` : `→ ${f.destination}`}`,
    );
    // One question for everything, uploads elsewhere included (SEP-1306): it says plainly where they go.
    const elsewhere = [...new Set(request.files.filter((f) => f.otherOrigin).map((f) => f.destination))];
    const toServer = request.files.some((f) => !f.otherOrigin);
    const to = [...(toServer ? [request.server] : []), ...elsewhere].join(' and ');
    const notServer = elsewhere.length
      ? `\n\n${elsewhere.join(', ')} ${elsewhere.length === 1 ? 'is' : 'are'} not ${request.server}'s own address: the files are uploaded there without your MCP credentials.`
      : '';
    const choice = await vscode.window.showWarningMessage(
      `Send ${request.files.length === 1 ? '1 file' : `${request.files.length} files`} to ${to}?`,
      { modal: true, detail: `${lines.join('\n')}${notServer}\n\nThe files are read and sent only if you choose Send; Cancel returns to the question.` },
      'Send',
    );
    return choice === 'Send';
  }

  /** Cumulative bytes uploaded so far (all upload fields, in form order) -> one `uploadProgress` per field. */
  reportUpload(sentTotal: number): void {
    let before = 0;
    for (const field of this.answered?.fields ?? []) {
      const sent = Math.max(0, Math.min(field.bytes, sentTotal - before));
      this.answered?.panel.post({ type: 'uploadProgress', field: field.id, sent, total: field.bytes });
      before += field.bytes;
    }
  }

  /** Closes the panel of an answered form (its answer was sent, or failed). */
  closeAnswered(): void {
    this.answered?.panel.dispose();
    this.answered = undefined;
  }

  notify(message: string, severity: 'info' | 'warning' | 'error'): void {
    const show =
      severity === 'error' ? vscode.window.showErrorMessage : severity === 'warning' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    void show(message);
  }
}

/**
 * The elicitation handler for one server's connection. An accepted form's panel stays open until the
 * answer is sent: the file confirmation appears over it and, in binary mode, it shows the upload progress.
 */
export function elicitationHandlerFor(
  extensionUri: vscode.Uri,
  server: ResolvedServer,
  log: Logger,
  connection: () => ServerConnection | undefined = () => undefined,
): ElicitationHandler {
  const ui = new WebviewElicitationUi(extensionUri, server.transport, log);
  const native = createElicitationHandler(ui, {
    log,
    transport: server.transport,
    limits: inlineLimitsFromSettings(server.transport),
    interactive: true,
  });
  // A question that names one of the server's apps is offered to that app first (SEP-3118).
  const handle = withAppQuestions(native, { extensionUri, connection, log, ui });
  return async (params, ctx) => {
    const toServer = ctx.progressToken !== undefined ? ctx.sendProgress : undefined;
    const withUploadProgress = {
      ...ctx,
      // The core reports upload progress only when a token exists; a local one lets the panel see it too.
      progressToken: ctx.progressToken ?? 'mcp-host-upload',
      sendProgress: async (sent: number, total?: number, message?: string) => {
        ui.reportUpload(sent);
        await toServer?.(sent, total, message);
      },
    };
    try {
      return await handle(params, params.mode === 'binary' ? withUploadProgress : ctx);
    } finally {
      ui.closeAnswered();
    }
  };
}
