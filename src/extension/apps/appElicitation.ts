// App-rendered questions (SEP-3118) in VS Code: a server's form question that names one of its apps opens the
// question panel with that app (read from the asking server only, under its own policy), which is sent the
// request as the server sent it. The app's answer is checked here against the question's schema, its files
// confirmed like any file answer; an app that cannot be read, does not start in time, errs or answers out of
// schema gives way to the native form, which says why. The person can leave the app for the form at any time.
import * as vscode from 'vscode';
import { APP_QUESTION_START_MS, appDocument, appResourceCacheOf, checkAppAnswer, elicitationAppUri, readCachedApp, type AppResource } from '../../core/apps';
import type { ElicitationContext, ElicitationHandler, ElicitRequestParamsLoose, ElicitResultLoose, ServerConnection } from '../../core/connection';
import { errorText } from '../../core/errors';
import type { Logger } from '../../core/log';
import type { AppElicitationInit } from '../../shared/protocol';
import type { WebviewElicitationUi } from '../panels/elicitationUi';
import { markQuestionAnswered } from '../activation/walkthrough';
import { WebviewHost } from '../panels/webviewHost';
import { ConnectionState } from '../../core/connection/types';

/** The longest a question's app panel stays open waiting for an answer. */
const ANSWER_WAIT_MS = 10 * 60_000;

export interface AppQuestionDeps {
  extensionUri: vscode.Uri;
  /** The asking server's connection (its app is read from it, and only from it). */
  connection: () => ServerConnection | undefined;
  log: Logger;
  ui: WebviewElicitationUi;
}

type Outcome = { result: ElicitResultLoose } | { fallback: string };

/** Wraps the native elicitation handler: a question naming an app is offered to the app first. */
export function withAppQuestions(native: ElicitationHandler, deps: AppQuestionDeps): ElicitationHandler {
  return async (params, ctx) => {
    const uri = elicitationAppUri(params);
    if (!uri) return native(params, ctx);
    const outcome = await askApp(uri, params, ctx, deps);
    if ('result' in outcome) return outcome.result;
    if (ctx.signal.aborted) return { action: 'cancel' };
    deps.log.warn(`${ctx.server}'s question: the app ${uri} was not used: ${outcome.fallback}`);
    deps.ui.fallbackNote = `The app ${uri} could not answer this question: ${outcome.fallback} Answer it here instead.`;
    return native(params, ctx);
  };
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function askApp(uri: string, params: ElicitRequestParamsLoose, ctx: ElicitationContext, deps: AppQuestionDeps): Promise<Outcome> {
  const connection = deps.connection();
  if (!connection || !ConnectionState.isRunning(connection.state)) return { fallback: "the server's connection is not ready to read it." };
  let app: AppResource;
  const started = Date.now();
  try {
    app = await within(readCachedApp(connection, appResourceCacheOf(connection), uri), APP_QUESTION_START_MS, 'reading the app');
  } catch (e) {
    return { fallback: `${errorText(e)}.` };
  }
  if (ctx.signal.aborted) return { result: { action: 'cancel' } };
  const startTimeoutMs = Math.max(1000, APP_QUESTION_START_MS - (Date.now() - started));
  const answer = await showAppQuestion(app, params, ctx, deps, startTimeoutMs);
  if ('fallback' in answer || answer.result.action !== 'accept') return answer;
  markQuestionAnswered();
  return answer;
}

function showAppQuestion(
  app: AppResource,
  params: ElicitRequestParamsLoose,
  ctx: ElicitationContext,
  deps: AppQuestionDeps,
  startTimeoutMs: number,
): Promise<Outcome> {
  return new Promise((resolve) => {
    let settled = false;
    const panel = WebviewHost.create({
      viewType: 'mcpHost.elicitation',
      title: `MCP: ${ctx.server} asks`,
      extensionUri: deps.extensionUri,
      appFrames: true,
      init: (): AppElicitationInit => ({
        kind: 'elicitation',
        mode: 'app',
        heading: { title: `${ctx.server} asks`, server: ctx.server },
        message: String(params.message ?? ''),
        app: {
          uri: app.uri,
          document: appDocument(app.html, app.csp, panel.appNonce),
          permissionsAsked: app.permissionsAsked,
          warnings: app.warnings,
          locale: vscode.env.language,
          prefersBorder: app.prefersBorder,
        },
        question: params,
        startTimeoutMs,
      }),
      onProblem: (m) => deps.log.warn(`question panel: ${m}`),
    });
    panel.allowAppSources(app.csp);
    const finish = (outcome: Outcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      ctx.signal.removeEventListener('abort', onAbort);
      resolve(outcome);
      panel.dispose();
    };
    const timer = setTimeout(() => finish({ result: { action: 'cancel' } }), ANSWER_WAIT_MS);
    const onAbort = (): void => finish({ result: { action: 'cancel' } });
    ctx.signal.addEventListener('abort', onAbort);
    panel.onDidDispose(() => finish({ result: { action: 'cancel' } }));
    let checking = false;
    panel.onMessage((message) => {
      if (message.type === 'appQuestionFailed') finish({ fallback: message.reason.slice(0, 500) });
      else if (message.type === 'answer' && message.action !== 'accept') finish({ result: { action: message.action } });
      else if (message.type === 'appAnswer' && !checking) {
        checking = true;
        void checkAnswer(message.result, params, ctx, deps).then(finish, (e: unknown) => finish({ fallback: `${errorText(e)}.` }));
      }
    });
    if (ctx.signal.aborted) onAbort();
  });
}

/** The app's answer as the server gets it: in schema, and its files (data: URIs) confirmed by the person. */
async function checkAnswer(raw: Record<string, unknown>, params: ElicitRequestParamsLoose, ctx: ElicitationContext, deps: AppQuestionDeps): Promise<Outcome> {
  const check = checkAppAnswer(raw, params.requestedSchema);
  if (!check.ok) return { fallback: `${check.problem}.` };
  if (check.files.length > 0) {
    const sent = await deps.ui.confirmFiles({
      server: ctx.server,
      files: check.files.map((f) => ({ field: f.field, name: f.name ?? 'a file from the app', size: f.size, mediaType: f.mediaType, destination: ctx.server })),
    });
    if (!sent) return { fallback: 'you did not send the files it chose.' };
  }
  deps.log.info(`${ctx.server}'s question answered by its app (${check.result.action})`);
  return { result: check.result };
}
