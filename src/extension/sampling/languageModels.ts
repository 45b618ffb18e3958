// A sampling request asked of one of VS Code's language models (`vscode.lm`): the MCP messages become chat
// messages (the system prompt first, media as data parts where VS Code has them, tool uses and results as
// tool parts), the offered tools go along, and the streamed answer is bounded by the request's maxTokens.

import * as vscode from 'vscode';
import { contentBlocks, type ModelChoice, type SampledToolUse, type SamplingRequest } from '../../core/sampling';

/** How long the user's models may take to be listed, and one answer to stream. */
export const LIST_MODELS_TIMEOUT_MS = 10_000;
export const ANSWER_TIMEOUT_MS = 5 * 60_000;
/** The longest answer kept, whatever maxTokens allows (about 4 characters a token). */
const ANSWER_MAX_CHARS = 1_000_000;
const CHARS_PER_TOKEN = 4;

export const NO_MODEL_MESSAGE =
  'VS Code has no language model to answer with. Install an extension that provides one (for example GitHub Copilot Chat, ' +
  'or another language model provider from the Marketplace), sign in to it, and ask again.';

/** The user's edits of the request's text before approving: the system prompt and text blocks by `<message>.<block>`. */
export interface RequestEdits {
  systemPrompt?: string;
  texts?: Record<string, string>;
}

export interface ModelAnswer {
  text: string;
  toolUses: SampledToolUse[];
  /** Cut at the request's maxTokens. */
  truncated: boolean;
}

/** What a failed model request says (VS Code may reject with something that is not an Error). */
export function modelErrorText(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (typeof e === 'object' && e !== null) {
    const message = (e as { message?: unknown }).message;
    return typeof message === 'string' ? message : `the request failed (${JSON.stringify(e).slice(0, 200)})`;
  }
  return String(e);
}

/** The chat models VS Code offers now (bounded: a provider that never answers leaves the list empty). */
export async function availableModels(): Promise<vscode.LanguageModelChat[]> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`VS Code did not list its language models within ${LIST_MODELS_TIMEOUT_MS / 1000} s`)), LIST_MODELS_TIMEOUT_MS);
  });
  try {
    return await Promise.race([Promise.resolve(vscode.lm.selectChatModels()), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function modelChoice(model: vscode.LanguageModelChat): ModelChoice {
  return { id: model.id, name: model.name, family: model.family, vendor: model.vendor };
}

export function modelLabel(model: vscode.LanguageModelChat): string {
  return `${model.name} (${model.vendor})`;
}

/** VS Code's data part (image and audio input), final since 1.104: absent from older hosts and from @types 1.100. */
type DataPartClass = new (data: Uint8Array, mimeType: string) => object;
function dataPartClass(): DataPartClass | undefined {
  return (vscode as unknown as { LanguageModelDataPart?: DataPartClass }).LanguageModelDataPart;
}

type ChatPart = vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart | vscode.LanguageModelToolResultPart;

/** The request as chat messages, with the user's edits applied. */
export function chatMessages(request: SamplingRequest, edits: RequestEdits = {}): vscode.LanguageModelChatMessage[] {
  const messages: vscode.LanguageModelChatMessage[] = [];
  const system = edits.systemPrompt ?? request.systemPrompt;
  // The chat API has no system role: the system prompt goes first, as the user's.
  if (system) messages.push(vscode.LanguageModelChatMessage.User(system));
  const DataPart = dataPartClass();
  request.messages.forEach((message, i) => {
    const parts: ChatPart[] = contentBlocks(message.content).map((block, j) => {
      switch (block.type) {
        case 'text':
          return new vscode.LanguageModelTextPart(edits.texts?.[`${i}.${j}`] ?? String(block.text ?? ''));
        case 'image':
        case 'audio': {
          const mimeType = String(block.mimeType);
          if (!DataPart) return new vscode.LanguageModelTextPart(`[${block.type} ${mimeType} left out: this VS Code cannot pass media to a model]`);
          // The data part is not in @types/vscode 1.100; VS Code accepts it in a message's content.
          return new DataPart(new Uint8Array(Buffer.from(String(block.data), 'base64')), mimeType) as unknown as vscode.LanguageModelTextPart;
        }
        case 'tool_use':
          return new vscode.LanguageModelToolCallPart(String(block.id), String(block.name), block.input ?? {});
        case 'tool_result':
          return new vscode.LanguageModelToolResultPart(
            String(block.toolUseId),
            contentBlocks(block.content).map((c) => new vscode.LanguageModelTextPart(c.type === 'text' ? String(c.text ?? '') : `[${String(c.type)} content]`)),
          );
        default:
          return new vscode.LanguageModelTextPart('');
      }
    });
    messages.push(
      new vscode.LanguageModelChatMessage(
        message.role === 'assistant' ? vscode.LanguageModelChatMessageRole.Assistant : vscode.LanguageModelChatMessageRole.User,
        parts,
      ),
    );
  });
  return messages;
}

/** The tools offered, as the chat API takes them (none when the server's toolChoice is `none`). */
function chatTools(request: SamplingRequest): Pick<vscode.LanguageModelChatRequestOptions, 'tools' | 'toolMode'> {
  const mode = (request.toolChoice as { mode?: string } | undefined)?.mode;
  if (!request.tools?.length || mode === 'none') return {};
  const tools = request.tools.map((t) => {
    const tool = t as { name: string; description?: string; inputSchema: object };
    return { name: tool.name, description: tool.description ?? '', inputSchema: tool.inputSchema };
  });
  return { tools, toolMode: mode === 'required' ? vscode.LanguageModelChatToolMode.Required : vscode.LanguageModelChatToolMode.Auto };
}

/**
 * Asks `model`, reporting the answer so far after each streamed part. The text stops at maxTokens (about
 * 4 characters a token: the chat API has no token limit of its own), and the whole answer is bounded in time.
 */
export async function askModel(
  model: vscode.LanguageModelChat,
  request: SamplingRequest,
  o: { server: string; edits?: RequestEdits; onProgress: (answer: ModelAnswer) => void; token: vscode.CancellationToken },
): Promise<ModelAnswer> {
  const cancel = new vscode.CancellationTokenSource();
  const forward = o.token.onCancellationRequested(() => cancel.cancel());
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    cancel.cancel();
  }, ANSWER_TIMEOUT_MS);
  const maxChars = Math.min(ANSWER_MAX_CHARS, request.maxTokens * CHARS_PER_TOKEN);
  const answer: ModelAnswer = { text: '', toolUses: [], truncated: false };
  try {
    const response = await model.sendRequest(
      chatMessages(request, o.edits),
      {
        justification: `${o.server} asks for a language model's answer (MCP sampling).`,
        modelOptions: { maxTokens: request.maxTokens, ...(typeof request.temperature === 'number' ? { temperature: request.temperature } : {}) },
        ...chatTools(request),
      },
      cancel.token,
    );
    for await (const part of response.stream) {
      if (part instanceof vscode.LanguageModelTextPart) {
        answer.text += part.value;
        if (answer.text.length > maxChars) {
          answer.text = answer.text.slice(0, maxChars);
          answer.truncated = true;
        }
      } else if (part instanceof vscode.LanguageModelToolCallPart) {
        answer.toolUses.push({ id: part.callId, name: part.name, input: part.input as Record<string, unknown> });
      }
      o.onProgress({ ...answer, toolUses: [...answer.toolUses] });
      if (answer.truncated) {
        cancel.cancel();
        break;
      }
      if (cancel.token.isCancellationRequested) break;
    }
    if (timedOut) throw new Error(`the model gave no complete answer within ${ANSWER_TIMEOUT_MS / 60_000} minutes`);
    return answer;
  } finally {
    clearTimeout(timer);
    forward.dispose();
    cancel.dispose();
  }
}
