// Validating a data URI that arrived as a value (from a model, a result, or, on the server side, a
// client) against a slot's descriptor. Used by hosts before forwarding a model-supplied value and by
// the demo and test servers to answer per SEP-2356 (isError text naming the argument and the limit).

import { describeAccept, matchesAccept } from './accept';
import { parseDataUri, type ParsedDataUri } from './dataUri';

export type DataUriValueCheck = { ok: true; parsed: ParsedDataUri } | { ok: false; reason: string };

export function checkDataUriValue(argument: string, value: unknown, descriptor: { accept?: readonly string[]; maxSize?: number }): DataUriValueCheck {
  if (typeof value !== 'string') return { ok: false, reason: `Argument '${argument}' must be a data: URI string.` };
  const parsed = parseDataUri(value);
  if (!parsed.ok) return { ok: false, reason: `Argument '${argument}' ${parsed.reason}.` };
  if (descriptor.maxSize !== undefined && parsed.size > descriptor.maxSize) {
    return {
      ok: false,
      reason: `Argument '${argument}' exceeds maxSize: received ${parsed.size} bytes, limit is ${descriptor.maxSize}.`,
    };
  }
  const mimeOnly = (descriptor.accept ?? []).filter((a) => !a.trim().startsWith('.'));
  if (mimeOnly.length > 0 && !matchesAccept(mimeOnly, { mediaType: parsed.mediaType })) {
    return {
      ok: false,
      reason: `Argument '${argument}' has media type ${parsed.mediaType}; accepted: ${describeAccept(mimeOnly)}.`,
    };
  }
  return { ok: true, parsed };
}

/** "image/png, 70 bytes": what a host shows at approval for a data URI it did not make, or undefined if malformed. */
export function describeDataUri(value: string): string | undefined {
  const parsed = parseDataUri(value);
  if (!parsed.ok) return undefined;
  return `${parsed.mediaType}, ${parsed.size} byte${parsed.size === 1 ? '' : 's'}`;
}
