import type { Implementation, ProtocolEra, Root } from '@modelcontextprotocol/client';
import type { FetchLike, OAuthClientProvider } from '@modelcontextprotocol/client';
import type { FileUploader } from '../files/transfer/encode';
import type { Logger } from '../log';
import type { EraCache } from './eraCache';
import type { SamplingHandler } from '../sampling';
import type { McpLogLevel } from './serverLog';

export type { ProtocolEra };

/** The lists a server keeps: each is listed again when the server says it changed. */
export type ServerList = 'tools' | 'prompts' | 'resources' | 'resourceTemplates';

export type ConnectionState =
  | { kind: 'stopped' }
  | { kind: 'starting' }
  | { kind: 'running'; era: ProtocolEra; protocolVersion?: string }
  /** `signIn`: the server asked for a sign-in that did not happen (required here, cancelled, or failed). */
  | { kind: 'error'; reason: string; signIn?: 'required' | 'cancelled' | 'failed' }
  | { kind: 'crashed'; exitCode: number | null; signal?: string | null; reason: string };

type StateOf<K extends ConnectionState['kind']> = Extract<ConnectionState, { kind: K }>;

/**
 * What a state allows, asked here rather than by comparing kinds where it is used. A value of this module (which
 * imports types only), so the extension asks without loading the connection's bundle.
 */
export const ConnectionState = {
  /** Requests may be sent. */
  isRunning: (state: ConnectionState | undefined): state is StateOf<'running'> => state?.kind === 'running',
  /** Neither starting nor running: a start starts it (again). */
  canBeStarted: (state: ConnectionState): state is StateOf<'stopped' | 'error' | 'crashed'> =>
    state.kind === 'stopped' || state.kind === 'error' || state.kind === 'crashed',
  /** It failed to start, or its process ended without being asked to. */
  hasFailed: (state: ConnectionState): state is StateOf<'error' | 'crashed'> => state.kind === 'error' || state.kind === 'crashed',
} as const;

/** A SEP-1306 upload target for one file field of a binary-mode elicitation. */
export interface UploadEndpoint {
  url: string;
  method?: string;
  uploadId?: string;
  [k: string]: unknown;
}

/**
 * `elicitation/create` params exactly as the server sent them: unknown keywords (`x-mcp-file`) are kept.
 * `mode` is absent for a plain form request; `binary` is SEP-1306.
 */
export interface ElicitRequestParamsLoose {
  mode?: 'form' | 'url' | 'binary' | (string & {});
  message: string;
  requestedSchema?: Record<string, unknown>;
  url?: string;
  elicitationId?: string;
  uploadEndpoints?: Record<string, UploadEndpoint>;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/** The answer; in binary mode `content` values may be objects (`{name, size, mimeType, uploadId}`). */
export interface ElicitResultLoose {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

export interface ElicitationContext {
  server: string;
  /** Aborted when the server cancels the request or the connection goes away. */
  signal: AbortSignal;
  /** Binary mode: the request's `_meta.progressToken`, when the server asked for progress. */
  progressToken?: string | number;
  /** Binary mode: reports upload progress (bytes so far, total) to the server; a no-op without a token. */
  sendProgress?: (progress: number, total?: number, message?: string) => Promise<void>;
  /** Binary mode over HTTP: the MCP server's origin (uploads elsewhere need the user's consent). */
  serverOrigin?: string;
  /** Binary mode over HTTP: the configured `Authorization` header, to send only to `serverOrigin`. */
  authHeader?: string;
  /** SEP-2631: uploads files out of band for x-mcp-file fields (present when the `files` capability is declared). */
  uploader?: FileUploader;
}

export type ElicitationHandler = (params: ElicitRequestParamsLoose, ctx: ElicitationContext) => Promise<ElicitResultLoose>;

export interface BinaryElicitationOptions {
  /** Bytes the host accepts per file. */
  maxFileSize?: number;
  /** Defaults to `["*\/*"]`. */
  supportedMimeTypes?: string[];
}

export interface ConnectionOptions {
  log: Logger;
  /** The workspace folders, offered as roots (with `listChanged`; call `notifyRootsChanged()` on change). */
  roots?: () => Root[];
  clientInfo?: Implementation;
  /** Declares `elicitation: {form, url}` and answers with this handler. Absent: not declared; a server that asks anyway gets `cancel`. */
  elicitation?: ElicitationHandler;
  /** Remembers each server's negotiated era so the next connect skips the probe. */
  eraCache?: EraCache;
  capabilities?: {
    /** Declare the SEP-2356 `fileInputs: {}` capability (a compatibility toggle; off by default). */
    fileInputs?: boolean;
    /** Declare the MCP Apps extension (`extensions["io.modelcontextprotocol/ui"]`): the host renders app interfaces. */
    apps?: boolean;
    /** Declare SEP-1306 `elicitation.binary` and route `mode: "binary"` requests to `elicitation`. */
    binaryElicitation?: BinaryElicitationOptions | false;
    /** Declare SEP-2631 `files: {upload, download, transports: ["https"]}` and allow out-of-band transfer. */
    files?: boolean;
    /** With `sampling`: declare `sampling.tools` (the handler passes the tools offered to a model). */
    samplingTools?: boolean;
    /** Declare 2025-11-25 `tasks.requests` for sampling and elicitation: a server may send them as tasks. */
    taskRequests?: boolean;
  };
  /** Declares `sampling` and answers `sampling/createMessage` with this handler (after the host's limits). */
  sampling?: SamplingHandler;
  /** The least severe server log message wanted (`logging/setLevel`, or `_meta` in 2026-07-28); unset: the server decides. */
  serverLogLevel?: McpLogLevel;
  /** 2026-07-28 multi-round-trip requests: how many input rounds one call may take (default 10). */
  inputRequired?: { maxRounds?: number };
  /** Default per-call timeout (default DEFAULT_REQUEST_TIMEOUT_MS, 5 min); time spent in elicitation handlers is not counted, progress restarts it. */
  requestTimeoutMs?: number;
  /** Timeout for starting and the handshake (default: requestTimeoutMs, at most 30 s). */
  connectTimeoutMs?: number;
  /** The most bytes one message from the server may have: a stdio line, an HTTP body, an SSE event (default 32 MiB). */
  maxMessageBytes?: number;
  /** stdio stop: wait this long after closing stdin before SIGTERM, and again before SIGKILL (default 5 s). */
  stopGraceMs?: number;
  /** HTTP servers: sign in with OAuth when the server asks (`HostOAuthClientProvider` from core/auth). */
  oauth?: ConnectionOAuthClientProvider;
  /** stdio servers: each line the server writes to stderr, after it is logged (dev mode reads the debugger's port there). */
  onStderrLine?: (line: string) => void;
}

/** The OAuth client provider a connection signs in with: the SDK's provider contract plus the browser round trip's result. */
export interface ConnectionOAuthClientProvider extends OAuthClientProvider {
  /** Called before each connect (starts the redirect receiver). */
  prepare?(): Promise<void>;
  /** Gives up a browser sign-in nobody will wait for (the start failed, or the connection stopped). */
  cancelPendingSignIn?(): void;
  /** After an RFC 8414 issuer mismatch: true when the server predates protected resource metadata (the check may be waived). */
  issuerCheckWaivable?(): Promise<boolean>;
  /**
   * Waits for the browser sign-in the last failed request started (its authorization response), once; undefined
   * when none did; `signed-in` when an account of the host's signed in without a browser.
   */
  pendingSignIn(): Promise<URLSearchParams | 'signed-in' | undefined>;
  /** Wraps the transport's fetch: checks where it goes on the authorization server's word, and watches the server's refusals. */
  guardFetch?(fetch: FetchLike): FetchLike;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Asks the server for progress (a progressToken is sent only when this is given); each report restarts the clock. */
  onProgress?: (p: { progress: number; total?: number; message?: string }) => void;
  /** Overrides `requestTimeoutMs` for this call. */
  timeoutMs?: number;
}
