// The message contract between the extension host and the webview app (src/webview).
// Both sides import this file. Core types are imported type-only so that no Node code
// reaches the webview bundle. Nothing here ever carries file bytes: a chosen file is
// described by a FileSummary; the extension host alone reads it.

import type { FieldErrors, FormField, FormModel, FormValues, JsonValue } from './formModel';
import type { ResultItem, ResultView, SaveItem } from './resultModel';
import { isObject } from './json';
import { assertNever } from './assertNever';
import type { Suggestions } from './completion';
import type { CallToolResult, CreateMessageResult, ReadResourceResult } from '@modelcontextprotocol/client';

export type { FieldErrors, FormField, FormModel, FormValues, JsonValue, ResultItem, ResultView, SaveItem };

/**
 * `tool`: the tool panel, a tool's (or a prompt's, a resource template's) form and results; `elicitation`: a server's
 * question; `inputs`: a server's ${input:…} values; `sampling`: a server asking for a language model's answer.
 */
export type PanelKind = 'tool' | 'elicitation' | 'inputs' | 'sampling';

/** What the webview may know about a chosen file: never its bytes or its path. */
export interface FileSummary {
  name: string;
  size: number;
  mediaType: string;
  warnings: string[];
}

/** Files chosen so far, by field path. */
export type ChosenFiles = Record<string, FileSummary[]>;

/** One tool call's result as the panel keeps it (newest first in `ToolPanelInit.results`). */
export interface ResultEntry {
  /** The callId that produced it; `saveOutput.resultId` refers to it. */
  id: string;
  /** Milliseconds since the epoch when the result arrived. */
  at: number;
  view: ResultView;
  /** A chat agent's call: what its model was given (the view is the whole result). */
  agent?: AgentGiven;
}

/** What a chat agent's model was given of a result: all of it, or a bounded preview with a handle to read the rest. */
export interface AgentGiven {
  whole: boolean;
  /** The text the model received (media parts named, never their bytes). */
  modelText: string;
  /** The kept result's handle (`r1`), when the model got a preview. */
  handle?: string;
}

export interface PanelHeading {
  /** The tool's title, or the asking server for an elicitation, or the server whose inputs are asked. */
  title: string;
  server: string;
  description?: string;
}

/** An MCP App's document, before any call: loaded ahead (hidden) so that Run starts it at once. */
export interface AppStandby {
  uri: string;
  /** The app's HTML with its policy and frame nonce already in place (core/apps `appDocument`). */
  document: string;
  /** Permissions the resource asked for; none is granted but clipboardWrite, once the person allowed it. */
  permissionsAsked: string[];
  /** The person allowed this app to write to the clipboard (it asked for clipboardWrite). */
  clipboardWrite?: boolean;
  warnings: string[];
  /** VS Code's display language (BCP 47). */
  locale: string;
  prefersBorder?: boolean;
}

/** The server lists an app may ask for (MCP Apps `serverTools`, `serverResources`), and hear have changed. */
export type AppList = 'tools' | 'resources';

/** An MCP App to show above a tool's results (plain JSON; see src/webview/apps). */
export interface AppFrame extends AppStandby {
  /** The callId of the result it belongs to. */
  callId: string;
  /** The tool's arguments as sent, file contents left out. */
  toolInput: Record<string, unknown>;
  /** The CallToolResult as received; absent while the call runs (the app starts with the call). */
  toolResult?: Record<string, unknown>;
}

export interface ToolPanelInit {
  kind: 'tool';
  heading: PanelHeading;
  form: FormModel;
  values: FormValues;
  files: ChosenFiles;
  results: ResultEntry[];
  /** Set when the panel is (re)opened while a call is in flight. */
  runningCallId?: string;
  /** The newest result's app, when its tool has one. */
  app?: AppFrame;
  /** The tool's app loaded ahead of the next run, once its resource was read. */
  appStandby?: AppStandby;
  /** The server suggests values for the form's text fields (`complete` requests). */
  completions?: boolean;
  /** SEP-3221: the tool's secure values, a section of the same form (their values never come back here). */
  secure?: SecureSection;
}

/**
 * The secure values' section of a tool's form: what is still to be given (remembered ones are optional and
 * described as kept; their values are never sent to the webview). Its field ids in errors carry SECURE_FIELD_PREFIX.
 */
export interface SecureSection {
  form: FormModel;
  /** The names remembered for this server and workspace. */
  kept: string[];
}

/** The prefix of the secure section's field ids in a panel's errors (`secure:/tenant`). */
export const SECURE_FIELD_PREFIX = 'secure:';

export interface FormElicitationInit {
  kind: 'elicitation';
  mode: 'form';
  heading: PanelHeading;
  /** The server's message, shown as text. */
  message: string;
  form: FormModel;
  values: FormValues;
  files: ChosenFiles;
  /** The answer was given and the panel stays open (upload progress): its buttons stay disabled. */
  answered?: boolean;
}

export interface UrlElicitationInit {
  kind: 'elicitation';
  mode: 'url';
  heading: PanelHeading;
  message: string;
  /** The full URL, shown verbatim. */
  url: string;
  /** The URL's host, highlighted (already converted to Unicode when it was punycode). */
  domain: string;
  /** Set when the host looks deceptive (punycode, mixed scripts); shown as a warning. */
  domainWarning?: string;
}

/**
 * A server's form question answered by the app it names (SEP-3118): the app is shown and sent the request as the
 * server sent it; its answer goes back to the host, which checks it. The native form is the fallback.
 */
export interface AppElicitationInit {
  kind: 'elicitation';
  mode: 'app';
  heading: PanelHeading;
  message: string;
  app: AppStandby;
  /** The `elicitation/create` params, forwarded unchanged to the app once it declares it answers questions. */
  question: Record<string, unknown>;
  /** How long the app may take to complete its handshake before the form is shown instead (ms). */
  startTimeoutMs: number;
}

export interface InputsPanelInit {
  kind: 'inputs';
  heading: PanelHeading;
  form: FormModel;
  values: FormValues;
  /** The answer was given and the panel stays open (upload progress): its buttons stay disabled. */
  answered?: boolean;
}

/** One content block of a sampling message as the panel shows it; media data was checked by the host. */
export type SamplingBlock =
  | { kind: 'text'; text: string }
  | { kind: 'image' | 'audio'; mimeType: string; dataUri: string; bytes: number }
  | { kind: 'toolUse'; id: string; name: string; input: string }
  | { kind: 'toolResult'; toolUseId: string; text: string; isError: boolean };

/** The model's answer so far (text and tool calls), or why there is none. */
export interface SamplingAnswer {
  text: string;
  toolUses: { name: string; input: string }[];
  done: boolean;
  /** The answer was cut at the request's maxTokens. */
  truncated?: boolean;
  error?: string;
}

/**
 * `ask`: Approve / Edit / Decline; `answering`: the chosen model streams its answer; `review`: the user sends
 * the answer (edited or not) or declines; `sent`: answered, the panel is about to close.
 */
export type SamplingStage = 'ask' | 'answering' | 'review' | 'sent';

export interface SamplingPanelInit {
  kind: 'sampling';
  heading: PanelHeading;
  systemPrompt?: string;
  messages: { role: 'user' | 'assistant'; blocks: SamplingBlock[] }[];
  maxTokens: number;
  /** The server's model preferences, one line each (hints, priorities). */
  preferences: string[];
  tools: { name: string; description?: string }[];
  toolChoice?: string;
  models: { id: string; label: string }[];
  /** The model preselected (from the server's hints) or chosen. */
  model: string;
  stage: SamplingStage;
  answer?: SamplingAnswer;
}

export type PanelInit = ToolPanelInit | FormElicitationInit | UrlElicitationInit | AppElicitationInit | InputsPanelInit | SamplingPanelInit;

/** The panels that show a form. */
export type FormPanelInit = ToolPanelInit | FormElicitationInit | InputsPanelInit;

/** The panel's form, by its kind (a URL elicitation has none). */
export function formPanel(panel: PanelInit): FormPanelInit | undefined {
  switch (panel.kind) {
    case 'tool':
    case 'inputs':
      return panel;
    case 'elicitation':
      return panel.mode === 'form' ? panel : undefined;
    case 'sampling':
      return undefined;
    default:
      return assertNever(panel, 'panel kind');
  }
}

/** The files chosen in a panel, by its kind (the inputs panel has no file fields). */
export function chosenFilesOf(panel: PanelInit): ChosenFiles | undefined {
  const form = formPanel(panel);
  return form && form.kind !== 'inputs' ? form.files : undefined;
}

export type CallOutcome = 'done' | 'cancelled' | 'failed';
export type AnswerAction = 'accept' | 'decline' | 'cancel';
export type FileSource = 'workspace' | 'browse';

// ---- Messages ------------------------------------------------------------------------
// Each message is declared once: its fields, by its type, in one of the maps below. The guard of every type is
// demanded by the compiler (MessageGuards), and each side checks what it receives with them.

/** A message of each type of `Fields`: `{ type, ...fields }`. */
type MessageOf<Fields> = { [T in keyof Fields]: { type: T } & Fields[T] }[keyof Fields];

/** The checks of one map's messages, one per type: a message of that type is what its check accepts. */
type MessageGuards<Fields> = { readonly [T in keyof Fields]: (message: Record<string, unknown>) => boolean };

/** Host -> webview notifications, by type. */
export interface HostNotificationFields {
  init: { panel: PanelInit };
  fileSelected: { field: string; files: FileSummary[] };
  fileRefused: { field: string; reason: string };
  validation: { errors: FieldErrors };
  callStarted: { callId: string };
  progress: { callId: string; progress: number; total?: number; message?: string };
  result: { callId: string; view: ResultView; agent?: AgentGiven };
  callEnded: { callId: string; outcome: CallOutcome; error?: string };
  uploadProgress: { field: string; sent: number; total: number };
  /** Show an MCP App for a result (replacing the one shown, which is torn down first). */
  appShow: { app: AppFrame };
  /** Load the tool's app ahead, hidden, for the next run (replacing a standby of another document). */
  appPrepare: { app: AppStandby };
  /** The app of a result could not be shown (its resource failed); the text result stays. */
  appFailed: { callId: string; message: string };
  /** The call an app was started for ended: its result, or why there is none. */
  appToolResult: { callId: string; toolResult: Record<string, unknown> };
  appToolCancelled: { callId: string; reason: string };
  /** The server's tools or resources changed while its app shows: the app is told, to list them again. */
  appListChanged: { list: AppList };
  /**
   * The page is about to be replaced (its policy widens for an app's origins): it keeps what was typed, takes no
   * more input, and answers `reloadable`.
   */
  reloading: object;
  /** Sampling: the stage moved on, with the model's answer so far (the whole text, not a piece). */
  samplingAnswer: { stage: SamplingStage; answer: SamplingAnswer };
}

export type HostNotification = MessageOf<HostNotificationFields>;

/** Webview -> host notifications, by type. */
export interface WebviewNotificationFields {
  /** Handshake: the host posts nothing before it (and re-sends `init` on every `ready`). */
  ready: object;
  pickFile: { field: string; source: FileSource };
  removeFile: { field: string; index: number };
  /** Tool panel: Run. */
  submit: { values: FormValues; secureValues?: FormValues };
  cancelCall: { callId: string };
  /** Elicitation panel (Accept / Decline / Cancel) and inputs panel (Save = accept, Cancel = cancel). */
  answer: { action: AnswerAction; values?: FormValues };
  /** URL elicitation: the user consented; the host opens the URL. */
  openUrl: { url: string };
  readResource: { uri: string };
  /** `itemId` is the `SaveItem.ref` of the item to save. */
  saveOutput: { resultId: string; itemId: string };
  /** A file output (SEP-2631) opened in an editor without choosing where to save it. */
  openOutput: { resultId: string; itemId: string };
  /** The typed values changed (debounced, and before `reloadable`); lets the host keep them for a restored panel. */
  valuesChanged: { values: FormValues };
  /** Answers `reloading`: what was typed is kept, and the page may be replaced. */
  reloadable: object;
  /** The app of `callId` was closed (by the user, itself, or for misbehaving): it is not shown again. */
  appClosed: { callId: string };
  /** An app-rendered question: the app's ElicitResult, unchecked (the host checks it against the schema). */
  appAnswer: { result: Record<string, unknown> };
  /** An app-rendered question the app could not answer (it failed to start, declined the bridge capability, …): the form instead. */
  appQuestionFailed: { reason: string };
  /**
   * Sampling: ask this model; `systemPrompt` and `texts` (by `<message>.<block>`) are the user's edits of the
   * request's text, when they edited it. A decline is an `answer` with action `decline`.
   */
  samplingApprove: { model: string; systemPrompt?: string; texts?: Record<string, string> };
  /** Sampling: return this answer text (the model's, possibly edited) to the server. */
  samplingSend: { text: string };
}

export type WebviewNotification = MessageOf<WebviewNotificationFields>;

// ---- Requests (webview -> host) with typed responses -------------------------------

/** What the app shown asks the host for is answered with the MCP SDK's result types, as the app's bridge expects. */
export interface RequestMap {
  validate: { params: { values: FormValues }; result: { errors: FieldErrors } };
  /** MCP Apps: what the app shown asks the host for (the webview's AppBridge relays it). */
  appCallTool: { params: { name: string; arguments: Record<string, unknown> }; result: CallToolResult };
  appReadResource: { params: { uri: string }; result: ReadResourceResult };
  appOpenLink: { params: { url: string }; result: { opened: boolean } };
  appDisplayMode: { params: { mode: string }; result: { mode: 'inline' | 'fullscreen' } };
  /** `ui/download-file`: the app's embedded resources and resource links, saved only where the person chooses. */
  appDownloadFile: { params: { contents: unknown[] }; result: { saved: number } };
  /** `ui/message`: offered to chat as the next message once the user agrees; `sent` false when they did not. */
  appMessage: { params: { text: string }; result: { sent: boolean } };
  /** `ui/update-model-context` of the app shown for `callId` (as text): kept for the @mcp participant's next turn. */
  appModelContext: { params: { callId: string; text: string }; result: { kept: boolean } };
  /** `sampling/createMessage` from the app, unchecked until the host checks it: through the sampling approval panel, naming the app and its server. */
  appSampling: { params: Record<string, unknown>; result: CreateMessageResult };
  /** The server's suggestions for a text field as typed so far (the other values go as context). */
  complete: { params: { field: string; value: string; values: FormValues }; result: Suggestions };
}

export type RequestMethod = keyof RequestMap;
export type RequestParams<M extends RequestMethod> = RequestMap[M]['params'];
export type RequestResult<M extends RequestMethod> = RequestMap[M]['result'];

export type WebviewRequest = {
  [M in RequestMethod]: { type: 'request'; id: number; method: M; params: RequestParams<M> };
}[RequestMethod];

export type HostResponse = {
  [M in RequestMethod]:
    { type: 'response'; id: number; method: M; ok: true; result: RequestResult<M> } | { type: 'response'; id: number; method: M; ok: false; error: string };
}[RequestMethod];

/** Everything the host posts to the webview. */
export type HostMessage = HostNotification | HostResponse;
/** Everything the webview posts to the host. */
export type WebviewMessage = WebviewNotification | WebviewRequest;

/** What the webview keeps with `setState` so a hidden panel restores; also what a panel serializer receives. */
export interface PersistedState {
  panel: PanelInit;
  runningCallId?: string;
  /** Text items shown as Markdown, by `<result id>/<item index>`. */
  markdown?: string[];
}

// ---- Guards --------------------------------------------------------------------------
// The host checks every incoming message; the webview checks what it receives too.

const isString = (x: unknown): x is string => typeof x === 'string';
const isNumber = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const isOptional = <T>(x: unknown, check: (v: unknown) => v is T): boolean => x === undefined || check(x);
const isValues = (x: unknown): x is FormValues => isObject(x);

function isFileSummary(x: unknown): x is FileSummary {
  return isObject(x) && isString(x.name) && isNumber(x.size) && isString(x.mediaType) && Array.isArray(x.warnings) && x.warnings.every(isString);
}

function isFieldErrors(x: unknown): x is FieldErrors {
  return isObject(x) && Object.values(x).every(isString);
}

const ANSWER_ACTIONS: readonly string[] = ['accept', 'decline', 'cancel'];
const FILE_SOURCES: readonly string[] = ['workspace', 'browse'];
const OUTCOMES: readonly string[] = ['done', 'cancelled', 'failed'];
const PANEL_KINDS: readonly string[] = ['tool', 'elicitation', 'inputs', 'sampling'];
const SAMPLING_STAGES: readonly string[] = ['ask', 'answering', 'review', 'sent'];

const WEBVIEW_NOTIFICATION_GUARDS: MessageGuards<WebviewNotificationFields> = {
  ready: () => true,
  pickFile: (x) => isString(x.field) && isString(x.source) && FILE_SOURCES.includes(x.source),
  removeFile: (x) => isString(x.field) && Number.isInteger(x.index) && (x.index as number) >= 0,
  submit: (x) => isValues(x.values) && isOptional(x.secureValues, isValues),
  valuesChanged: (x) => isValues(x.values),
  reloadable: () => true,
  cancelCall: (x) => isString(x.callId),
  answer: (x) => isString(x.action) && ANSWER_ACTIONS.includes(x.action) && isOptional(x.values, isValues),
  openUrl: (x) => isString(x.url),
  readResource: (x) => isString(x.uri),
  saveOutput: (x) => isString(x.resultId) && isString(x.itemId),
  openOutput: (x) => isString(x.resultId) && isString(x.itemId),
  appClosed: (x) => isString(x.callId),
  appAnswer: (x) => isObject(x.result),
  appQuestionFailed: (x) => isString(x.reason),
  samplingApprove: (x) =>
    isString(x.model) &&
    isOptional(x.systemPrompt, isString) &&
    isOptional(x.texts, (t): t is Record<string, string> => isObject(t) && Object.values(t).every(isString)),
  samplingSend: (x) => isString(x.text),
};

/** The params of each request (`MessageGuards` check a request's params), as the webview sent them. */
const REQUEST_PARAMS_GUARDS: MessageGuards<RequestMap> = {
  validate: (p) => isValues(p.values),
  appCallTool: (p) => isString(p.name) && isObject(p.arguments),
  appReadResource: (p) => isString(p.uri),
  appOpenLink: (p) => isString(p.url),
  appDisplayMode: (p) => isString(p.mode),
  appDownloadFile: (p) => Array.isArray(p.contents),
  appMessage: (p) => isString(p.text),
  appModelContext: (p) => isString(p.callId) && isString(p.text),
  appSampling: () => true,
  complete: (p) => isString(p.field) && isString(p.value) && p.value.length <= 10_000 && isValues(p.values),
};

const HOST_NOTIFICATION_GUARDS: MessageGuards<HostNotificationFields> = {
  init: (x) => isObject(x.panel) && isString(x.panel.kind) && PANEL_KINDS.includes(x.panel.kind),
  fileSelected: (x) => isString(x.field) && Array.isArray(x.files) && x.files.every(isFileSummary),
  fileRefused: (x) => isString(x.field) && isString(x.reason),
  validation: (x) => isFieldErrors(x.errors),
  callStarted: (x) => isString(x.callId),
  progress: (x) => isString(x.callId) && isNumber(x.progress) && isOptional(x.total, isNumber) && isOptional(x.message, isString),
  result: (x) =>
    isString(x.callId) &&
    isObject(x.view) &&
    isOptional(x.agent, (a): a is AgentGiven => isObject(a) && typeof a.whole === 'boolean' && isString(a.modelText) && isOptional(a.handle, isString)),
  callEnded: (x) => isString(x.callId) && isString(x.outcome) && OUTCOMES.includes(x.outcome) && isOptional(x.error, isString),
  uploadProgress: (x) => isString(x.field) && isNumber(x.sent) && isNumber(x.total),
  appShow: (x) => isObject(x.app) && isString(x.app.callId) && isString(x.app.document),
  appPrepare: (x) => isObject(x.app) && isString(x.app.uri) && isString(x.app.document),
  appFailed: (x) => isString(x.callId) && isString(x.message),
  appToolResult: (x) => isString(x.callId) && isObject(x.toolResult),
  appToolCancelled: (x) => isString(x.callId) && isString(x.reason),
  appListChanged: (x) => x.list === 'tools' || x.list === 'resources',
  reloading: () => true,
  samplingAnswer: (x) =>
    isString(x.stage) && SAMPLING_STAGES.includes(x.stage) && isObject(x.answer) && isString(x.answer.text) && Array.isArray(x.answer.toolUses),
};

/** Whether `value` passes the guard of `type` in a map of guards (an own key only: no `toString` message). */
function passes<Fields>(guards: MessageGuards<Fields>, type: string, value: Record<string, unknown>): boolean {
  const guard = Object.hasOwn(guards, type) ? (guards as Record<string, (m: Record<string, unknown>) => boolean>)[type] : undefined;
  return guard !== undefined && guard(value);
}

export function isWebviewMessage(x: unknown): x is WebviewMessage {
  if (!isObject(x) || !isString(x.type)) return false;
  if (x.type === 'request') return isNumber(x.id) && isString(x.method) && isObject(x.params) && passes(REQUEST_PARAMS_GUARDS, x.method, x.params);
  return passes(WEBVIEW_NOTIFICATION_GUARDS, x.type, x);
}

export function isHostMessage(x: unknown): x is HostMessage {
  if (!isObject(x) || !isString(x.type)) return false;
  if (x.type === 'response') return isNumber(x.id) && isString(x.method) && (x.ok === true || (x.ok === false && isString(x.error)));
  return passes(HOST_NOTIFICATION_GUARDS, x.type, x);
}

/** The tool panel's kind in states saved before it was named `tool`. */
const SAVED_TOOL_PANEL_KIND = 'run';

/**
 * The webview's saved state as it restores (VS Code hands back whatever the webview last saved, possibly by an
 * earlier version), or undefined when it is not one: a tool panel saved with its earlier kind restores as a tool panel.
 */
export function restoredState(x: unknown): PersistedState | undefined {
  if (!isObject(x) || !isObject(x.panel) || !isObject(x.panel.heading)) return undefined;
  const kind = x.panel.kind === SAVED_TOOL_PANEL_KIND ? 'tool' : x.panel.kind;
  if (!isString(kind) || !PANEL_KINDS.includes(kind)) return undefined;
  return { ...x, panel: { ...x.panel, kind } } as unknown as PersistedState;
}

export function isResponseTo<M extends RequestMethod>(message: HostMessage, method: M, id: number): message is Extract<HostResponse, { method: M }> {
  return message.type === 'response' && message.method === method && message.id === id;
}
