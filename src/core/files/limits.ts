// How many decoded bytes a file may have to travel inline over a given transport.

export type FileTransport = 'stdio' | 'http' | 'sse';

export interface InlineLimits {
  transport: FileTransport;
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

export function inlineLimitsFor(transport: FileTransport, overrides: InlineLimitOverrides = {}): InlineLimits {
  const warnAboveBytes = positive(overrides.warnAboveBytes, DEFAULT_WARN_ABOVE_BYTES);
  const upload = overrides.transfer === undefined || overrides.transfer === false
    ? undefined
    // Unset, the line is the transport's ceiling: a file that fits inline goes inline, so a server without
    // files/authorizeUpload (every server before SEP-2631) still gets every file it could get before.
    : { upload: overrides.transfer.inlineUpToBytes === undefined ? {} : { inlineUpToBytes: positive(overrides.transfer.inlineUpToBytes, Number.POSITIVE_INFINITY) } };
  if (transport === 'stdio') {
    const ceilingBytes = positive(overrides.stdioMaxBytes, DEFAULT_STDIO_MAX_BYTES);
    const reason = overrides.stdioMaxBytes
      ? 'the configured stdio limit'
      : "the MCP SDK's stdio transport drops messages over 10 MiB";
    return { transport, ceilingBytes, ceilingReason: reason, warnAboveBytes, ...upload };
  }
  const ceilingBytes = positive(overrides.httpMaxBytes, DEFAULT_HTTP_MAX_BYTES);
  const reason = overrides.httpMaxBytes
    ? 'the configured HTTP limit'
    : 'HTTP servers built on the MCP SDK refuse request bodies over 4 MiB';
  return { transport, ceilingBytes, ceilingReason: reason, warnAboveBytes, ...upload };
}

/** "70 bytes", "64 KiB", "7 MiB", "1.5 MiB". */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} byte${n === 1 ? '' : 's'}`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const text = Number.isInteger(value) ? String(value) : value.toFixed(value < 10 ? 1 : 0);
  return `${text.replace(/\.0$/, '')} ${units[unit]}`;
}
