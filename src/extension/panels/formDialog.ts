// A webview panel that asks the user to fill one form and answers once: the server-inputs form
// and form-mode elicitations. Files go through FileChoices (pick -> check -> confirm); the
// caller reads them after the answer.

import * as vscode from 'vscode';
import type { FieldErrors, FormModel, FormValues } from '../../core/forms';
import { checkValues, type FileChoices } from '../../core/run';
import type { AnswerAction, PanelInit, WebviewNotification } from '../../shared/protocol';
import { handleFileMessage } from './fileSelections';
import { WebviewHost } from './webviewHost';
import { errorText } from '../../core/errors';

export type FormAnswer = { action: 'accept'; values: FormValues } | { action: 'decline' | 'cancel' };

export interface FormDialogOptions {
  viewType: string;
  title: string;
  extensionUri: vscode.Uri;
  model: FormModel;
  /** The values the form starts with. */
  values: FormValues;
  /** The `init` message for the current values and files. */
  init: (values: FormValues) => PanelInit;
  files?: FileChoices;
  /** Extra checks on accept (e.g. a kept secret may be left empty); merged with the form's validation. */
  validate?: (values: FormValues) => FieldErrors;
  /** Asked before accepting when files were chosen; false keeps the form open. */
  confirmFiles?: () => Promise<boolean>;
  /** Cancels the dialog from outside (the server gave up, the call was cancelled). */
  signal?: AbortSignal;
  onProblem?: (message: string) => void;
  /** The panel once it exists (e.g. to post upload progress). */
  onPanel?: (panel: WebviewHost) => void;
  /** Leave the panel open after an accept (the caller shows upload progress in it, then disposes it). */
  keepOpenOnAccept?: boolean;
}

export function showFormDialog(options: FormDialogOptions): Promise<FormAnswer> {
  return new Promise<FormAnswer>((resolve) => {
    let values = options.values;
    let settled = false;
    const panel = WebviewHost.create({
      viewType: options.viewType,
      title: options.title,
      extensionUri: options.extensionUri,
      // Re-sent whenever the panel is shown again: an accepted form kept open must stay answered.
      init: () => (settled ? { ...options.init(values), answered: true } : options.init(values)),
      onProblem: options.onProblem,
    });
    options.onPanel?.(panel);
    const finish = (answer: FormAnswer): void => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', onAbort);
      resolve(answer);
      if (answer.action !== 'accept' || !options.keepOpenOnAccept) panel.dispose();
    };
    const onAbort = (): void => finish({ action: 'cancel' });
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener('abort', onAbort);

    const errorsFor = (v: FormValues): FieldErrors => ({ ...checkValues(options.model, v, options.files), ...(options.validate?.(v) ?? {}) });
    panel.onRequest('validate', ({ values: v }) => ({ errors: errorsFor(v) }));
    panel.onDidDispose(() => finish({ action: 'cancel' }));
    const handle = async (message: WebviewNotification): Promise<void> => {
      switch (message.type) {
        case 'valuesChanged':
          values = message.values;
          break;
        case 'pickFile':
        case 'removeFile':
          if (options.files) await handleFileMessage(panel, options.files, message);
          break;
        case 'answer':
          await answer(message.action, message.values);
          break;
      }
    };
    panel.onMessage((message) => {
      handle(message).catch((e: unknown) => options.onProblem?.(`handling '${message.type}' failed: ${errorText(e)}`));
    });

    const answer = async (action: AnswerAction, answered: FormValues | undefined): Promise<void> => {
      if (action !== 'accept') return finish({ action });
      values = answered ?? values;
      const errors = errorsFor(values);
      panel.post({ type: 'validation', errors });
      if (Object.keys(errors).length > 0) return;
      if (options.files && options.files.count > 0 && options.confirmFiles && !(await options.confirmFiles())) return;
      finish({ action: 'accept', values });
    };
  });
}
