// sampling/createMessage: a server asks the host's model for a completion. The host checks the request against
// its limits before anyone sees it, and answers through a SamplingHandler (the CLI: declined, or a command of
// the user's); a decline is an error to the server that says why.

/** The request as the server sent it (content blocks of any type are kept for the check). */
export interface SamplingRequest {
  messages: { role: string; content: unknown }[];
  systemPrompt?: string;
  maxTokens: number;
  modelPreferences?: unknown;
  tools?: unknown[];
  [key: string]: unknown;
}

export interface SamplingResult { role: 'assistant'; content: unknown; model: string; stopReason?: string; [key: string]: unknown }

export type SamplingHandler = (request: SamplingRequest, ctx: { server: string; signal: AbortSignal }) => Promise<SamplingResult>;

/** The JSON-RPC code a declined sampling request is answered with (the spec's "User rejected sampling request"). */
export const SAMPLING_DECLINED_CODE = -1;

export class SamplingDeclinedError extends Error {
  override readonly name = 'SamplingDeclinedError';
}

export const SAMPLING_LIMITS = {
  /** The messages (and system prompt) as JSON. */
  requestBytes: 4 * 1024 * 1024,
  maxTokens: 1_000_000,
} as const;

const CONTENT_TYPES = new Set(['text', 'image', 'audio', 'tool_use', 'tool_result']);

/** Why the host refuses a request before showing it, or undefined. */
export function samplingRequestProblem(request: SamplingRequest): string | undefined {
  const size = Buffer.byteLength(JSON.stringify({ messages: request.messages, systemPrompt: request.systemPrompt }));
  if (size > SAMPLING_LIMITS.requestBytes) {
    return `the sampling request's messages are ${size} bytes; the host accepts at most ${SAMPLING_LIMITS.requestBytes}`;
  }
  if (!Number.isInteger(request.maxTokens) || request.maxTokens < 1 || request.maxTokens > SAMPLING_LIMITS.maxTokens) {
    return `maxTokens ${request.maxTokens} is outside what the host allows (1 to ${SAMPLING_LIMITS.maxTokens})`;
  }
  for (const [i, message] of request.messages.entries()) {
    for (const block of Array.isArray(message.content) ? message.content : [message.content]) {
      const type = (block as { type?: unknown } | null)?.type;
      if (typeof type !== 'string' || !CONTENT_TYPES.has(type)) {
        return `message ${i + 1} has content of type ${JSON.stringify(type ?? null).slice(0, 60)}, which the host cannot show (text, image, audio, tool_use, tool_result)`;
      }
    }
  }
  return undefined;
}

/** A handler that declines every request, saying why (the CLI without --sampling-command). */
export function decliningSamplingHandler(why: string): SamplingHandler {
  return async () => { throw new SamplingDeclinedError(why); };
}
