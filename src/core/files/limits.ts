// How many decoded bytes a file may have to travel inline over a given transport.

import type { TransportKind } from '../config/types';
import { formatBytes } from '../../shared/format';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../io/limits';

export { formatBytes };

export interface InlineLimits {
  transport: TransportKind;
  /** The most decoded bytes one file may have on this transport, whatever the tool's maxSize. */
  ceilingBytes: number;
  /** Why the ceiling is what it is, for refusals. */
  ceilingReason: string;
  /** With no maxSize declared, files above this size get a warning. */
  warnAboveBytes: number;
  /**
   * Present when the host uploads files out of band (SEP-2631): where the slot allows either way, files above
   * `inlineUpToBytes` (when the user set it) or above the ceiling go by upload.
   */
  upload?: { inlineUpToBytes?: number };
  /** Why nothing is uploaded to this server although the host uploads (it declared no `files`): named in refusals. */
  noUploadReason?: string;
}

export interface InlineLimitOverrides {
  stdioMaxBytes?: number;
  httpMaxBytes?: number;
  warnAboveBytes?: number;
  /** SEP-2631 upload: false turns it off; a number is the largest file still sent inline where the host chooses. */
  transfer?: false | { inlineUpToBytes?: number };
}

const MiB = 1024 * 1024;

/**
 * The SDK's stdio transport drops any line over 10 MiB and closes the connection without a reply.
 * 7 MiB decoded is about 9.79 M base64 characters, leaving room for the JSON-RPC envelope.
 */
export const DEFAULT_STDIO_MAX_BYTES = 7 * MiB;

/**
 * HTTP servers built on the MCP SDK (1.x and 2.x) refuse request bodies over 4 MiB; this is the
 * largest file whose base64 form still fits with room for the envelope. Raise it for servers that accept more.
 */
export const DEFAULT_HTTP_MAX_BYTES = Math.floor(((4 * MiB - 32 * 1024) * 3) / 4);

export const DEFAULT_WARN_ABOVE_BYTES = 2 * MiB;

function positive(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : fallback;
}

export function inlineLimitsFor(transport: TransportKind, overrides: InlineLimitOverrides = {}): InlineLimits {
  const warnAboveBytes = positive(overrides.warnAboveBytes, DEFAULT_WARN_ABOVE_BYTES);
  const upload =
    overrides.transfer === undefined || overrides.transfer === false
      ? undefined
      : // Unset, the line is the transport's ceiling: a file that fits inline goes inline, so a server without
        // files/authorizeUpload (every server before SEP-2631) still gets every file it could get before.
        {
          upload:
            overrides.transfer.inlineUpToBytes === undefined ? {} : { inlineUpToBytes: positive(overrides.transfer.inlineUpToBytes, Number.POSITIVE_INFINITY) },
        };
  if (transport === 'stdio') {
    const ceilingBytes = positive(overrides.stdioMaxBytes, DEFAULT_STDIO_MAX_BYTES);
    const reason = overrides.stdioMaxBytes ? 'the configured stdio limit' : "the MCP SDK's stdio transport drops messages over 10 MiB";
    return { transport, ceilingBytes, ceilingReason: reason, warnAboveBytes, ...upload };
  }
  const ceilingBytes = positive(overrides.httpMaxBytes, DEFAULT_HTTP_MAX_BYTES);
  const reason = overrides.httpMaxBytes ? 'the configured HTTP limit' : 'HTTP servers built on the MCP SDK refuse request bodies over 4 MiB';
  return { transport, ceilingBytes, ceilingReason: reason, warnAboveBytes, ...upload };
}

/** The limits without out-of-band upload, for a server that cannot take uploads (`reason` says why, in refusals). */
export function withoutUploads(limits: InlineLimits, reason: string): InlineLimits {
  const { upload: _dropped, ...rest } = limits;
  return { ...rest, noUploadReason: reason };
}

/**
 * The largest file output saved when the server states no size (`mcpHost.files.maxDownloadMiB`, `--max-download`):
 * a body that never ends stops here. A stated size is the limit instead (up to FILE_OUTPUT_MAX_BYTES).
 */
export const DEFAULT_MAX_DOWNLOAD_BYTES = 1024 * MiB;

/** The largest file output saved even when the server states its size. */
export const FILE_OUTPUT_MAX_BYTES = 64 * 1024 * MiB;

/** A download's time: its base (the request timeout) and a second for each of these bytes the server says it has. */
export const MIN_DOWNLOAD_BYTES_PER_SECOND = MiB;

/**
 * How long a download may take: the request timeout (or DEFAULT_REQUEST_TIMEOUT_MS without one), plus a second per
 * MiB of the size the server stated, so a large file that keeps coming at 1 MiB/s finishes and a body that never
 * ends does not run past it.
 */
export function downloadDeadlineMs(requestTimeoutMs: number | undefined, statedSize: number | undefined): number {
  const base = requestTimeoutMs !== undefined && Number.isFinite(requestTimeoutMs) && requestTimeoutMs > 0 ? requestTimeoutMs : DEFAULT_REQUEST_TIMEOUT_MS;
  return base + Math.ceil((statedSize ?? 0) / MIN_DOWNLOAD_BYTES_PER_SECOND) * 1000;
}

/** The SEP-1306 per-file upload limit (declared to servers as `maxFileSize`) when the host names none: 100 MiB. */
export const DEFAULT_UPLOAD_MAX_BYTES = 100 * 1024 * 1024;

/** The limits of a file uploaded (SEP-1306 binary elicitation) rather than sent inline: only the upload limit. */
export function uploadLimitsFor(transport: TransportKind, maxBytes = DEFAULT_UPLOAD_MAX_BYTES): InlineLimits {
  return {
    transport,
    ceilingBytes: maxBytes,
    ceilingReason: `the host uploads at most ${formatBytes(maxBytes)} per file (its binary-upload limit, maxFileSize)`,
    warnAboveBytes: Number.MAX_SAFE_INTEGER,
  };
}
