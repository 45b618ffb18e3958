// Running a tool or a prompt, once for every caller (the panel, the CLI, the extension's test API):
//   values -> payload (argumentsOf) -> file slots checked and encoded (encodeFileSlots)
//   -> call with the URL-elicitation retry (callWithUrlRetry) -> result view (resultViewOf).
// Only the UI is injected: the elicitation UI for required URLs, the retry control, progress, the signal.

import type { CallToolResult, GetPromptResult, Tool } from '@modelcontextprotocol/client';
import type { CallOptions } from '../connection/types';
import type { ToolCallOptions } from '../connection/serverConnection';
import { callToolWithUrlElicitation, type UrlRetryConnection } from '../elicitation/urlRetry';
import type { ElicitationUi, UrlElicitationRequest } from '../elicitation/types';
import { ArgumentsRefusedError, CallCancelledError, InputRefusedError, TransferFailedError } from '../errors';
import { checkTotalSize } from '../files/check';
import { encodeCheckedFile } from '../files/transfer/encode';
import { fileInputValue, getAtPath, setAtPath } from '../files/fileObjects';
import type { TransportKind } from '../config/types';
import { formatBytes, type InlineLimits } from '../files/limits';
import type { CheckedFile, FileSlot, FileUploader } from '../files';
import type { FieldErrors, FormModel, FormValues } from '../../shared/formModel';
import { validateForm, toPayload } from '../forms/values';
import type { Logger } from '../log';
import { maskView, promptResultView, toResultView, type ResultLike, type ResultView } from '../results';
import type { FileChoices, SlotFiles } from './fileChoices';
import type { AuthorizedUploads } from './uploads';
import { keptArguments, newRecord, recordedFiles, type RunCaller, type RunRecord } from '../replay/record';

/** What a run needs of a ServerConnection. */
export interface RunConnection extends UrlRetryConnection<CallToolResult, ToolCallOptions> {
  readonly log: Logger;
  readonly tools: readonly Tool[];
  readonly server: { transport: TransportKind };
  getPrompt(name: string, args: Record<string, string>, opts?: CallOptions): Promise<GetPromptResult>;
}

/**
 * The arguments as the user gave them: form values (coerced and checked by the form, as the panel sends them)
 * or a JSON object sent as given (the CLI's --args; the server checks it).
 */
export type RunInput = { form: FormModel; values: FormValues } | { json: Record<string, unknown> };

/** How files are encoded: the user's settings and where the server runs. */
export interface EncodeSettings {
  /** Send the legacy `;name=` data-URI parameter. */
  legacyName?: boolean;
  /** Folders a FileInput `path` may point into. */
  workspaceRoots: string[];
  /** The server runs over stdio on this machine (FileInput `path` is allowed only then). */
  serverIsLocalStdio: boolean;
  /** SEP-2631: the connection's transfer client; files the check marked for upload go through it. */
  uploader?: FileUploader;
}

/** Hears how the uploads of one run go; its signal (when given) cancels them. */
export interface UploadReporter {
  signal?: AbortSignal;
  report(file: CheckedFile, sent: number): void;
  /** The host a file's bytes go to, once the server has authorized the upload (before any byte leaves). */
  destination?(file: CheckedFile, host: string): void;
  done(): void;
}

/** The caller's side of a run: its UI and its limits. */
export interface RunHooks {
  /** Asked when the server requires a URL to be visited first (-32042). */
  elicitation: ElicitationUi;
  /** The user's "done, retry now" control while a required URL is pending. */
  waitForRetry?: (request: UrlElicitationRequest, signal: AbortSignal) => Promise<'retry' | 'cancel'>;
  onProgress?: (p: { progress: number; total?: number; message?: string }) => void;
  signal?: AbortSignal;
  /** Per request; undefined = the connection's default. */
  timeoutMs?: number;
  /** A bound on the whole call, every required URL and retry included (the CLI's --timeout). */
  totalTimeoutMs?: number;
  encode: EncodeSettings;
  /** How the tool is called (e.g. as a task, when the server runs it as one); default: the connection's callTool. */
  callTool?: (name: string, args: Record<string, unknown>, opts?: ToolCallOptions) => Promise<CallToolResult>;
  /** Called with the encoded arguments just before they are sent; throws to refuse them (nothing is sent). */
  checkEncoded?: (args: Record<string, unknown>) => void;
  /** Called once before files that go by upload are sent (SEP-2631), with those files. */
  uploadProgress?: (uploads: CheckedFile[], signal: AbortSignal | undefined) => Promise<UploadReporter | undefined> | UploadReporter | undefined;
  /** Keeps the run (the History, `call --record`): told once when it ends, without file bytes or secrets. */
  record?: RunRecorder;
}

export interface RunRecorder {
  by: RunCaller;
  keep(record: RunRecord, result?: CallToolResult): void;
}

export interface ToolRunRequest {
  tool: Tool;
  input: RunInput;
  /** The files chosen for the tool's slots (checked when chosen; read only when sent). */
  files?: FileChoices;
  /** Their uploads, authorized before the user confirmed (authorizeUploads); others are authorized when sent. */
  uploads?: AuthorizedUploads;
  /** SEP-3221: the host's secure values (core/secureParams), sent apart from the arguments. */
  secureArguments?: Record<string, unknown>;
}

export interface RunOutcome {
  result: ResultLike;
  view: ResultView;
}

/** Errors of form values together with the file fields' counts ({} when the values may be sent). */
export function checkValues(form: FormModel, values: FormValues, files?: FileChoices): FieldErrors {
  const filled = files ? files.withFileNames(values) : values;
  return { ...validateForm(form, filled), ...(files?.countErrors() ?? {}) };
}

/** Step 1: values -> payload (a fresh object the caller may fill and drop). */
export function argumentsOf(input: RunInput): Record<string, unknown> {
  return 'form' in input ? toPayload(input.form, input.values) : structuredClone(input.json);
}

/**
 * Step 2: reads each chosen file once and sets its encoded value into `args` (a data URI, an uploaded file's
 * reference, or a FileInput object), with the filename companion when the arguments hold none. Files that only
 * fit the message one by one are refused first, before a byte is read. A local refusal throws InputRefusedError
 * naming the argument; a failed upload (the store's answer) throws TransferFailedError;
 * the run's own signal or the upload reporter's aborted throws CallCancelledError.
 */
export async function encodeFileSlots(
  args: Record<string, unknown>,
  slots: readonly SlotFiles[],
  limits: (slot: FileSlot) => InlineLimits,
  settings: EncodeSettings,
  log?: Logger,
  progress?: { reporter?: UploadReporter; signal?: AbortSignal; uploads?: AuthorizedUploads },
): Promise<void> {
  if (slots.length === 0) return;
  const together = checkTotalSize(
    slots.flatMap((s) => s.files),
    limits(slots[0]!.slot),
  );
  if (together) throw new InputRefusedError(together, slots[0]!.slot.label);
  for (const { slot, files } of slots) {
    const values: unknown[] = [];
    for (const file of files) {
      try {
        values.push(await encodeFile(file, slot, limits(slot), settings, progress));
      } catch (e) {
        if (e instanceof InputRefusedError) throw e;
        // The run's Cancel or the upload notification's: either way the user stopped it, and the tool is not called.
        if (progress?.signal?.aborted || progress?.reporter?.signal?.aborted)
          throw new CallCancelledError(`${slot.label}: sending ${file.name} was cancelled`, { cause: e });
        if (file.upload) throw new TransferFailedError(`${slot.label}: ${file.name}: ${(e as Error).message}`);
        throw new InputRefusedError((e as Error).message, slot.label);
      }
      log?.info(`${slot.label}: ${file.name} (${file.mediaType}, ${formatBytes(file.size)}) ${file.upload ? 'uploaded' : 'attached'}`);
    }
    setAtPath(args, slot.path, slot.multiple ? values : values[0]);
    const companion = slot.filenameCompanion;
    if (companion && files.length === 1 && [undefined, ''].includes(getAtPath(args, companion) as string | undefined)) {
      setAtPath(args, companion, files[0]!.name);
    }
  }
}

async function encodeFile(
  file: CheckedFile,
  slot: FileSlot,
  limits: InlineLimits,
  settings: EncodeSettings,
  progress?: { reporter?: UploadReporter; signal?: AbortSignal; uploads?: AuthorizedUploads },
): Promise<unknown> {
  if (slot.origin !== 'file-input-object') {
    const signal = progress?.reporter?.signal ?? progress?.signal;
    const reporter = progress?.reporter;
    const prepared = progress?.uploads?.get(file);
    return encodeCheckedFile(file, slot, limits, {
      ...(settings.uploader ? { uploader: settings.uploader } : {}),
      ...(prepared ? { prepared } : {}),
      ...(settings.legacyName ? { legacyName: true } : {}),
      ...(signal ? { signal } : {}),
      ...(reporter ? { onUploadBytes: (sent: number) => reporter.report(file, sent) } : {}),
      ...(reporter?.destination ? { onDestination: (host: string) => reporter.destination?.(file, host) } : {}),
    });
  }
  const modes = slot.objectModes ?? [];
  const mode = modes.includes('content') ? 'content' : modes.includes('path') ? 'path' : 's3';
  return fileInputValue(file, slot, { mode, workspaceRoots: settings.workspaceRoots, serverIsLocalStdio: settings.serverIsLocalStdio, limits });
}

/**
 * Step 3: calls the tool; a 2025-11-25 server may refuse with -32042 until a URL is visited: offered, then
 * retried. Output is not validated here (resultViewOf does, keeping the raw value beside the errors).
 */
export function callWithUrlRetry(
  connection: RunConnection,
  tool: Tool,
  args: Record<string, unknown>,
  hooks: RunHooks,
  secureArguments?: Record<string, unknown>,
): Promise<CallToolResult> {
  const caller = hooks.callTool
    ? { name: connection.name, onDidCompleteElicitation: connection.onDidCompleteElicitation?.bind(connection), callTool: hooks.callTool }
    : connection;
  return callToolWithUrlElicitation<CallToolResult, ToolCallOptions>(caller, tool.name, args, hooks.elicitation, {
    log: connection.log,
    call: {
      signal: hooks.signal,
      onProgress: hooks.onProgress,
      timeoutMs: hooks.timeoutMs,
      validateOutput: false,
      ...(secureArguments ? { secureArguments } : {}),
    },
    waitForRetry: hooks.waitForRetry,
    ...(hooks.totalTimeoutMs !== undefined ? { totalTimeoutMs: hooks.totalTimeoutMs } : {}),
  });
}

/** Step 4: the display model, validated against the server's current tool (its output schema may have changed). */
export function resultViewOf(connection: RunConnection, tool: Tool, result: CallToolResult): ResultView {
  // A server may echo the host's own secrets (its token, a secret input) back: they are not shown.
  return maskView(toResultView(result, connection.tools.find((t) => t.name === tool.name) ?? tool), (text) => connection.log.maskSecretsIn(text));
}

/** Step 2 with the caller's upload progress: the files that go by upload are announced first. */
async function encodeFiles(
  args: Record<string, unknown>,
  files: FileChoices,
  authorized: AuthorizedUploads | undefined,
  hooks: Pick<RunHooks, 'encode' | 'uploadProgress' | 'signal'>,
  log: Logger,
): Promise<void> {
  const slots = files.entries();
  const uploads = slots.flatMap((e) => e.files.filter((f) => f.upload));
  const reporter = uploads.length && hooks.uploadProgress ? await hooks.uploadProgress(uploads, hooks.signal) : undefined;
  try {
    await encodeFileSlots(args, slots, files.limits, hooks.encode, log, { reporter, signal: hooks.signal, ...(authorized ? { uploads: authorized } : {}) });
  } finally {
    reporter?.done();
  }
}

/**
 * Steps 1 and 2 together: the arguments as they will be sent, files encoded (for a caller that sends them its own
 * way, e.g. the CLI's task calls). Form values are checked first (ArgumentsRefusedError).
 */
export async function preparedArguments(
  connection: RunConnection,
  request: ToolRunRequest,
  hooks: Pick<RunHooks, 'encode' | 'uploadProgress' | 'signal' | 'checkEncoded'>,
): Promise<Record<string, unknown>> {
  if ('form' in request.input) {
    const errors = checkValues(request.input.form, request.input.values, request.files);
    if (Object.keys(errors).length > 0) throw new ArgumentsRefusedError(errors);
  }
  const args = argumentsOf(request.input);
  if (request.files) await encodeFiles(args, request.files, request.uploads, hooks, connection.log);
  hooks.checkEncoded?.(args);
  return args;
}

/**
 * Runs a tool: form values are checked first (ArgumentsRefusedError), then the steps above. The arguments,
 * file contents included, are dropped once dispatched.
 */
export async function runTool(connection: RunConnection, request: ToolRunRequest, hooks: RunHooks): Promise<RunOutcome & { result: CallToolResult }> {
  if (!hooks.record) return runToolOnce(connection, request, hooks);
  return recordRun(connection, request, hooks.record, hooks.signal, () => runToolOnce(connection, request, hooks));
}

/**
 * Runs `run` (a tool call of `request`) and tells `recorder` how it went: arguments without files and secrets,
 * each file's path, size, type and sha-256 (read before the call; the call refuses a file changed since), the
 * outcome and how long it took.
 */
export async function recordRun<T extends { result: CallToolResult } | undefined>(
  connection: RunConnection,
  request: ToolRunRequest,
  recorder: RunRecorder,
  signal: AbortSignal | undefined,
  run: () => Promise<T>,
): Promise<T> {
  const at = Date.now();
  const started = performance.now();
  const slots = request.files?.entries() ?? [];
  const files = await recordedFiles(slots, signal);
  const kept = keptArguments(
    request.tool,
    argumentsOf(request.input),
    slots.map((s) => s.slot),
    'form' in request.input ? request.input.form : undefined,
    (text) => connection.log.maskSecretsIn(text),
  );
  const base = { at, server: connection.name, tool: request.tool.name, by: recorder.by, ...kept, files };
  try {
    const outcome = await run();
    if (outcome) {
      const durationMs = performance.now() - started;
      // What is kept of the result has the host's own secrets masked (a server may echo a token back), like the view.
      const kept = JSON.parse(connection.log.maskSecretsIn(JSON.stringify(outcome.result))) as CallToolResult;
      recorder.keep(newRecord({ ...base, outcome: outcome.result.isError ? 'toolError' : 'success', durationMs }), kept);
    }
    return outcome;
  } catch (e) {
    const cancelled = e instanceof CallCancelledError;
    recorder.keep(
      newRecord({ ...base, outcome: cancelled ? 'cancelled' : 'failed', error: (e as Error)?.message ?? String(e), durationMs: performance.now() - started }),
    );
    throw e;
  }
}

async function runToolOnce(connection: RunConnection, request: ToolRunRequest, hooks: RunHooks): Promise<RunOutcome & { result: CallToolResult }> {
  let args: Record<string, unknown> | undefined = await preparedArguments(connection, request, hooks);
  const pending = callWithUrlRetry(connection, request.tool, args, hooks, request.secureArguments);
  args = undefined;
  const result = await pending;
  return { result, view: resultViewOf(connection, request.tool, result) };
}

/**
 * Gets a prompt with the form's values (strings) as its arguments; its messages become a result view. Files
 * chosen for its file arguments are checked first, then read once and sent inline as data: URIs (a prompt
 * argument is a string); the arguments are dropped once dispatched.
 */
export async function runPrompt(
  connection: RunConnection,
  name: string,
  input: RunInput,
  hooks: Pick<RunHooks, 'signal' | 'timeoutMs'> & { files?: FileChoices; encode?: EncodeSettings },
): Promise<RunOutcome & { answer: GetPromptResult }> {
  if ('form' in input) {
    const errors = checkValues(input.form, input.values, hooks.files);
    if (Object.keys(errors).length > 0) throw new ArgumentsRefusedError(errors);
  }
  let args: Record<string, unknown> | undefined = argumentsOf(input);
  if (hooks.files?.count) {
    // Inline only: an uploaded file's reference is not what a prompt argument carries.
    const { uploader: _inlineOnly, ...encode } = hooks.encode ?? { workspaceRoots: [], serverIsLocalStdio: connection.server.transport === 'stdio' };
    await encodeFileSlots(args, hooks.files.entries(), hooks.files.limits, encode, connection.log, hooks.signal ? { signal: hooks.signal } : undefined);
  }
  const pending = connection.getPrompt(name, args as Record<string, string>, { signal: hooks.signal, timeoutMs: hooks.timeoutMs });
  args = undefined;
  const answer = await pending;
  const { result, view } = promptResultView(answer);
  return { answer, result, view: maskView(view, (text) => connection.log.maskSecretsIn(text)) };
}
