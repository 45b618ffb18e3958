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

/**
 * How long a request to a server waits for its answer when nothing else is said (the CLI's `--timeout`, the
 * extension's `mcpHost.requestTimeoutSeconds`); progress from the server restarts it. A download's deadline starts
 * from it too.
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 5 * 60_000;

/** Ending an HTTP session (the DELETE) waits at most this long; stop, exit and restart never wait longer. */
export const HTTP_SESSION_CLOSE_MS = 2000;

/** A config file reports at most this many errors one by one, then how many more there are. */
export const MAX_REPORTED_CONFIG_ERRORS = 20;

/** A positive whole number of bytes, or the fallback. */
export function byteLimit(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : fallback;
}

/**
 * A value from a server (one tool of a tools/list answer, a result's structuredContent, any other part of a
 * message) may nest this many arrays and objects deep. A deeper tool is refused on its own (the others stay
 * usable); deeper structured content is cut at this depth, shown as cut, and not validated. Far above real
 * schemas, far below what overflows a recursive parser.
 */
export const MAX_SERVER_JSON_DEPTH = 512;

/** Limits on the JSON Schemas the host compiles to validate form values, elicitation answers and structured output. */
export const SCHEMA_LIMITS = {
  /** JSON values (objects, arrays, strings, numbers…) in one schema; a larger one is not compiled, and says so. */
  maxValues: 20_000,
  /** Nesting of one schema, in arrays and objects. */
  maxDepth: MAX_SERVER_JSON_DEPTH,
  /**
   * Characters all patterns of one check may read together (linear time, a few MB a second at worst); past it,
   * the remaining pattern tests pass and the check says so.
   */
  patternChars: 4 * MiB,
  /** Compiled validators kept for schemas seen again as new objects (a re-listed tool); by schema object besides. */
  cachedValidators: 128,
} as const;
