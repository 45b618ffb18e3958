// Arguments too large for the transport are refused before sending: a stdio server drops a line over its
// limit (and exits, as if it had failed), an HTTP server refuses the body. The ceiling is the file slots' own.
import { formatBytes, inlineLimitsFor, type FileTransport, type InlineLimitOverrides } from '../files/limits';
import { KiB } from './limits';

/** Room for the JSON-RPC envelope around the arguments, as the file slots' ceilings leave it. */
const ENVELOPE_BYTES = 32 * KiB;

/** The most bytes the arguments of one call may have as JSON on this transport. */
export function requestCeilingBytes(transport: FileTransport, overrides?: InlineLimitOverrides): { bytes: number; reason: string } {
  const limits = inlineLimitsFor(transport, overrides);
  // A file at the slot ceiling travels as base64: four characters for every three bytes.
  return { bytes: Math.ceil(limits.ceilingBytes / 3) * 4 + ENVELOPE_BYTES, reason: limits.ceilingReason };
}

/** Why `args` cannot be sent on `transport` (their size, the limit and why), or undefined when they fit. */
export function requestSizeProblem(args: unknown, transport: FileTransport, overrides?: InlineLimitOverrides): string | undefined {
  const ceiling = requestCeilingBytes(transport, overrides);
  const size = Buffer.byteLength(JSON.stringify(args) ?? '');
  if (size <= ceiling.bytes) return undefined;
  return `the arguments are ${formatBytes(size)} as JSON; at most ${formatBytes(ceiling.bytes)} can be sent to a${transport === 'stdio' ? ' stdio' : 'n HTTP'} server in one call (${ceiling.reason})`;
}
