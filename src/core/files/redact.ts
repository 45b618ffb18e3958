// Data URIs carry file bytes: they never reach a log, an error message or the CLI's --verbose output.
// Every such value is shown as `data:<type>;base64,[<n> bytes]` (or `data:<type>,[<n> bytes]` when percent-encoded).

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

/** Replaces every data URI in `text` with its redacted form. */
export function redactDataUris(text: string): string {
  if (!text.includes('data:') && !/data:/i.test(text)) return text;
  return text.replace(DATA_URI, redactOne);
}

/** A deep copy of `value` in which every string holding a data URI is redacted. */
export function redactValue<T>(value: T): T {
  if (typeof value === 'string') return redactDataUris(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactValue(v)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactValue(v);
    return out as T;
  }
  return value;
}
