// What the host's elicitation logic asks of a user interface (the CLI's prompts or answers file,
// the extension's webview panel). Requests are plain JSON; the AbortSignal travels beside them.

import type { TransportKind } from '../config/types';
import type { InlineLimits } from '../files/limits';
import type { FieldErrors, FormModel, FormValues } from '../../shared/formModel';
import type { Logger } from '../log';

export interface FormElicitationRequest {
  /** The server that asks (the UI must show it). */
  server: string;
  /** The server's message: plain text. */
  message: string;
  /** `binary`: SEP-1306, file fields are uploaded to the server's endpoints. */
  mode: 'form' | 'binary';
  form: FormModel;
  /** Values to show: the defaults at first, the user's previous values after a refused answer. */
  values: FormValues;
  /** Why the previous answer was refused, per field; absent on the first ask. */
  errors?: FieldErrors;
  /** Files to show as chosen (local paths by top-level field name): the user's, when they cancelled the file confirmation. */
  files?: Record<string, string[]>;
  /** 1 on the first ask. */
  attempt: number;
}

/** The user's answer. `files` maps a file field's name to the local paths picked for it. */
export type FormAnswer = { action: 'accept'; values: FormValues; files?: Record<string, string[]> } | { action: 'decline' | 'cancel' };

export interface UrlElicitationRequest {
  server: string;
  message: string;
  /** The full URL, exactly as the server sent it. */
  url: string;
  /** The host name to highlight (as sent; punycode stays punycode). */
  domain: string;
  /** The Unicode form of a punycode domain: the user should compare the two. */
  domainUnicode?: string;
  /** Things to warn about: punycode, plain HTTP. */
  warnings: string[];
  /** 2025-11-25: the id a later `notifications/elicitation/complete` names. */
  elicitationId?: string;
}

export interface UploadConsentRequest {
  server: string;
  field: string;
  fileName: string;
  size: number;
  /** The origin the file would go to (not the MCP server's own): it never receives the MCP token. */
  destination: string;
  url: string;
}

export interface FileConfirmRequest {
  server: string;
  /**
   * `destination`: the server's name, or where an upload goes (SEP-1306: the endpoint's origin; SEP-2631, `upload`:
   * the host the server authorized). `otherOrigin`: an upload to somewhere other than the server's own origin
   * (no MCP credentials go there).
   */
  files: { field: string; name: string; size: number; mediaType: string; destination: string; upload?: boolean; otherOrigin?: boolean }[];
}

export interface ElicitationUi {
  /** Shows the form (with the server's name) and resolves with the user's answer. Close it when `signal` aborts. */
  form(request: FormElicitationRequest, signal: AbortSignal): Promise<FormAnswer>;
  /** Asks for consent to open a URL; the UI opens it itself, and only after 'accept'. Never prefetch it. */
  url(request: UrlElicitationRequest, signal: AbortSignal): Promise<'accept' | 'decline' | 'cancel'>;
  /** SEP-1306: consent to upload a file to an origin other than the MCP server's. Absent: refused. */
  confirmUploadDestination?(request: UploadConsentRequest, signal: AbortSignal): Promise<boolean>;
  /**
   * The checked files, before they are encoded or uploaded; false returns to the form with everything kept.
   * It is also the consent to upload to another origin (`otherOrigin`): no second question. Absent: the
   * form's accept is the confirmation.
   */
  confirmFiles?(request: FileConfirmRequest, signal: AbortSignal): Promise<boolean>;
  /** A message the user must see (a failed upload, a refused answer). */
  notify?(message: string, severity: 'info' | 'warning' | 'error'): void;
}

export interface ElicitationHandlerOptions {
  log: Logger;
  /** The server's transport: decides how large an inline (data URI) file may be. */
  transport: TransportKind;
  /** Overrides the inline limits for the transport. */
  limits?: InlineLimits;
  /** true: an invalid answer is shown again with its errors. false: it throws InputRefusedError (nothing is sent). */
  interactive: boolean;
  /** How many times an invalid answer is shown again before the elicitation is cancelled (default 5). */
  maxAttempts?: number;
  /** SEP-1306: the host's per-file upload limit (the `maxFileSize` it declared). */
  binaryMaxFileSize?: number;
}
