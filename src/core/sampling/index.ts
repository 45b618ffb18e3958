import { HostError } from '../errors';
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
  toolChoice?: unknown;
  [key: string]: unknown;
}

export interface SamplingResult {
  role: 'assistant';
  content: unknown;
  model: string;
  stopReason?: string;
  [key: string]: unknown;
}

/** `requester`: who asks on the server's behalf when it is not the server itself (an app of it, named so). */
export type SamplingHandler = (request: SamplingRequest, ctx: { server: string; signal: AbortSignal; requester?: string }) => Promise<SamplingResult>;

/** The JSON-RPC code a declined sampling request is answered with (the spec's "User rejected sampling request"). */
export const SAMPLING_DECLINED_CODE = -1;

export class SamplingDeclinedError extends HostError {
  static override readonly brand: string = 'SamplingDeclinedError';
}

export const SAMPLING_LIMITS = {
  /** The messages (and system prompt) as JSON. */
  requestBytes: 4 * 1024 * 1024,
  maxTokens: 1_000_000,
} as const;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
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
    if (message.role !== 'user' && message.role !== 'assistant')
      return `message ${i + 1} has role ${JSON.stringify(message.role).slice(0, 40)}, not user or assistant`;
    for (const block of Array.isArray(message.content) ? message.content : [message.content]) {
      const type = (block as { type?: unknown } | null)?.type;
      if (typeof type !== 'string' || !CONTENT_TYPES.has(type)) {
        return `message ${i + 1} has content of type ${JSON.stringify(type ?? null).slice(0, 60)}, which the host cannot show (text, image, audio, tool_use, tool_result)`;
      }
      if (type === 'image' || type === 'audio') {
        const { mimeType, data } = block as { mimeType?: unknown; data?: unknown };
        if (typeof mimeType !== 'string' || !new RegExp(`^${type}/[\\w.+-]{1,100}$`).test(mimeType)) {
          return `message ${i + 1} has ${type} content whose mimeType ${JSON.stringify(mimeType ?? null).slice(0, 60)} is not ${type}/…`;
        }
        if (typeof data !== 'string' || !BASE64.test(data)) return `message ${i + 1} has ${type} content whose data is not base64`;
      }
    }
  }
  return samplingToolsProblem(request);
}

/**
 * The 2025-11-25 rules for tools in sampling, or undefined when they hold: tools are named with an input
 * schema; `tool_use` appears only in assistant messages and `tool_result` only in user messages made of tool
 * results alone, each answering a `tool_use` of the assistant message just before it.
 */
export function samplingToolsProblem(request: SamplingRequest): string | undefined {
  for (const [i, tool] of (request.tools ?? []).entries()) {
    const t = tool as { name?: unknown; inputSchema?: unknown } | null;
    if (typeof t?.name !== 'string' || t.name === '') return `tool ${i + 1} offered has no name`;
    if (typeof t.inputSchema !== 'object' || t.inputSchema === null) return `tool ${t.name} offered has no inputSchema`;
  }
  const mode = (request.toolChoice as { mode?: unknown } | undefined)?.mode;
  if (mode !== undefined && !['auto', 'required', 'none'].includes(String(mode))) {
    return `toolChoice.mode ${JSON.stringify(mode).slice(0, 40)} is not auto, required or none`;
  }
  let asked = new Set<string>();
  for (const [i, message] of request.messages.entries()) {
    const blocks = contentBlocks(message.content);
    const uses = blocks.filter((b) => b.type === 'tool_use');
    const results = blocks.filter((b) => b.type === 'tool_result');
    if (uses.length > 0 && message.role !== 'assistant') return `message ${i + 1} has tool_use but is not the assistant's`;
    if (results.length > 0) {
      if (message.role !== 'user') return `message ${i + 1} has tool_result but is not the user's`;
      if (results.length !== blocks.length) return `message ${i + 1} mixes tool_result with other content`;
      for (const r of results) {
        if (!asked.has(String(r.toolUseId)))
          return `message ${i + 1} answers tool use ${JSON.stringify(r.toolUseId).slice(0, 60)}, which the message before did not ask for`;
      }
    }
    asked = new Set(uses.map((u) => String(u.id)));
  }
  return undefined;
}

/** A message's content as a list of blocks (the spec allows one block or an array). */
export function contentBlocks(content: unknown): Record<string, unknown>[] {
  return (Array.isArray(content) ? content : [content]).filter((b): b is Record<string, unknown> => typeof b === 'object' && b !== null);
}

/** A model as the host can offer it to the user. */
export interface ModelChoice {
  id: string;
  name: string;
  family: string;
  vendor: string;
}

/**
 * The model to preselect: the first of the server's hints (in its order) that a model's name, family or id
 * contains, case-insensitively; otherwise the first model. -1 when there is none.
 */
export function preferredModel(models: readonly ModelChoice[], preferences: unknown): number {
  const hints = (preferences as { hints?: unknown } | undefined)?.hints;
  for (const hint of Array.isArray(hints) ? hints.slice(0, 20) : []) {
    const name = (hint as { name?: unknown } | null)?.name;
    if (typeof name !== 'string' || name.trim() === '') continue;
    const wanted = name.trim().toLowerCase();
    const found = models.findIndex((m) => [m.name, m.family, m.id].some((x) => x.toLowerCase().includes(wanted)));
    if (found >= 0) return found;
  }
  return models.length > 0 ? 0 : -1;
}

/** A tool call the model made, as the spec's `tool_use` block. */
export interface SampledToolUse {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

/** The answer returned to the server: text, or the model's tool calls (stopReason `toolUse`). */
export function samplingResult(answer: { text: string; toolUses: SampledToolUse[]; model: string; truncated?: boolean }): SamplingResult {
  if (answer.toolUses.length > 0) {
    const blocks: unknown[] = [
      ...(answer.text ? [{ type: 'text', text: answer.text }] : []),
      ...answer.toolUses.map((u) => ({ type: 'tool_use', id: u.id, name: u.name, input: u.input })),
    ];
    return { role: 'assistant', content: blocks, model: answer.model, stopReason: 'toolUse' };
  }
  return { role: 'assistant', content: { type: 'text', text: answer.text }, model: answer.model, stopReason: answer.truncated ? 'maxTokens' : 'endTurn' };
}

/** A handler that declines every request, saying why (the CLI without --sampling-command). */
export function decliningSamplingHandler(why: string): SamplingHandler {
  return async () => {
    throw new SamplingDeclinedError(why);
  };
}
