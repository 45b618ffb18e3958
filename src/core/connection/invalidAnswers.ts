// Answers the SDK cannot accept end their request at once with an error naming the server, instead of being
// dropped (the request would then wait for its timeout, or for ever).
import type { JSONRPCMessage } from '@modelcontextprotocol/client';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** JSON-RPC "Internal error": the code an answer the host cannot use is turned into. */
export const INVALID_ANSWER_CODE = -32603;

function kindOf(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/**
 * A response (it has an id and no method) whose `result` is not an object, or that has neither `result` nor a
 * well-formed `error`, becomes an error response for the same id whose message says what was wrong. Every other
 * message is returned as it is.
 */
export function answerOrError(message: JSONRPCMessage, server: string): JSONRPCMessage {
  const m = message as Record<string, unknown>;
  if (m.method !== undefined || (typeof m.id !== 'string' && typeof m.id !== 'number')) return message;
  const hasResult = Object.hasOwn(m, 'result');
  const hasError = Object.hasOwn(m, 'error');
  let problem: string | undefined;
  if (hasResult && hasError) problem = 'has both "result" and "error"';
  else if (hasResult && !isObject(m.result)) problem = `has a "result" that is ${kindOf(m.result)}, not an object`;
  else if (hasError && (!isObject(m.error) || typeof m.error.code !== 'number' || typeof m.error.message !== 'string')) {
    problem = 'has an "error" without a numeric code and a message';
  } else if (!hasResult && !hasError) problem = 'has neither "result" nor "error"';
  if (!problem) return message;
  return {
    jsonrpc: '2.0', id: m.id,
    error: { code: INVALID_ANSWER_CODE, message: `server "${server}" sent an answer the host cannot use: it ${problem}` },
  } as JSONRPCMessage;
}

/** `answerOrError` on a message as JSON text: the same text when it is fine (or not JSON at all). */
export function answerOrErrorText(text: string, server: string): string {
  let message: unknown;
  try { message = JSON.parse(text); } catch { return text; }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return text;
  const checked = answerOrError(message as JSONRPCMessage, server);
  return checked === message ? text : JSON.stringify(checked);
}
