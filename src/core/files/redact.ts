// Data URIs carry file bytes: they never reach a log, an error message or the CLI's --verbose output.
// Every such value is shown as `data:<type>;base64,[<n> bytes]` (or `data:<type>,[<n> bytes]` when percent-encoded).
// File bytes also travel as bare base64 in JSON fields: FileInput/FileOutput `content`, resource `blob`,
// image/audio `data`. Long base64 values of those fields are shown as `[<n> bytes base64]`.
//
// A data URI is hidden from `data:` to the end of what encloses it, never up to the first character that
// "cannot be in a URI": a percent-encoded payload written by a careless producer may hold `)`, `"` or `\`.
// - Right after a JSON string's opening quote, it runs to that string's closing quote, found at the same
//   escaping depth (a URI inside JSON text inside a JSON string closes at `\"`, not at the outer quote).
// - Elsewhere it runs to the next whitespace.
// The header (media type and parameters, up to the first comma) may hold blanks, as in `data: image/png;base64,`
// or `;name=a b.png`.

const DATA = /data:/gi;
// What comes before the first comma: blanks only before a `type/subtype`, the type (names are at most 127
// characters each, so a failing match stops early), then parameters, each from `;` to the next `;`.
const HEADER = /(?:[ \t]+(?=[^\s,;"\\/]{1,127}\/))?([^\s,;"\\]{0,255})[ \t]*((?:;[^,;]*)*)/y;
const WHITESPACE = /\s/g;

/**
 * The first match of `pattern` (global) at or after a position, or the text's length. Each search starts
 * where asked, and the positions asked for only grow, so a text full of "data:" is still scanned once.
 */
function nextMatch(text: string, pattern: RegExp): (from: number) => number {
  let found = -1;
  return (from) => {
    if (found < from) {
      pattern.lastIndex = from;
      found = pattern.exec(text)?.index ?? text.length;
    }
    return found;
  };
}

interface Finders {
  comma: (from: number) => number;
  lineEnd: (from: number) => number;
}

function finders(text: string): Finders {
  return { comma: nextMatch(text, /,/g), lineEnd: nextMatch(text, /[\r\n]/g) };
}

/** Decoded size of a data URI payload, computed without decoding it. */
export function decodedSize(payload: string, base64: boolean): number {
  if (base64) {
    let len = payload.length;
    let pad = 0;
    while (len > 0 && payload.charCodeAt(len - 1) === 61 /* = */) {
      len--;
      pad++;
    }
    return Math.floor(((len + pad) * 3) / 4) - pad;
  }
  let n = 0;
  for (let i = 0; i < payload.length; i++) {
    if (payload.charCodeAt(i) === 37 /* % */) {
      i += 2;
    }
    n++;
  }
  return n;
}

/** Backslashes right before `index`. */
function backslashesBefore(text: string, index: number): number {
  let n = 0;
  while (index - n > 0 && text.charCodeAt(index - n - 1) === 92 /* \\ */) n++;
  return n;
}

/**
 * How deep in JSON string escaping a quote preceded by `backslashes` sits: 0 for a quote in JSON text,
 * 1 for `\"` (JSON text inside a JSON string), 2 for `\\\"`, ... Escaped backslashes before it come in pairs.
 */
function quoteDepth(backslashes: number): number {
  let depth = 0;
  for (let n = backslashes; n % 2 === 1; n = (n - 1) / 2) depth++;
  return depth;
}

/** Where the content of the JSON string opened at `depth` ends (its closing quote minus that quote's escapes). */
function stringEnd(text: string, from: number, depth: number): number {
  for (let i = from; ;) {
    const quote = text.indexOf('"', i);
    if (quote < 0) return text.length;
    const backslashes = backslashesBefore(text, quote);
    const closing = quoteDepth(backslashes);
    // A quote escaped more deeply is part of the content; one at this depth or shallower closes it.
    if (closing <= depth) return quote - (2 ** closing - 1);
    i = quote + 1;
  }
}

/** The payload as its producer wrote it, for counting its bytes: JSON string escapes undone `times` times. */
function unescaped(payload: string, times: number): string {
  let text = payload;
  for (let i = 0; i < times && text.includes('\\'); i++) {
    try {
      text = JSON.parse(`"${text}"`) as string;
    } catch {
      break;
    }
  }
  return text;
}

/**
 * The data URI whose header starts at `from`, as `data:<type>[;base64],[<n> bytes]`, and where its text ends:
 * at `limit` when it fills an enclosing string, else at the next whitespace before `limit`.
 * Undefined when no header (type, parameters, comma) comes before `limit`: not a data URI.
 */
function redactedUri(
  text: string,
  from: number,
  limit: number,
  fillsString: boolean,
  unescapes: number,
  find: Finders,
): { text: string; end: number } | undefined {
  const comma = find.comma(from);
  if (comma >= limit || (!fillsString && find.lineEnd(from) < comma)) return undefined;
  HEADER.lastIndex = from;
  const header = HEADER.exec(text);
  if (!header || HEADER.lastIndex !== comma) return undefined;
  const payloadStart = comma + 1;
  let end = limit;
  if (!fillsString) {
    WHITESPACE.lastIndex = payloadStart;
    end = Math.min(limit, WHITESPACE.exec(text)?.index ?? limit);
  }
  const base64 = /;[ \t]*base64[ \t]*$/i.test(header[2]!);
  const size = decodedSize(unescaped(text.slice(payloadStart, end), unescapes), base64);
  return { text: `data:${(header[1] || 'text/plain').toLowerCase()}${base64 ? ';base64' : ''},[${size} bytes]`, end };
}

/** Every data URI in `text`, each replaced by its type and decoded size. */
function redactUris(text: string): string {
  let out = '';
  let copied = 0;
  const find = finders(text);
  DATA.lastIndex = 0;
  for (let match = DATA.exec(text); match; match = DATA.exec(text)) {
    const start = match.index;
    const quoted = start > 0 && text.charCodeAt(start - 1) === 34; /* " */
    const depth = quoted ? quoteDepth(backslashesBefore(text, start - 1)) : 0;
    const limit = quoted ? stringEnd(text, DATA.lastIndex, depth) : text.length;
    const uri = redactedUri(text, DATA.lastIndex, limit, quoted, quoted ? depth + 1 : 0, find);
    if (!uri) continue;
    out += text.slice(copied, start) + uri.text;
    copied = uri.end;
    DATA.lastIndex = uri.end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

// Shorter values are left alone: they are not file contents worth hiding and may be ordinary text.
const MIN_BASE64_FIELD = 64;
const BYTE_FIELDS = new Set(['content', 'blob', 'data']);
const FIELD_HEAD = /"(?:content|blob|data)"\s*:\s*"/g;
const BASE64_VALUE = /^[A-Za-z0-9+/]+={0,2}$/;

// A bare greedy run with nothing after it never backtracks; `{64,}` followed by more pattern overflows
// V8's backtracking stack on a multi-megabyte value, so the run and its end are examined separately.
const BASE64_RUN = /[A-Za-z0-9+/]*/y;

/** Replaces long base64 values of `"content"`/`"blob"`/`"data"` JSON fields. */
function redactBase64Fields(text: string): string {
  let out = '';
  let copied = 0;
  FIELD_HEAD.lastIndex = 0;
  for (let head = FIELD_HEAD.exec(text); head; head = FIELD_HEAD.exec(text)) {
    const start = head.index + head[0].length;
    BASE64_RUN.lastIndex = start;
    const end = start + (BASE64_RUN.exec(text)?.[0].length ?? 0);
    let padded = end;
    while (padded < text.length && padded - end < 2 && text.charCodeAt(padded) === 61 /* = */) padded++;
    if (end - start >= MIN_BASE64_FIELD && text.charCodeAt(padded) === 34 /* " */) {
      out += text.slice(copied, start) + `[${decodedSize(text.slice(start, padded), true)} bytes base64]`;
      copied = padded;
    }
    FIELD_HEAD.lastIndex = Math.max(padded, head.index + 1);
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** Replaces every data URI, and every long base64 `content`/`blob`/`data` JSON field, in `text`. */
export function redactDataUris(text: string): string {
  let out = text;
  if (/data:/i.test(out)) out = redactUris(out);
  if (out.length >= MIN_BASE64_FIELD && /"(?:content|blob|data)"/.test(out)) out = redactBase64Fields(out);
  return out;
}

/** A deep copy of `value` in which every string holding a data URI is redacted. */
export function redactValue<T>(value: T): T {
  if (typeof value === 'string') {
    // A value that is a data URI is its enclosing string: the URI runs to its end.
    const whole = /^data:/i.test(value) ? redactedUri(value, 5, value.length, true, 0, finders(value)) : undefined;
    return (whole ? whole.text : redactDataUris(value)) as T;
  }
  if (Array.isArray(value)) return value.map((v) => redactValue(v)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const bytes = BYTE_FIELDS.has(k) && typeof v === 'string' && v.length >= MIN_BASE64_FIELD && BASE64_VALUE.test(v);
      out[k] = bytes ? `[${decodedSize(v, true)} bytes base64]` : redactValue(v);
    }
    return out as T;
  }
  return value;
}
