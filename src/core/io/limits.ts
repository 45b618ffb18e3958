// The host's size and time limits, in one place. Everything a server sends, and every file the host reads
// whole, has a ceiling here; every wait on a server has a bound.

export const KiB = 1024;
export const MiB = 1024 * KiB;

/**
 * The most bytes one message from a server may have: a stdio line, an HTTP response body, one SSE event.
 * Far above any legitimate result (the display shows 200,000 characters of text); a setting may change it.
 */
export const DEFAULT_MAX_MESSAGE_BYTES = 32 * MiB;

/** Ceilings of the files the host reads whole. */
export const FILE_LIMITS = {
  /** `mcp.json` (VS Code style or Claude style). */
  config: 16 * MiB,
  /** A server's `envFile`. */
  envFile: 1 * MiB,
  /** The CLI's `--elicit @answers.json`. */
  answers: 4 * MiB,
} as const;

/** JSON and JSONC the host parses from a user (arguments, config, answers) may nest this deep. */
export const MAX_JSON_DEPTH = 256;

/** How much of a server's stderr line is kept when it never ends (the rest is dropped, in linear time). */
export const STDERR_LINE_MAX_CHARS = 8 * KiB;

/** Ending an HTTP session (the DELETE) waits at most this long; stop, exit and restart never wait longer. */
export const HTTP_SESSION_CLOSE_MS = 2000;

/** A config file reports at most this many errors one by one, then how many more there are. */
export const MAX_REPORTED_CONFIG_ERRORS = 20;

/** A positive whole number of bytes, or the fallback. */
export function byteLimit(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : fallback;
}
