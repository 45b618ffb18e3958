// RFC 2397 data URIs: the only form in which file bytes travel to a server (SEP-2356).
// The parser validates values that came from elsewhere (a model, a result); it never fetches anything.

import { decodedSize } from './redact';

export interface ParsedDataUri {
  ok: true;
  /** `type/subtype`, lower-cased; `text/plain` when the URI names none (RFC 2397). */
  mediaType: string;
  /** Parameters other than `base64`, keys lower-cased, values percent-decoded (e.g. `charset`, legacy `name`). */
  params: Record<string, string>;
  base64: boolean;
  /** Decoded size in bytes, computed without decoding. */
  size: number;
  /** Index of the first payload character in the URI. */
  payloadStart: number;
}

export interface DataUriError {
  ok: false;
  reason: string;
}

const TOKEN = /^[!#$&^_.+\-0-9a-z]+$/i;
const BASE64_BODY = /^[A-Za-z0-9+/]*={0,2}$/;
const PERCENT_BODY = /^(?:[\x21-\x24\x26-\x7e]|%[0-9A-Fa-f]{2})*$/;

/**
 * Validates a `data:` URI and describes it. Base64 payloads must be strict RFC 4648
 * (alphabet only, padded to a multiple of 4); percent-encoded payloads must not hold
 * whitespace or a stray `%`. Any other scheme is refused without being touched.
 */
export function parseDataUri(uri: string): ParsedDataUri | DataUriError {
  if (typeof uri !== 'string') return { ok: false, reason: 'not a string' };
  if (uri.slice(0, 5).toLowerCase() !== 'data:') {
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(uri)?.[1];
    return {
      ok: false,
      reason: scheme ? `uses the ${scheme.toLowerCase()}: scheme; only data: URIs are accepted (nothing is fetched or read)` : 'is not a data: URI',
    };
  }
  const comma = uri.indexOf(',', 5);
  if (comma < 0) return { ok: false, reason: 'has no comma between the media type and the data' };
  const segments = uri.slice(5, comma).split(';');
  let base64 = false;
  if (segments.length > 1 && segments[segments.length - 1]!.toLowerCase() === 'base64') {
    base64 = true;
    segments.pop();
  }
  const type = segments[0]!.trim();
  let mediaType = 'text/plain';
  if (type !== '') {
    const [top, sub, extra] = type.split('/');
    if (extra !== undefined || !top || !sub || !TOKEN.test(top) || !TOKEN.test(sub)) {
      return { ok: false, reason: `has a malformed media type "${type.slice(0, 80)}"` };
    }
    mediaType = `${top}/${sub}`.toLowerCase();
  }
  const params: Record<string, string> = {};
  for (const segment of segments.slice(1)) {
    const eq = segment.indexOf('=');
    const key = eq > 0 ? segment.slice(0, eq).trim().toLowerCase() : '';
    if (!key || !TOKEN.test(key)) {
      return { ok: false, reason: `has a malformed parameter "${segment.slice(0, 80)}" (base64 must come last)` };
    }
    params[key] = safeDecode(segment.slice(eq + 1));
  }
  const payload = uri.slice(comma + 1);
  if (base64) {
    if (!BASE64_BODY.test(payload)) {
      return { ok: false, reason: 'has base64 data with characters outside the base64 alphabet (or padding in the middle)' };
    }
    if (payload.length % 4 !== 0) return { ok: false, reason: 'has base64 data that is not padded to a multiple of 4 characters' };
  } else if (!PERCENT_BODY.test(payload)) {
    return { ok: false, reason: 'has percent-encoded data with whitespace, non-ASCII characters or a malformed % escape' };
  }
  return { ok: true, mediaType, params, base64, size: decodedSize(payload, base64), payloadStart: comma + 1 };
}

/** The bytes a valid data URI carries. */
export function dataUriBytes(uri: string, parsed: ParsedDataUri): Buffer {
  const payload = uri.slice(parsed.payloadStart);
  return parsed.base64 ? Buffer.from(payload, 'base64') : Buffer.from(percentDecodeBytes(payload));
}

function percentDecodeBytes(payload: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < payload.length; i++) {
    const c = payload.charCodeAt(i);
    if (c === 37 /* % */) {
      out.push(parseInt(payload.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      out.push(c);
    }
  }
  return Uint8Array.from(out);
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * `data:<mediaType>[;name=<legacy name>];base64,<payload>`. One base64 pass; the prefix is joined
 * without copying the payload. `name` is the pre-2026-04 `;name=` parameter, sent only when asked for.
 */
export function encodeDataUri(bytes: Buffer, mediaType: string, opts?: { name?: string }): string {
  const type = mediaType && /^[^/;,\s]+\/[^/;,\s]+$/.test(mediaType) ? mediaType.toLowerCase() : 'application/octet-stream';
  const name = opts?.name !== undefined ? `;name=${encodeLegacyName(opts.name)}` : '';
  return `data:${type}${name};base64,` + bytes.toString('base64');
}

/** RFC 3986 percent-encoding of a file name for the legacy `;name=` parameter (also escapes `!'()*`). */
export function encodeLegacyName(name: string): string {
  return encodeURIComponent(name).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}
