// The Getting Started walkthrough (contributes.walkthroughs): the command that opens it, and the context
// key the "answer a server's question" step completes on (the other steps complete on commands).
import * as vscode from 'vscode';

export const WALKTHROUGH_ID = 'mcpHost.gettingStarted';
export const QUESTION_ANSWERED_CONTEXT = 'mcpHost.walkthrough.questionAnswered';

export function registerWalkthrough(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('mcpHost.openWalkthrough', () =>
      vscode.commands.executeCommand('workbench.action.openWalkthrough', `${context.extension.id}#${WALKTHROUGH_ID}`, false),
    ),
  );
}

/** A server's question was answered (accepted or declined): the walkthrough's step is done. */
export function markQuestionAnswered(): void {
  void vscode.commands.executeCommand('setContext', QUESTION_ANSWERED_CONTEXT, true);
}
