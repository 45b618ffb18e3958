// The language model provider API (final since VS Code 1.104), newer than the @types/vscode the
// extension is built against (1.100): only what the test model uses.
import 'vscode';

declare module 'vscode' {
  export interface LanguageModelChatInformation {
    readonly id: string;
    readonly name: string;
    readonly family: string;
    readonly version: string;
    readonly detail?: string;
    readonly tooltip?: string;
    readonly maxInputTokens: number;
    readonly maxOutputTokens: number;
    readonly capabilities: { readonly imageInput?: boolean; readonly toolCalling?: boolean | number };
  }

  export interface LanguageModelChatRequestMessage {
    readonly role: LanguageModelChatMessageRole;
    readonly content: ReadonlyArray<unknown>;
    readonly name: string | undefined;
  }

  export interface ProvideLanguageModelChatResponseOptions {
    readonly modelOptions?: { readonly [name: string]: unknown };
    readonly tools?: readonly LanguageModelChatTool[];
    readonly toolMode: LanguageModelChatToolMode;
  }

  export type LanguageModelResponsePart = LanguageModelTextPart | LanguageModelToolCallPart;

  export interface LanguageModelChatProvider<T extends LanguageModelChatInformation = LanguageModelChatInformation> {
    readonly onDidChangeLanguageModelChatInformation?: Event<void>;
    provideLanguageModelChatInformation(options: { readonly silent: boolean }, token: CancellationToken): ProviderResult<T[]>;
    provideLanguageModelChatResponse(
      model: T,
      messages: readonly LanguageModelChatRequestMessage[],
      options: ProvideLanguageModelChatResponseOptions,
      progress: Progress<LanguageModelResponsePart>,
      token: CancellationToken,
    ): Thenable<void>;
    provideTokenCount(model: T, text: string | LanguageModelChatRequestMessage, token: CancellationToken): Thenable<number>;
  }

  export namespace lm {
    export function registerLanguageModelChatProvider(vendor: string, provider: LanguageModelChatProvider): Disposable;
  }
}
