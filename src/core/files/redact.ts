// Data URIs carry file bytes: they never reach a log, an error message or the CLI's --verbose output.
// Every such value is shown as `data:<type>;base64,[<n> bytes]` (or `data:<type>,[<n> bytes]` when percent-encoded).
// File bytes also travel as bare base64 in JSON fields: FileInput/FileOutput `content`, resource `blob`,
// image/audio `data`. Long base64 values of those fields are shown as `[<n> bytes base64]`.

const DATA_URI = /data:([^,;\s"'<>\\]*)((?:;[^,;\s"'<>\\]*)*),([^\s"'<>\\)\]}]*)/gi;

/** Decoded size of a data URI payload, computed without decoding it. */
export function decodedSize(payload: string, base64: boolean): number {
  if (base64) {
    let len = payload.length;
    let pad = 0;
    while (len > 0 && payload.charCodeAt(len - 1) === 61 /* = */) { len--; pad++; }
    return Math.floor(((len + pad) * 3) / 4) - pad;
  }
  let n = 0;
  for (let i = 0; i < payload.length; i++) {
    if (payload.charCodeAt(i) === 37 /* % */) { i += 2; }
    n++;
  }
  return n;
}

function redactOne(_match: string, type: string, params: string, payload: string): string {
  const base64 = /;base64$/i.test(params);
  const mediaType = (type || 'text/plain').toLowerCase();
  return `data:${mediaType}${base64 ? ';base64' : ''},[${decodedSize(payload, base64)} bytes]`;
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
  if (/data:/i.test(out)) out = out.replace(DATA_URI, redactOne);
  if (out.length >= MIN_BASE64_FIELD && /"(?:content|blob|data)"/.test(out)) out = redactBase64Fields(out);
  return out;
}

/** A deep copy of `value` in which every string holding a data URI is redacted. */
export function redactValue<T>(value: T): T {
  if (typeof value === 'string') return redactDataUris(value) as T;
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
