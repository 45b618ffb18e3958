// Every error the host raises, in one place. The extension loads the connection (and the replay commands) from
// bundles of their own, each with its own copy of these classes, so an error is recognised by its brand, not by
// its prototype: `instanceof` on a HostError class checks the brand, and works across bundles.

/** The brands an error carries, under a registry symbol: the same symbol in every bundle of the process. */
const BRANDS: unique symbol = Symbol.for('mcp-host.errorBrands') as never;

/**
 * The base of every error class of the host. Each class declares its own `brand` (its name, spelt out: a minified
 * bundle renames classes); an instance carries the brands of its class and of every class above it, and
 * `instanceof` matches an instance of any bundle by them, or by its prototype in the same bundle. The error's
 * `name` is its class's brand. A test holds every error class of src/ to this.
 */
export class HostError extends Error {
  static readonly brand: string = 'HostError';

  constructor(message?: string, options?: ErrorOptions) {
    super(message, options);
    const brands = new Set<string>();
    for (let c: unknown = new.target; typeof c === 'function' && c !== Error; c = Object.getPrototypeOf(c)) {
      if (Object.hasOwn(c, 'brand')) brands.add((c as typeof HostError).brand);
    }
    Object.defineProperty(this, BRANDS, { value: brands, enumerable: false });
    this.name = new.target.brand;
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    if (typeof value === 'object' && value !== null && Object.hasOwn(value, BRANDS) && Object.hasOwn(this, 'brand')) {
      // An own property only: a brand set on Object.prototype makes nothing an error of the host.
      const carried = (value as { [BRANDS]?: unknown })[BRANDS];
      if (carried instanceof Set && carried.has(this.brand)) return true;
    }
    return Function.prototype[Symbol.hasInstance].call(this, value);
  }
}

/**
 * An input the host refused locally, before anything was sent to the server
 * (a file over its limit or off its accepted types, a form value that fails its schema).
 * The message names the argument and the limit. The CLI exits 1 on it.
 */
export class InputRefusedError extends HostError {
  static override readonly brand: string = 'InputRefusedError';
  constructor(
    message: string,
    readonly argument?: string,
  ) {
    super(message);
  }
}

/** Form values the form refuses: one message per field id ('' = the whole form). */
export class ArgumentsRefusedError extends InputRefusedError {
  static override readonly brand: string = 'ArgumentsRefusedError';
  constructor(readonly errors: Record<string, string>) {
    super(
      Object.entries(errors)
        .map(([id, m]) => `${id || 'arguments'}: ${m}`)
        .join('; '),
      Object.keys(errors)[0],
    );
  }
}

/** The server could not be started or reached (bad command, refused connection, failed handshake). CLI exit 4. */
export class ServerStartError extends HostError {
  static override readonly brand: string = 'ServerStartError';
}

/** The server went away while a request was in flight. CLI exit 4. */
export class ServerCrashedError extends HostError {
  static override readonly brand: string = 'ServerCrashedError';
  constructor(
    message: string,
    readonly exitCode: number | null,
    readonly signal: string | null,
  ) {
    super(message);
  }
}

/** The caller aborted the call (its AbortSignal fired); the server was sent `notifications/cancelled`. */
export class CallCancelledError extends HostError {
  static override readonly brand: string = 'CallCancelledError';
}

/** The host stopped the server while the request was in flight, for a reason it names (a dev-mode restart). */
export class ServerStoppedError extends HostError {
  static override readonly brand: string = 'ServerStoppedError';
}

/** The call got no answer within its timeout (time spent in elicitation handlers is not counted). */
export class CallTimeoutError extends HostError {
  static override readonly brand: string = 'CallTimeoutError';
  constructor(
    message: string,
    readonly timeoutMs: number,
  ) {
    super(message);
  }
}

/** The server answered the request with a JSON-RPC error, or the SDK refused its answer. CLI exit 5. */
export class ServerRequestError extends HostError {
  static override readonly brand: string = 'ServerRequestError';
  constructor(
    message: string,
    readonly code?: number | string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** A request was made while the connection is not running. */
export class NotRunningError extends HostError {
  static override readonly brand: string = 'NotRunningError';
}

/** The user declined, cancelled, or never completed a URL the server required. */
export class UrlElicitationIncompleteError extends HostError {
  static override readonly brand: string = 'UrlElicitationIncompleteError';
}

/** A file transfer (SEP-2631) failed at the store or was cancelled: not a local refusal, the server was involved. */
export class TransferFailedError extends HostError {
  static override readonly brand: string = 'TransferFailedError';
}

/** A sampling request refused because the server already has as many running and waiting as the host holds. */
export class SamplingQueueFullError extends HostError {
  static override readonly brand: string = 'SamplingQueueFullError';
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
