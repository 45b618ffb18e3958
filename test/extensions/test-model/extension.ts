// A deterministic language model for the tests, registered through VS Code's language model
// provider API so `vscode.lm.selectChatModels()` finds it as it would any installed model.
//
// What it answers, from the last user message only:
//   - `call <tool> {json}`  calls that tool (when it is among the offered tools) with that input
//                           (`{}` when no JSON follows); an unknown tool gets a text saying so.
//   - tool results          `Tool <callId> returned: <their text>`, one line each.
//   - anything else         `<family>: <the message's text>`, media parts as `[<mime type>, <n> bytes]`.
//   - `[slow]` anywhere     each streamed part waits 400 ms instead of 20 ms (to watch the stream).
//   - `[fail]` anywhere     the request fails with "The test model failed as asked."
// Text answers stream in several parts (a few words each). Cancellation stops the stream.
// The command `mcpHostTestModel.setAvailable` (true | false) adds or withdraws both models, so a
// test can see what a user without any language model sees.
// The command `Test Model: Invoke a Language Model Tool` asks for `<tool name> {json input}` and calls that tool
// through vscode.lm.invokeTool as a chat agent outside a chat session would (no toolInvocationToken, so VS Code
// asks its own confirmation in a dialog); the outcome is shown as a notification starting `invokeTool <name>`.
import * as vscode from 'vscode';

export const VENDOR = 'mcp-host-test';

const MODELS: vscode.LanguageModelChatInformation[] = [model('test-echo', 'Test Echo'), model('test-echo-mini', 'Test Echo Mini')];

function model(id: string, name: string): vscode.LanguageModelChatInformation {
  return {
    id,
    name,
    family: id,
    version: '1',
    detail: 'deterministic test model',
    maxInputTokens: 1_000_000,
    maxOutputTokens: 4096,
    capabilities: { imageInput: true, toolCalling: true },
  };
}

const WORDS_PER_PART = 3;

export function activate(context: vscode.ExtensionContext): void {
  let calls = 0;
  let available = true;
  const changed = new vscode.EventEmitter<void>();
  context.subscriptions.push(
    changed,
    vscode.commands.registerCommand('mcpHostTestModel.setAvailable', (value: boolean) => {
      available = value;
      changed.fire();
    }),
    vscode.commands.registerCommand('mcpHostTestModel.invokeTool', async () => {
      const line = await vscode.window.showInputBox({ title: 'Invoke a language model tool', prompt: '<tool name> {json input}', ignoreFocusOut: true });
      const match = line ? /^\s*(\S+)\s*([\s\S]*)$/.exec(line) : null;
      if (!match) return;
      const name = match[1]!;
      try {
        const input = match[2] ? (JSON.parse(match[2]) as object) : {};
        const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
        void vscode.window.showInformationMessage(
          `invokeTool ${name} returned: ${result.content
            .filter(isText)
            .map((t) => t.value)
            .join(' ')}`,
        );
      } catch (e) {
        void vscode.window.showErrorMessage(`invokeTool ${name} failed: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
      }
    }),
    vscode.lm.registerLanguageModelChatProvider(VENDOR, {
      onDidChangeLanguageModelChatInformation: changed.event,
      provideLanguageModelChatInformation: () => (available ? MODELS : []),
      provideTokenCount: async (_model, text) => Math.ceil((typeof text === 'string' ? text : messageText(text)).length / 4),
      async provideLanguageModelChatResponse(info, messages, options, progress, token) {
        const last = [...messages].reverse().find((m) => m.role === vscode.LanguageModelChatMessageRole.User);
        const text = last ? messageText(last) : '';
        if (text.includes('[fail]')) throw new Error('The test model failed as asked.');
        const delayMs = text.includes('[slow]') ? 400 : 20;

        const results = last ? toolResults(last) : [];
        if (results.length > 0) {
          await stream(results.map((r) => `Tool ${r.callId} returned: ${r.text}`).join('\n'), delayMs, progress, token);
          return;
        }
        const call = /\bcall\s+([\w.-]+)(?:\s+(\{[\s\S]*\}))?/.exec(text);
        if (call) {
          const name = call[1];
          if (!(options.tools ?? []).some((t) => t.name === name)) {
            await stream(`${info.family}: no tool named ${name} was offered.`, delayMs, progress, token);
            return;
          }
          let input: object = {};
          try {
            input = call[2] ? (JSON.parse(call[2]) as object) : {};
          } catch {
            await stream(`${info.family}: the input for ${name} is not JSON.`, delayMs, progress, token);
            return;
          }
          calls += 1;
          progress.report(new vscode.LanguageModelToolCallPart(`call-${calls}`, name!, input));
          return;
        }
        await stream(`${info.family}: ${text}`, delayMs, progress, token);
      },
    }),
  );
}

/** The message's text parts joined, with each media part as `[<mime type>, <n> bytes]`. */
function messageText(message: vscode.LanguageModelChatRequestMessage): string {
  return message.content
    .map((part) => {
      if (isText(part)) return part.value;
      if (isData(part)) return `[${part.mimeType}, ${part.data.byteLength} bytes]`;
      return '';
    })
    .join('');
}

function toolResults(message: vscode.LanguageModelChatRequestMessage): { callId: string; text: string }[] {
  return message.content
    .filter((p): p is { callId: string; content: unknown[] } => typeof p === 'object' && p !== null && 'callId' in p && 'content' in p)
    .map((p) => ({
      callId: p.callId,
      text: p.content
        .filter(isText)
        .map((t) => t.value)
        .join(''),
    }));
}

function isText(part: unknown): part is { value: string } {
  return typeof part === 'object' && part !== null && typeof (part as { value?: unknown }).value === 'string';
}

function isData(part: unknown): part is { mimeType: string; data: Uint8Array } {
  return typeof part === 'object' && part !== null && 'mimeType' in part && (part as { data?: unknown }).data instanceof Uint8Array;
}

async function stream(
  text: string,
  delayMs: number,
  progress: vscode.Progress<vscode.LanguageModelResponsePart>,
  token: vscode.CancellationToken,
): Promise<void> {
  const words = text.split(/(?<=\s)/);
  for (let i = 0; i < words.length; i += WORDS_PER_PART) {
    if (token.isCancellationRequested) return;
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (token.isCancellationRequested) return;
    progress.report(new vscode.LanguageModelTextPart(words.slice(i, i + WORDS_PER_PART).join('')));
  }
}
