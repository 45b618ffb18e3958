// Every error the host raises, in one place. The extension loads the connection from a bundle of its own, so
// its error classes are recognised by name (the type guards below), never by `instanceof`.

/**
 * An input the host refused locally, before anything was sent to the server
 * (a file over its limit or off its accepted types, a form value that fails its schema).
 * The message names the argument and the limit. The CLI exits 1 on it.
 */
export class InputRefusedError extends Error {
  override readonly name: string = 'InputRefusedError';
  constructor(message: string, readonly argument?: string) {
    super(message);
  }
}

/** Form values the form refuses: one message per field id ('' = the whole form). */
export class ArgumentsRefusedError extends InputRefusedError {
  override readonly name: string = 'ArgumentsRefusedError';
  constructor(readonly errors: Record<string, string>) {
    super(Object.entries(errors).map(([id, m]) => `${id || 'arguments'}: ${m}`).join('; '), Object.keys(errors)[0]);
  }
}

/** The server could not be started or reached (bad command, refused connection, failed handshake). CLI exit 4. */
export class ServerStartError extends Error {
  override readonly name = 'ServerStartError';
}

/** The server went away while a request was in flight. CLI exit 4. */
export class ServerCrashedError extends Error {
  override readonly name = 'ServerCrashedError';
  constructor(message: string, readonly exitCode: number | null, readonly signal: string | null) {
    super(message);
  }
}

/** The caller aborted the call (its AbortSignal fired); the server was sent `notifications/cancelled`. */
export class CallCancelledError extends Error {
  override readonly name = 'CallCancelledError';
}

/** The host stopped the server while the request was in flight, for a reason it names (a dev-mode restart). */
export class ServerStoppedError extends Error {
  override readonly name = 'ServerStoppedError';
}

/** The call got no answer within its timeout (time spent in elicitation handlers is not counted). */
export class CallTimeoutError extends Error {
  override readonly name = 'CallTimeoutError';
  constructor(message: string, readonly timeoutMs: number) {
    super(message);
  }
}

/** The server answered the request with a JSON-RPC error, or the SDK refused its answer. CLI exit 5. */
export class ServerRequestError extends Error {
  override readonly name = 'ServerRequestError';
  constructor(message: string, readonly code?: number | string, readonly data?: unknown) {
    super(message);
  }
}

/** A request was made while the connection is not running. */
export class NotRunningError extends Error {
  override readonly name = 'NotRunningError';
}

/** The user declined, cancelled, or never completed a URL the server required. */
export class UrlElicitationIncompleteError extends Error {
  override readonly name = 'UrlElicitationIncompleteError';
}

/** A file transfer (SEP-2631) failed at the store or was cancelled: not a local refusal, the server was involved. */
export class TransferFailedError extends Error {
  override readonly name = 'TransferFailedError';
}

/** A sampling request refused because the server already has as many running and waiting as the host holds. */
export class SamplingQueueFullError extends Error {
  override readonly name = 'SamplingQueueFullError';
}

/** The host's error classes by name. */
export interface HostErrors {
  InputRefusedError: InputRefusedError;
  ArgumentsRefusedError: ArgumentsRefusedError;
  ServerStartError: ServerStartError;
  ServerCrashedError: ServerCrashedError;
  CallCancelledError: CallCancelledError;
  ServerStoppedError: ServerStoppedError;
  CallTimeoutError: CallTimeoutError;
  ServerRequestError: ServerRequestError;
  NotRunningError: NotRunningError;
  UrlElicitationIncompleteError: UrlElicitationIncompleteError;
  TransferFailedError: TransferFailedError;
  SamplingQueueFullError: SamplingQueueFullError;
}

/** Whether `e` is the host error of that name, whichever bundle made it. */
export function isHostError<N extends keyof HostErrors>(e: unknown, name: N): e is HostErrors[N] {
  return e instanceof Error && e.name === name;
}

/** An error's message for the user; anything else thrown, as text. */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** An error's message, cut to its first line and 300 characters (HTTP errors can carry whole HTML pages). */
export function shortErrorText(e: unknown): string {
  const message = errorText(e).trim();
  const firstLine = message.split(/\r?\n/, 1)[0]!;
  return firstLine.length > 300 ? `${firstLine.slice(0, 300)}…` : firstLine;
}
