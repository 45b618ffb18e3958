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
