// Sampling in VS Code: a server's `sampling/createMessage` (already checked against the host's limits by the
// connection) opens a panel naming the server and showing the request; the user approves it (edited or not)
// with a model picked from `vscode.lm`, watches the answer stream in, and sends it or declines. A server
// listed in `mcpHost.sampling.autoApprove` skips both questions. Every wait is bounded; whatever ends the
// request (decline, closing the panel, the server cancelling, a timeout) answers the server with the reason.

import * as vscode from 'vscode';
import { setting } from '../settings';
import type { Logger } from '../../core/log';
import { errorText } from '../../core/errors';
import {
  contentBlocks,
  preferredModel,
  SamplingDeclinedError,
  samplingResult,
  type SamplingHandler,
  type SamplingRequest,
  type SamplingResult,
} from '../../core/sampling';
import { queuedSamplingHandler, SAMPLING_QUEUE_LIMITS } from '../../core/sampling/queue';
import type { SamplingAnswer, SamplingBlock, SamplingPanelInit, SamplingStage } from '../../shared/protocol';
import { WebviewHost } from '../panels/webviewHost';
import { askModel, availableModels, modelChoice, modelErrorText, modelLabel, NO_MODEL_MESSAGE, type ModelAnswer, type RequestEdits } from './languageModels';
import { onAbort } from '../../core/events';

/** How long the panel waits for the user (to approve, then to send the answer). */
export const USER_WAIT_MS = 10 * 60_000;
/** Streamed answers reach the panel at most this often. */
const PROGRESS_INTERVAL_MS = 100;

/** Servers whose sampling requests are approved without asking (`mcpHost.sampling.autoApprove`). */
export function autoApproves(server: string): boolean {
  const names: unknown = setting('sampling.autoApprove');
  return Array.isArray(names) && names.includes(server);
}

/**
 * The sampling handler of one server's connection: its requests take turns (one panel at a time, a bounded
 * number waiting; SAMPLING_QUEUE_LIMITS.panel).
 */
export function samplingHandlerFor(extensionUri: vscode.Uri, log: Logger): SamplingHandler {
  return queuedSamplingHandler(async (request, ctx) => {
    const models = await availableModels().catch((e: unknown) => {
      throw new SamplingDeclinedError(errorText(e));
    });
    if (models.length === 0) {
      log.warn(`sampling: no language model in VS Code (${NO_MODEL_MESSAGE})`);
      throw new SamplingDeclinedError(NO_MODEL_MESSAGE);
    }
    const preselected = models[preferredModel(models.map(modelChoice), request.modelPreferences)]!;
    // An app's request is always asked about: auto-approval is for the server's own requests.
    if (autoApproves(ctx.server) && !ctx.requester) {
      log.info(`sampling approved without asking (mcpHost.sampling.autoApprove), model ${modelLabel(preselected)}`);
      const token = tokenOf(ctx.signal);
      try {
        const answer = await askModel(preselected, request, { server: ctx.server, onProgress: () => undefined, token: token.token });
        if (ctx.signal.aborted) throw new SamplingDeclinedError('the server cancelled the request');
        return samplingResult({ ...answer, model: preselected.id });
      } catch (e) {
        throw e instanceof SamplingDeclinedError ? e : new SamplingDeclinedError(`the model failed: ${modelErrorText(e)}`);
      } finally {
        token.dispose();
      }
    }
    // An app's request opens beside its panel: the app keeps running (a hidden webview would reload it).
    return new SamplingSession(
      extensionUri,
      log,
      request,
      ctx.requester ? `${ctx.requester} of ${ctx.server}` : ctx.server,
      models,
      preselected,
      ctx.requester ? vscode.ViewColumn.Beside : undefined,
    ).run(ctx.signal);
  }, SAMPLING_QUEUE_LIMITS.panel);
}

/** One request's panel, from the question to the answer sent. */
class SamplingSession {
  private stage: SamplingStage = 'ask';
  private answer: ModelAnswer = { text: '', toolUses: [], truncated: false };
  private error: string | undefined;
  /** The request was answered or declined: a model still streaming is ignored. */
  private closed = false;
  private chosen: vscode.LanguageModelChat;
  private readonly cancelModel = new vscode.CancellationTokenSource();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: Logger,
    private readonly request: SamplingRequest,
    private readonly server: string,
    private readonly models: readonly vscode.LanguageModelChat[],
    preselected: vscode.LanguageModelChat,
    private readonly column?: vscode.ViewColumn,
  ) {
    this.chosen = preselected;
  }

  run(signal: AbortSignal): Promise<SamplingResult> {
    return new Promise<SamplingResult>((resolve, reject) => {
      let settled = false;
      const panel = WebviewHost.create({
        viewType: 'mcpHost.sampling',
        title: `MCP: ${this.server} asks a model`,
        extensionUri: this.extensionUri,
        column: this.column,
        init: () => this.init(),
        onProblem: (m) => this.log.warn(`sampling panel: ${m}`),
      });
      const finish = (outcome: { result: SamplingResult } | { declined: string }): void => {
        if (settled) return;
        settled = true;
        this.closed = true;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.cancelModel.cancel();
        this.cancelModel.dispose();
        if ('result' in outcome) resolve(outcome.result);
        else reject(new SamplingDeclinedError(outcome.declined));
        panel.dispose();
      };
      const timer = setTimeout(() => finish({ declined: `no answer was given within ${USER_WAIT_MS / 60_000} minutes` }), USER_WAIT_MS);
      const onAbort = (): void => finish({ declined: 'the server cancelled the request' });
      signal.addEventListener('abort', onAbort);
      panel.onDidDispose(() => finish({ declined: 'the sampling panel was closed without an answer' }));
      panel.onMessage((message) => {
        if (message.type === 'answer' && message.action === 'decline') {
          finish({ declined: 'the user declined it' });
        } else if (message.type === 'samplingApprove' && this.stage === 'ask') {
          const model = this.models.find((m) => m.id === message.model);
          if (!model) return;
          this.chosen = model;
          void this.ask(panel, { systemPrompt: message.systemPrompt, texts: message.texts });
        } else if (message.type === 'samplingSend' && this.stage === 'review' && !this.error) {
          this.stage = 'sent';
          panel.post({ type: 'samplingAnswer', stage: this.stage, answer: this.answerView(true) });
          // The text as the user sent it (edited or not), cut to the same bound as the model's.
          const text = message.text.slice(0, Math.max(this.answer.text.length, this.request.maxTokens * 4));
          finish({ result: samplingResult({ text, toolUses: this.answer.toolUses, truncated: this.answer.truncated, model: this.chosen.id }) });
        }
      });
      if (signal.aborted) onAbort();
    });
  }

  private async ask(panel: WebviewHost, edits: RequestEdits): Promise<void> {
    this.stage = 'answering';
    this.log.info(`sampling approved, asking ${modelLabel(this.chosen)}`);
    let lastPost = 0;
    const post = (done: boolean) => panel.post({ type: 'samplingAnswer', stage: this.stage, answer: this.answerView(done) });
    post(false);
    try {
      this.answer = await askModel(this.chosen, this.request, {
        server: this.server,
        edits,
        token: this.cancelModel.token,
        onProgress: (answer) => {
          this.answer = answer;
          const now = Date.now();
          if (now - lastPost >= PROGRESS_INTERVAL_MS) {
            lastPost = now;
            post(false);
          }
        },
      });
    } catch (e) {
      this.error = modelErrorText(e);
      this.log.warn(`sampling: the model failed: ${this.error}`);
    }
    if (this.closed) return;
    this.stage = 'review';
    post(true);
  }

  private answerView(done: boolean): SamplingAnswer {
    return {
      text: this.answer.text,
      toolUses: this.answer.toolUses.map((u) => ({ name: u.name, input: JSON.stringify(u.input) })),
      done,
      truncated: this.answer.truncated || undefined,
      error: this.error,
    };
  }

  private init(): SamplingPanelInit {
    const r = this.request;
    return {
      kind: 'sampling',
      heading: { title: `${this.server} asks a language model`, server: this.server },
      systemPrompt: r.systemPrompt,
      messages: r.messages.map((m) => ({ role: m.role === 'assistant' ? 'assistant' : 'user', blocks: contentBlocks(m.content).map(blockView) })),
      maxTokens: r.maxTokens,
      preferences: preferenceLines(r.modelPreferences),
      tools: (r.tools ?? []).map((t) => {
        const tool = t as { name: string; description?: unknown };
        return { name: tool.name, description: typeof tool.description === 'string' ? tool.description : undefined };
      }),
      toolChoice:
        typeof (r.toolChoice as { mode?: unknown } | undefined)?.mode === 'string' ? `toolChoice ${(r.toolChoice as { mode: string }).mode}` : undefined,
      models: this.models.map((m) => ({ id: m.id, label: modelLabel(m) })),
      model: this.chosen.id,
      stage: this.stage,
      answer: this.stage === 'ask' ? undefined : this.answerView(this.stage !== 'answering'),
    };
  }
}

/** A content block as the panel shows it; media data was checked (type and base64) before the request got here. */
function blockView(block: Record<string, unknown>): SamplingBlock {
  switch (block.type) {
    case 'text':
      return { kind: 'text', text: String(block.text ?? '') };
    case 'image':
    case 'audio': {
      const data = String(block.data);
      const bytes = Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
      return { kind: block.type, mimeType: String(block.mimeType), dataUri: `data:${String(block.mimeType)};base64,${data}`, bytes };
    }
    case 'tool_use':
      return { kind: 'toolUse', id: String(block.id), name: String(block.name), input: JSON.stringify(block.input ?? {}) };
    case 'tool_result':
      return {
        kind: 'toolResult',
        toolUseId: String(block.toolUseId),
        isError: block.isError === true,
        text: contentBlocks(block.content)
          .map((c) => (c.type === 'text' ? String(c.text ?? '') : `[${String(c.type)}]`))
          .join('\n'),
      };
    default:
      return { kind: 'text', text: `[${String(block.type)}]` };
  }
}

/** The server's model preferences as lines of text: its hints in order, then its priorities. */
function preferenceLines(preferences: unknown): string[] {
  const p = (preferences ?? {}) as { hints?: unknown; costPriority?: unknown; speedPriority?: unknown; intelligencePriority?: unknown };
  const hints = (Array.isArray(p.hints) ? p.hints : [])
    .map((h) => (h as { name?: unknown } | null)?.name)
    .filter((n): n is string => typeof n === 'string')
    .slice(0, 20);
  const lines = hints.length ? [`Hints: ${hints.join(', ')}`] : [];
  for (const key of ['intelligencePriority', 'speedPriority', 'costPriority'] as const) {
    if (typeof p[key] === 'number') lines.push(`${key.replace('Priority', '')} priority: ${p[key]}`);
  }
  return lines;
}

/** A cancellation token that follows an abort signal until disposed. */
function tokenOf(signal: AbortSignal): { token: vscode.CancellationToken; dispose(): void } {
  const source = new vscode.CancellationTokenSource();
  const link = onAbort(signal, () => source.cancel());
  return {
    token: source.token,
    dispose: () => {
      link.dispose();
      source.dispose();
    },
  };
}
