// Standing in for the user at the window's questions, as agent-tools.test.ts does: each message, quick pick and
// save dialog the extension shows is recorded and answered by the test (undefined: dismissed). What is asked and
// what is done with the answer stay the extension's.
import * as vscode from 'vscode';

type MutableWindow = { -readonly [K in keyof typeof vscode.window]: (typeof vscode.window)[K] };

export interface Question {
  kind: 'warning' | 'information' | 'error' | 'quickPick' | 'saveDialog';
  /** The message, or the quick pick's or save dialog's title. */
  message: string;
  detail?: string;
  /** The buttons, or the quick pick's labels. */
  items: string[];
}

/** A button's title, a quick pick label (several for a pick of many), a file for a save dialog, or undefined. */
export type Answer = string | string[] | vscode.Uri | undefined;

export interface StandIn {
  asked: Question[];
  restore(): void;
}

export function standIn(answer: (q: Question) => Answer): StandIn {
  const window = vscode.window as MutableWindow;
  const original = {
    warning: window.showWarningMessage,
    information: window.showInformationMessage,
    error: window.showErrorMessage,
    pick: window.showQuickPick,
    save: window.showSaveDialog,
  };
  const asked: Question[] = [];
  const message =
    (kind: Question['kind']) =>
    (text: string, ...rest: unknown[]): Thenable<unknown> => {
      const first = rest[0];
      const options = typeof first === 'object' && first !== null && !('title' in first) ? (rest.shift() as vscode.MessageOptions) : undefined;
      const q: Question = { kind, message: text, items: rest.map((i) => (typeof i === 'string' ? i : (i as vscode.MessageItem).title)) };
      if (options?.detail !== undefined) q.detail = options.detail;
      asked.push(q);
      return Promise.resolve(answer(q));
    };
  window.showWarningMessage = message('warning') as typeof window.showWarningMessage;
  window.showInformationMessage = message('information') as typeof window.showInformationMessage;
  window.showErrorMessage = message('error') as typeof window.showErrorMessage;
  window.showQuickPick = (async (
    items: readonly (string | vscode.QuickPickItem)[] | Thenable<readonly (string | vscode.QuickPickItem)[]>,
    options?: vscode.QuickPickOptions,
  ) => {
    const list = await items;
    const label = (i: string | vscode.QuickPickItem) => (typeof i === 'string' ? i : i.label);
    const q: Question = { kind: 'quickPick', message: options?.title ?? '', items: list.map(label) };
    asked.push(q);
    const chosen = answer(q);
    if (options?.canPickMany) return Array.isArray(chosen) ? list.filter((i) => chosen.includes(label(i))) : undefined;
    return list.find((i) => label(i) === chosen);
  }) as typeof window.showQuickPick;
  window.showSaveDialog = ((options?: vscode.SaveDialogOptions) => {
    const q: Question = { kind: 'saveDialog', message: options?.title ?? '', items: [] };
    asked.push(q);
    const chosen = answer(q);
    return Promise.resolve(chosen instanceof vscode.Uri ? chosen : undefined);
  }) as typeof window.showSaveDialog;
  return {
    asked,
    restore: () => {
      window.showWarningMessage = original.warning;
      window.showInformationMessage = original.information;
      window.showErrorMessage = original.error;
      window.showQuickPick = original.pick;
      window.showSaveDialog = original.save;
    },
  };
}
