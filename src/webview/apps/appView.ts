// One MCP App in the tool panel: a sandboxed iframe (opaque origin, no permissions) holding the app's
// document, and the official host side of the protocol (ext-apps AppBridge over PostMessageTransport).
// What the app asks of the host is relayed to the extension, which decides (tool calls, resources, links,
// display modes); messages and model context it sends are shown here as text. An app that floods the
// bridge, sends garbage, or never initialises is cut off with a note; the user can always close it.
// A standby view is an app loaded ahead, hidden, before any call: it completes its handshake, but nothing it
// asks of the host is answered until a run promotes it (shows it and gives it the call's input).
import type { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge' with { 'resolution-mode': 'import' };
import type { AppFrame, AppList, RequestMap } from '../../shared/protocol';
import { h, icon } from '../dom';
import { appBridgeLibrary } from './bridgeLibrary';
import { hostContext, type DisplayMode } from './hostContext';
import { HOST_VERSION } from '../../shared/version';

export type AppRequest = <
  M extends 'appCallTool' | 'appReadResource' | 'appOpenLink' | 'appDisplayMode' | 'appDownloadFile' | 'appMessage' | 'appModelContext' | 'appSampling',
>(
  method: M,
  params: RequestMap[M]['params'],
) => Promise<RequestMap[M]['result']>;

export const APP_LIMITS = {
  minHeight: 48,
  /** Inline, the frame grows with its content up to this; fullscreen, it fills the panel. */
  maxInlineHeight: 2400,
  initialHeight: 320,
  /** An app that has not completed the handshake by then is closed. */
  initTimeoutMs: 20_000,
  /** Messages from the app per second before it is cut off. */
  messagesPerSecond: 400,
  /** Malformed messages before it is cut off. */
  malformedMessages: 50,
  teardownTimeoutMs: 1500,
  /** A standby is pinged this often; one that leaves a ping unanswered this long (a loop, say) is unloaded. */
  standbyPingMs: 2000,
  standbyPingTimeoutMs: 3000,
  /** Messages kept from an app whose frame started before the bridge's script ran. */
  earlyMessages: 100,
  noteChars: 4000,
  notes: 50,
};

const HOST_INFO = { name: 'mcp-host', version: HOST_VERSION };
/**
 * Exactly what a tool's app is answered (each has its handler below); `pip` is not offered (see hostContext).
 * `sandbox.permissions.clipboardWrite` is added for an app the person allowed to write to the clipboard.
 */
const HOST_CAPABILITIES = {
  openLinks: {},
  downloadFile: {},
  serverTools: { listChanged: true },
  serverResources: { listChanged: true },
  logging: {},
  message: { text: {} },
  updateModelContext: { text: {}, structuredContent: {} },
  sampling: { tools: {} },
};
/** An app answering a server's question (SEP-3118) is sent the question and nothing else is answered. */
const QUESTION_HOST_CAPABILITIES = { logging: {}, elicitation: {} };
/** The longest an app-rendered question waits for the app's answer (the person is answering meanwhile). */
const QUESTION_ANSWER_MS = 10 * 60_000;

/** An app shown to answer a server's form question (SEP-3118) instead of a tool's result. */
export interface AppQuestion {
  /** The `elicitation/create` params as the server sent them. */
  params: Record<string, unknown>;
  startTimeoutMs: number;
  answered(result: Record<string, unknown>): void;
  /** Why the app could not answer: the host shows its form instead. */
  failed(reason: string): void;
}

/** Any JSON answer, as the app sent it: the host checks it against the question's schema, outside the app. */
const ANY_RESULT = { '~standard': { version: 1 as const, vendor: 'mcp-host', validate: (value: unknown) => ({ value: value as Record<string, unknown> }) } };

type State = 'starting' | 'running' | 'closed';

export class AppView {
  readonly element: HTMLElement;
  private readonly frameBox: HTMLElement;
  private readonly notes: HTMLElement;
  private readonly statusLine: HTMLElement;
  private readonly iframe: HTMLIFrameElement;
  private readonly exitFullscreen: HTMLButtonElement;
  private appWindow: Window | null = null;
  private bridge: AppBridge | undefined;
  private transport: PostMessageTransport | undefined;
  private state: State = 'starting';
  private displayMode: DisplayMode = 'inline';
  private initTimer: ReturnType<typeof setTimeout> | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private answered = false;
  private windowStart = 0;
  private messagesInWindow = 0;
  private malformed = 0;
  private cancelled: string | undefined;
  private standby: boolean;
  /** Resolves when the view is shown for a call: what the app asks waits for it. */
  private readonly shown: Promise<void>;
  private release: () => void = () => undefined;
  private readonly question: AppQuestion | undefined;
  /** The question was answered or given up on: nothing more is reported. */
  private questionSettled = false;
  /**
   * The app's `ui/initialize` declared `appCapabilities.elicitation` (SEP-3118). Read from the raw message: the
   * bridge's schema (ext-apps 2.0.4) predates the draft and drops the member.
   */
  private answersQuestions = false;
  /** What the app sent before the bridge listened (replayed to it, in order), until then. */
  private early: unknown[] | undefined = [];
  private replaying = false;

  constructor(
    readonly frame: AppFrame,
    private readonly request: AppRequest,
    private readonly onFullscreen: (on: boolean) => void,
    private onClosed: () => void,
    options: { standby?: boolean; question?: AppQuestion } = {},
  ) {
    this.standby = options.standby === true;
    this.question = options.question;
    this.shown = this.standby
      ? new Promise((resolve) => {
          this.release = resolve;
        })
      : Promise.resolve();
    this.iframe = h('iframe', {
      className: 'app-frame',
      attrs: {
        // Scripts only: an opaque origin (no allow-same-origin), no popups, forms, top navigation or downloads.
        sandbox: 'allow-scripts',
        // No permission the resource asks for (camera, microphone, geolocation) is delegated; clipboard writes only
        // when it asked and the person allowed it.
        allow: frame.clipboardWrite ? 'clipboard-write' : '',
        referrerpolicy: 'no-referrer',
        title: `App ${frame.uri}`,
      },
    });
    this.iframe.style.height = `${APP_LIMITS.initialHeight}px`;
    this.frameBox = h('div', { className: 'app-frame-box' }, this.iframe);
    this.notes = h('div', { className: 'app-notes', attrs: { role: 'log', 'aria-label': 'Messages from the app' } });
    this.statusLine = h('div', { className: 'app-status', attrs: { role: 'status' } }, 'Starting the app…');
    const close = h('button', { className: 'secondary', attrs: { type: 'button', 'aria-label': 'Close app' } }, icon('close'), ' Close');
    close.addEventListener('click', () => void this.teardown('Closed.'));
    this.exitFullscreen = h('button', { className: 'secondary', attrs: { type: 'button', hidden: true } }, icon('screen-normal'), ' Exit full screen');
    this.exitFullscreen.addEventListener('click', () => void this.leaveFullscreen());
    const warnings = [...frame.warnings];
    const refused = frame.permissionsAsked.filter((p) => !(p === 'clipboardWrite' && frame.clipboardWrite));
    if (refused.length) warnings.push(`The app asked for ${refused.join(', ')}; not granted here.`);
    // A standby carries no call and no state for anyone to find: it is not shown.
    const attrs = this.standby ? { 'aria-hidden': 'true', inert: '' } : { 'data-call-id': frame.callId, 'data-app-state': 'starting' };
    this.element = h(
      'section',
      { className: `app${frame.prefersBorder === false ? ' borderless' : ''}${this.standby ? ' standby' : ''}`, attrs: { 'aria-label': 'App', ...attrs } },
      h('div', { className: 'app-header' }, icon('window'), ' ', h('span', { className: 'app-uri' }, frame.uri), this.exitFullscreen, close),
      ...warnings.map((w) => h('div', { className: 'warning' }, icon('warning'), ' ', w)),
      this.frameBox,
      this.statusLine,
      this.notes,
    );
  }

  /**
   * Call once the element is in the document (the frame needs a window). The frame starts loading at once; what
   * the app sends before the bridge's script has run is kept (bounded) and handed to the bridge when it listens.
   */
  async start(): Promise<void> {
    if (this.state === 'closed') return;
    window.addEventListener('message', this.guard);
    if (!this.standby) performance.mark(`mcp-host:app-frame:${this.frame.callId}`);
    this.iframe.srcdoc = this.frame.document;
    this.appWindow = this.iframe.contentWindow;
    if (!this.appWindow) return this.cutOff('The app frame could not be created.');
    const startMs = this.question?.startTimeoutMs ?? APP_LIMITS.initTimeoutMs;
    this.initTimer = setTimeout(() => {
      if (this.state === 'starting') this.cutOff(`The app did not start within ${Math.round(startMs / 1000)} s and was closed.`);
    }, startMs);
    const lib = await appBridgeLibrary(startMs);
    // (closed meanwhile: cut off, replaced or torn down)
    if (this.closed) return;
    if (!lib) return this.cutOff('The app bridge is not loaded in this panel.');
    const { AppBridge, PostMessageTransport } = lib;
    const capabilities = this.question
      ? QUESTION_HOST_CAPABILITIES
      : this.frame.clipboardWrite
        ? { ...HOST_CAPABILITIES, sandbox: { permissions: { clipboardWrite: {} } } }
        : HOST_CAPABILITIES;
    const bridge = new AppBridge(null, HOST_INFO, capabilities, { hostContext: this.context() });
    this.bridge = bridge;
    bridge.oninitialized = () => {
      if (this.state !== 'starting') return;
      clearTimeout(this.initTimer);
      this.setState('running', '');
      if (this.question) this.ask(bridge, this.question);
      else if (this.standby) this.pingWhileStandby(bridge);
      else this.deliverInput();
    };
    bridge.onrequestteardown = () => void this.teardown('The app closed itself.');
    bridge.onerror = () => {
      if (++this.malformed > APP_LIMITS.malformedMessages)
        this.cutOff(`The app sent more than ${APP_LIMITS.malformedMessages} malformed messages and was stopped.`);
    };
    this.transport = new PostMessageTransport(this.appWindow, this.appWindow);
    // A question's app is answered nothing but the question.
    if (this.question) return this.connect(bridge, this.transport);
    bridge.onsizechange = ({ height }) => {
      if (this.displayMode === 'inline' && typeof height === 'number' && Number.isFinite(height)) {
        this.iframe.style.height = `${Math.round(Math.min(APP_LIMITS.maxInlineHeight, Math.max(APP_LIMITS.minHeight, height)))}px`;
      }
    };
    // Nothing an app asks of the host is answered while it waits, hidden, for a run.
    bridge.oncalltool = async (params) => {
      await this.shown;
      return this.request('appCallTool', { name: params.name, arguments: params.arguments ?? {} });
    };
    bridge.onreadresource = async (params) => {
      await this.shown;
      return this.request('appReadResource', { uri: params.uri });
    };
    bridge.onopenlink = async ({ url }) => {
      await this.shown;
      return (await this.request('appOpenLink', { url })).opened ? {} : { isError: true };
    };
    // The files go to the extension, which asks the person where to save them (nothing is saved from here).
    bridge.ondownloadfile = async ({ contents }) => {
      await this.shown;
      return (await this.request('appDownloadFile', { contents })).saved > 0 ? {} : { isError: true };
    };
    bridge.onmessage = async ({ role, content }) => {
      await this.shown;
      const text = contentText(content);
      this.note(`Message from the app (${role})`, text);
      // Offered to chat as the next message, once the person agreed; an error answer when they did not.
      return (await this.request('appMessage', { text })).sent ? {} : { isError: true };
    };
    bridge.oncreatesamplingmessage = async (params) => {
      await this.shown;
      return this.request('appSampling', params);
    };
    bridge.onupdatemodelcontext = async ({ content, structuredContent }) => {
      await this.shown;
      const parts = [content ? contentText(content) : '', structuredContent ? JSON.stringify(structuredContent, null, 2) : ''].filter(Boolean);
      const text = parts.join('\n');
      // Kept (bounded) by the host for the @mcp participant's next turn; each update replaces the app's last.
      const { kept } = await this.request('appModelContext', { callId: this.frame.callId, text });
      if (kept)
        this.note(text ? 'Context the app offers a model, kept for the next turn of @mcp in chat' : 'The app withdrew the context it offered a model', text);
      return {};
    };
    bridge.onrequestdisplaymode = async ({ mode }) => {
      await this.shown;
      const answer = await this.request('appDisplayMode', { mode });
      this.setDisplayMode(answer.mode);
      return { mode: answer.mode };
    };
    this.connect(bridge, this.transport);
  }

  /** The transport listens once `connect` returns (synchronously): the app's early messages are replayed to it. */
  private connect(bridge: AppBridge, transport: PostMessageTransport): void {
    void bridge.connect(transport).catch((e: unknown) => this.cutOff(`The app bridge failed: ${String(e)}`));
    const early = this.early;
    this.early = undefined;
    this.replaying = true;
    try {
      for (const data of early ?? []) {
        if (this.state === 'closed') break;
        window.dispatchEvent(new MessageEvent('message', { data, source: this.appWindow, origin: 'null' }));
      }
    } finally {
      this.replaying = false;
    }
  }

  /**
   * SEP-3118: once the app declared it answers questions, the server's request is forwarded unchanged and its
   * answer handed to the host (which checks it); an app that does not declare it, errs or closes gets the form.
   */
  private ask(bridge: AppBridge, question: AppQuestion): void {
    const settle = (report: () => void) => {
      if (this.questionSettled) return;
      this.questionSettled = true;
      report();
    };
    if (!this.answersQuestions) {
      settle(() => question.failed('The app does not declare that it answers questions (appCapabilities.elicitation).'));
      return;
    }
    performance.mark('mcp-host:app-question-asked');
    bridge.request({ method: 'elicitation/create', params: question.params }, ANY_RESULT, { timeout: QUESTION_ANSWER_MS }).then(
      (result) => settle(() => question.answered(result && typeof result === 'object' ? (result as Record<string, unknown>) : {})),
      (e: unknown) => settle(() => question.failed(`The app could not answer: ${e instanceof Error ? e.message : String(e)}`)),
    );
  }

  /**
   * Takes a standby view for a call, still hidden (the app shown before is being torn down): the call's outcome
   * that arrives meanwhile is kept for it.
   */
  claim(frame: AppFrame): void {
    if (!this.standby) return;
    Object.assign(this.frame, { callId: frame.callId, toolInput: frame.toolInput, toolResult: frame.toolResult ?? this.frame.toolResult });
    clearInterval(this.pingTimer);
  }

  /** Shows a claimed standby view: the app (already initialised, or still starting) gets the call's input now. */
  promote(onClosed: () => void): void {
    if (!this.standby) return;
    this.onClosed = onClosed;
    this.standby = false;
    clearInterval(this.pingTimer);
    this.element.classList.remove('standby');
    this.element.removeAttribute('aria-hidden');
    this.element.removeAttribute('inert');
    this.element.dataset.callId = this.frame.callId;
    this.element.dataset.appState = this.state;
    performance.mark(`mcp-host:app-promoted:${this.frame.callId}`);
    this.release();
    if (this.state === 'running') this.deliverInput();
    this.updateContext();
  }

  get isStandby(): boolean {
    return this.standby;
  }

  /**
   * A hidden app runs code nobody watches: while it waits, it must keep answering pings (apps built on the
   * ext-apps SDK do). One that leaves a ping unanswered (it loops, or ignores requests) is unloaded, and the
   * next run starts a new frame. An error answer is an answer.
   */
  private pingWhileStandby(bridge: AppBridge): void {
    let waiting = false;
    const ping = () => {
      if (!this.standby || this.state !== 'running') {
        clearInterval(this.pingTimer);
        return;
      }
      if (waiting) return;
      waiting = true;
      bridge
        .request({ method: 'ping' }, { timeout: APP_LIMITS.standbyPingTimeoutMs })
        .then(
          () => {
            this.answered = true;
          },
          (e: unknown) => {
            if ((e as { code?: unknown })?.code === 'REQUEST_TIMEOUT') {
              if (this.standby) this.close('', false);
            } else this.answered = true;
          },
        )
        .finally(() => {
          waiting = false;
        });
    };
    ping();
    this.pingTimer = setInterval(ping, APP_LIMITS.standbyPingMs);
  }

  /** A standby that completed its handshake and answered a ping: fit to be shown for a run. */
  get ready(): boolean {
    return this.standby && this.state === 'running' && this.answered;
  }

  /** The tool's input once the app is initialised and shown, then the call's outcome if it is known. */
  private deliverInput(): void {
    // For `npm run bench`: the app is initialised and shown for the call.
    performance.mark(`mcp-host:app-initialized:${this.frame.callId}`);
    void this.bridge?.sendToolInput({ arguments: this.frame.toolInput }).catch(() => undefined);
    this.deliverOutcome();
  }

  /** The call this app was started for ended with a result. */
  toolResult(result: Record<string, unknown>): void {
    this.frame.toolResult = result;
    if (this.state === 'running' && !this.standby) this.deliverOutcome();
  }

  /** The call ended without a result (cancelled or failed). */
  toolCancelled(reason: string): void {
    this.cancelled = reason;
    if (this.state === 'running' && !this.standby) this.deliverOutcome();
  }

  private deliverOutcome(): void {
    const bridge = this.bridge;
    if (!bridge) return;
    if (this.frame.toolResult) {
      void bridge.sendToolResult(this.frame.toolResult as Parameters<AppBridge['sendToolResult']>[0]).catch(() => undefined);
      // For `npm run bench`: the app is up and has the result.
      performance.mark(`mcp-host:app-ready:${this.frame.callId}`);
    } else if (this.cancelled !== undefined) {
      void bridge.sendToolCancelled({ reason: this.cancelled }).catch(() => undefined);
    }
  }

  /** The server's tools or resources changed (an app that is running and shown is told; nothing is queued). */
  listChanged(list: AppList): void {
    const bridge = this.bridge;
    if (!bridge || this.state !== 'running' || this.standby) return;
    void (list === 'tools' ? bridge.sendToolListChanged() : bridge.sendResourceListChanged()).catch(() => undefined);
  }

  get running(): boolean {
    return this.state === 'running';
  }
  get closed(): boolean {
    return this.state === 'closed';
  }

  /** The theme, size or display mode changed: the app is told (only what changed is sent). */
  updateContext(): void {
    if (this.state !== 'closed') this.bridge?.setHostContext(this.context());
  }

  /**
   * Sends ui/resource-teardown (bounded wait), then removes the frame. `remember: false` when the page itself is
   * going away (a hidden panel): the host then shows the app again with the panel.
   */
  async teardown(note: string, remember = true): Promise<void> {
    if (this.state === 'closed') return;
    const bridge = this.bridge;
    if (bridge && this.state === 'running') {
      await bridge.teardownResource({}, { timeout: APP_LIMITS.teardownTimeoutMs }).catch(() => undefined);
    }
    this.close(note, remember);
  }

  /** Removes the frame at once (no teardown: the app misbehaved, or the page is going away). */
  close(note: string, remember = true): void {
    if (this.state === 'closed') return;
    clearTimeout(this.initTimer);
    clearInterval(this.pingTimer);
    if (this.displayMode === 'fullscreen') void this.leaveFullscreen();
    this.state = 'closed';
    if (!this.standby) this.element.dataset.appState = 'closed';
    // A standby was never shown: it goes without a trace.
    if (this.standby) this.element.remove();
    else if (remember) this.onClosed();
    if (this.question && !this.questionSettled) {
      this.questionSettled = true;
      this.question.failed(note || 'The app was closed.');
    }
    void this.transport?.close().catch(() => undefined);
    this.iframe.remove();
    this.frameBox.hidden = true;
    this.statusLine.textContent = note;
    // Messages the app queued before it went keep arriving for a moment: the guard drops them.
    setTimeout(() => window.removeEventListener('message', this.guard), 5000);
  }

  private cutOff(reason: string): void {
    this.close(reason);
    this.statusLine.classList.add('error');
    this.statusLine.setAttribute('role', 'alert');
  }

  /**
   * Runs before the bridge's own listener: counts the app's messages, keeps them while the bridge is not listening
   * yet, and drops them once the app is cut off.
   */
  private readonly guard = (event: MessageEvent): void => {
    if (!this.appWindow || event.source !== this.appWindow || this.replaying) return;
    if (this.state === 'closed') {
      event.stopImmediatePropagation();
      return;
    }
    if (this.question && this.state === 'starting') {
      const m = event.data as { method?: unknown; params?: { appCapabilities?: { elicitation?: unknown } } } | null;
      const declared = m?.method === 'ui/initialize' ? m.params?.appCapabilities?.elicitation : undefined;
      if (declared && typeof declared === 'object') this.answersQuestions = true;
    }
    const now = performance.now();
    if (now - this.windowStart > 1000) {
      this.windowStart = now;
      this.messagesInWindow = 0;
    }
    if (++this.messagesInWindow > APP_LIMITS.messagesPerSecond) {
      event.stopImmediatePropagation();
      this.cutOff(`The app sent more than ${APP_LIMITS.messagesPerSecond} messages in a second and was stopped.`);
      return;
    }
    if (this.early) {
      if (this.early.length >= APP_LIMITS.earlyMessages) {
        this.cutOff(`The app sent more than ${APP_LIMITS.earlyMessages} messages before the host was ready and was stopped.`);
        return;
      }
      this.early.push(event.data);
    }
  };

  private setState(state: State, status: string): void {
    this.state = state;
    if (!this.standby) this.element.dataset.appState = state;
    this.statusLine.textContent = status;
  }

  /** Back to inline: the panel's editor group is restored, and the app is told. */
  private async leaveFullscreen(): Promise<void> {
    this.setDisplayMode('inline');
    await this.request('appDisplayMode', { mode: 'inline' }).catch(() => undefined);
  }

  private setDisplayMode(mode: DisplayMode): void {
    if (mode === this.displayMode) return;
    this.displayMode = mode;
    this.exitFullscreen.hidden = mode !== 'fullscreen';
    this.element.classList.toggle('fullscreen', mode === 'fullscreen');
    if (mode === 'fullscreen') this.iframe.style.height = '';
    else this.iframe.style.height = `${APP_LIMITS.initialHeight}px`;
    this.onFullscreen(mode === 'fullscreen');
    this.updateContext();
  }

  private context() {
    return hostContext({
      locale: this.frame.locale,
      displayMode: this.displayMode,
      // A question's app stays in its panel; a tool's app may go full screen. Picture-in-picture is not offered:
      // a webview cannot float over the editor.
      availableDisplayModes: this.question ? ['inline'] : ['inline', 'fullscreen'],
      width: Math.round(this.frameBox?.clientWidth || document.documentElement.clientWidth),
      maxHeight: this.displayMode === 'fullscreen' ? window.innerHeight : APP_LIMITS.maxInlineHeight,
    });
  }

  private note(title: string, text: string): void {
    const cut = text.length > APP_LIMITS.noteChars ? `${text.slice(0, APP_LIMITS.noteChars)}… (${text.length} characters)` : text;
    this.notes.prepend(h('div', { className: 'app-note' }, h('strong', {}, title), h('pre', { className: 'text' }, cut)));
    while (this.notes.childElementCount > APP_LIMITS.notes) this.notes.lastElementChild?.remove();
  }
}

/** Content blocks as plain text: text as it is, anything else named by its type. */
function contentText(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content
    .map((block: { type?: unknown; text?: unknown }) =>
      block?.type === 'text' && typeof block.text === 'string' ? block.text : `[${String(block?.type ?? 'unknown')} content]`,
    )
    .join('\n');
}
