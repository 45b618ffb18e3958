// The webview app: one program, four panel kinds (tool, elicitation, inputs, sampling). It renders
// what the host sends, keeps typed values and results in the webview state so a hidden panel
// comes back as it was, and never sees file bytes.

import type { FieldErrors, FormModel, FormValues } from '../shared/formModel';
import type { SaveItem } from '../shared/resultModel';
import {
  chosenFilesOf,
  formPanel,
  SECURE_FIELD_PREFIX,
  type AnswerAction,
  type AppElicitationInit,
  type HostNotification,
  type PanelInit,
  type PersistedState,
  type ResultEntry,
  type ToolPanelInit,
} from '../shared/protocol';
import { AppArea } from './apps';
import { AppView } from './apps/appView';
import { LatestCompletion } from './latestCompletion';
import type { Suggestions } from '../shared/completion';
import { Bridge } from './bridge';
import { h, icon, longText, replaceChildren } from './dom';
import { FormView } from './form';
import { SamplingView } from './sampling';
import { percent } from './format';
import { failedValidation, renderResult } from './results';
import { clientErrors, withoutSecrets } from './values';

const VALIDATE_DELAY_MS = 300;
/** How long typing pauses before the server is asked for suggestions. */
const COMPLETE_DELAY_MS = 250;

class App {
  private readonly root = document.getElementById('app') ?? document.body;
  private readonly bridge = new Bridge((m) => this.receive(m));
  private state: PersistedState | undefined = this.bridge.state;
  /** The state came from `getState` (the panel was hidden or VS Code restarted). */
  private restoring = this.state !== undefined;
  private form: FormView | undefined;
  /** A tool's secure values (SEP-3221): their own section of the form; typed values live only here, never in the saved state. */
  private secureForm: FormView | undefined;
  private secureValues: FormValues = {};
  private sampling: SamplingView | undefined;
  /** Fields the user has changed: client checks show only there until a submit is attempted. */
  private readonly touched = new Set<string>();
  private showAllErrors = false;
  private hostErrors: FieldErrors = {};
  private validateTimer: ReturnType<typeof setTimeout> | undefined;
  private validateSeq = 0;
  private primary: (() => void) | undefined;
  /** Set once an elicitation or inputs panel has answered. */
  private locked = false;
  private actionButtons: HTMLButtonElement[] = [];
  private readonly progress = h('progress', { attrs: { 'aria-label': 'Progress' } });
  private readonly progressMessage = h('span', { className: 'progress-message' });
  private readonly status = h('div', { className: 'status', attrs: { role: 'status' } });
  private readonly results = h('section', { className: 'results', attrs: { 'aria-label': 'Results', 'aria-live': 'polite' } });
  /** The newest result's MCP App (tool panels). */
  private readonly apps = new AppArea(
    (method, params) => this.bridge.request(method, params),
    (callId) => this.bridge.send({ type: 'appClosed', callId }),
  );
  private runButton: HTMLButtonElement | undefined;
  private runningArea: HTMLElement | undefined;

  start(): void {
    document.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && this.primary && !this.locked) {
        event.preventDefault();
        this.primary();
      }
    });
    if (this.state) this.render();
    this.bridge.send({ type: 'ready' });
  }

  private get panel(): PanelInit | undefined {
    return this.state?.panel;
  }

  /** Persists the state; secret values stay out of it (VS Code may write webview state to disk). */
  private save(): void {
    const state = this.state;
    if (!state) return;
    const { panel } = state;
    // An app's document is not kept: the host sends it again with `init`.
    const kept = panel.kind === 'tool' && (panel.app || panel.appStandby) ? { ...panel, app: undefined, appStandby: undefined } : panel;
    const form = formPanel(kept);
    this.bridge.state = form ? { ...state, panel: { ...form, values: withoutSecrets(form.form.fields, form.values) } } : { ...state, panel: kept };
  }

  private receive(message: HostNotification): void {
    if (message.type === 'init') return this.init(message.panel);
    if (message.type === 'reloading') return this.readyForReload();
    const panel = this.panel;
    if (!panel) return;
    switch (message.type) {
      case 'fileSelected': {
        const files = chosenFilesOf(panel);
        if (files) files[message.field] = message.files;
        this.form?.setFiles(message.field, message.files);
        this.save();
        this.scheduleValidation();
        break;
      }
      case 'fileRefused':
        this.form?.showRefusal(message.field, message.reason);
        break;
      case 'validation':
        // Errors refuse the answer; none means it was taken, and the panel stays answered.
        if (Object.keys(message.errors).length > 0) this.unlock();
        this.showAllErrors = true;
        this.hostErrors = message.errors;
        this.showErrors();
        this.focusFirstError();
        break;
      case 'callStarted':
        this.setRunning(message.callId);
        break;
      case 'progress':
        if (this.state?.runningCallId !== message.callId) break;
        if (message.total !== undefined && message.total > 0) {
          this.progress.max = 100;
          this.progress.value = percent(message.progress, message.total) ?? 0;
        } else {
          this.progress.removeAttribute('value');
        }
        this.progressMessage.textContent = message.message ?? '';
        break;
      case 'result':
        this.addResult({ id: message.callId, at: Date.now(), view: message.view, ...(message.agent ? { agent: message.agent } : {}) });
        // For `npm run bench`: when the plain result was on screen.
        performance.mark(`mcp-host:result:${message.callId}`);
        break;
      case 'callEnded':
        if (this.state?.runningCallId === message.callId) this.setRunning(undefined);
        this.status.className = `status${message.outcome === 'failed' || (message.outcome === 'done' && newestFailed(this.panel)) ? ' error' : ''}`;
        this.status.textContent =
          message.outcome === 'cancelled'
            ? 'Cancelled.'
            : message.outcome === 'failed'
              ? `Failed: ${message.error ?? 'unknown error'}`
              : resultAnnouncement(this.panel);
        break;
      case 'uploadProgress':
        this.form?.showUploadProgress(message.field, message.sent, message.total);
        break;
      case 'appShow':
        this.apps.show(message.app);
        break;
      case 'appPrepare':
        this.apps.prepare(message.app);
        break;
      case 'appFailed':
        this.apps.failed(message.callId, message.message);
        break;
      case 'appToolResult':
        this.apps.toolResult(message.callId, message.toolResult);
        break;
      case 'appToolCancelled':
        this.apps.toolCancelled(message.callId, message.reason);
        break;
      case 'appListChanged':
        this.apps.listChanged(message.list);
        break;
      case 'samplingAnswer':
        this.sampling?.update(message.stage, message.answer);
        break;
    }
  }

  /** The host's `init` wins, except for values typed into this same panel before it was hidden (and results it kept). */
  private init(panel: PanelInit): void {
    // Only the first init after a reload meets state this page did not receive from the host.
    const previous = this.restoring ? this.panel : undefined;
    this.restoring = false;
    if (previous && samePanel(previous, panel) && 'values' in previous && 'values' in panel) panel.values = { ...panel.values, ...previous.values };
    if (previous && previous.kind === 'tool' && panel.kind === 'tool' && samePanel(previous, panel)) {
      const ids = new Set(panel.results.map((r) => r.id));
      panel.results = [...panel.results, ...previous.results.filter((r) => !ids.has(r.id))].sort((a, b) => b.at - a.at);
    }
    const markdown = this.state && samePanel(this.state.panel, panel) ? this.state.markdown : undefined;
    this.state = { panel, runningCallId: panel.kind === 'tool' ? panel.runningCallId : undefined, markdown };
    this.touched.clear();
    this.showAllErrors = false;
    this.hostErrors = {};
    this.secureValues = {};
    this.render();
    this.save();
    this.focusFirstField();
  }

  private render(): void {
    const panel = this.panel!;
    document.body.dataset.panel = panel.kind;
    this.form = undefined;
    this.secureForm = undefined;
    this.sampling = undefined;
    this.locked = false;
    this.actionButtons = [];
    this.runButton = undefined;
    this.runningArea = undefined;
    this.status.textContent = '';
    const { heading } = panel;
    const header = h(
      'header',
      {},
      h('h1', {}, heading.title),
      h('div', { className: 'server' }, icon('server'), ' ', heading.server),
      heading.description ? longText(heading.description, 'description') : null,
    );
    const parts: HTMLElement[] = [header];
    if (panel.kind === 'elicitation') parts.push(h('p', { className: 'message', attrs: { 'aria-label': 'Message' } }, panel.message));

    let question: AppView | undefined;
    if (panel.kind === 'elicitation' && panel.mode === 'url') {
      parts.push(this.urlConsent(panel.url, panel.domain, panel.domainWarning));
    } else if (panel.kind === 'elicitation' && panel.mode === 'app') {
      question = this.appQuestion(panel);
      parts.push(question.element, this.appQuestionActions());
    } else if (panel.kind === 'sampling') {
      const sampling = new SamplingView(
        panel,
        (m) => this.bridge.send(m),
        () => this.save(),
      );
      this.sampling = sampling;
      this.primary = () => sampling.primary();
      parts.push(sampling.element);
    } else {
      const files = chosenFilesOf(panel) ?? {};
      this.form = new FormView(panel.form, {
        values: panel.values,
        files: (id) => files[id] ?? [],
        changed: (id) => this.changed(id),
        pickFile: (field, source) => this.bridge.send({ type: 'pickFile', field, source }),
        removeFile: (field, index) => this.bridge.send({ type: 'removeFile', field, index }),
        suggest: panel.kind === 'tool' && panel.completions ? (field, value) => this.suggest(field, value) : undefined,
      });
      parts.push(this.form.element);
      if (panel.kind === 'tool' && panel.secure) parts.push(this.secureSection(panel.secure.form));
      parts.push(this.actions(panel));
    }
    if (panel.kind === 'tool') parts.push(this.toolStatus(), this.apps.element, this.results);
    replaceChildren(this.root, ...parts);
    // For `npm run bench`: the panel's content is on screen (a question's form, or its app's frame).
    performance.mark('mcp-host:panel-rendered');
    void question?.start();
    if ('answered' in panel && panel.answered) this.answered('Sending…');
    if (panel.kind === 'tool') {
      if (panel.appStandby) this.apps.prepare(panel.appStandby);
      if (panel.app) this.apps.show(panel.app);
      this.renderResults(panel.results);
      this.setRunning(this.state?.runningCallId);
    }
  }

  private button(text: string, onClick: () => void, options: { primary?: boolean; iconName?: string; label?: string } = {}): HTMLButtonElement {
    const button = h(
      'button',
      { className: options.primary ? 'primary' : 'secondary', attrs: { type: 'button', 'aria-label': options.label } },
      options.iconName ? icon(options.iconName) : null,
      options.iconName ? ` ${text}` : text,
    );
    button.addEventListener('click', onClick);
    this.actionButtons.push(button);
    return button;
  }

  private actions(panel: PanelInit): HTMLElement {
    const bar = h('div', { className: 'actions' });
    if (panel.kind === 'tool') {
      this.runButton = this.button('Run', () => this.submit(), { primary: true, iconName: 'play' });
      this.primary = () => this.submit();
      bar.append(this.runButton, h('span', { className: 'hint' }, 'Ctrl+Enter runs'));
    } else if (panel.kind === 'elicitation') {
      this.primary = () => this.answer('accept');
      bar.append(
        this.button('Accept', () => this.answer('accept'), { primary: true }),
        this.button('Decline', () => this.answer('decline')),
        this.button('Cancel', () => this.answer('cancel')),
      );
    } else {
      this.primary = () => this.answer('accept');
      bar.append(
        this.button('Save', () => this.answer('accept'), { primary: true }),
        this.button('Cancel', () => this.answer('cancel')),
      );
    }
    return bar;
  }

  /** SEP-3118: the app the server named, sent the question once it starts; its answer goes to the host to check. */
  private appQuestion(panel: AppElicitationInit): AppView {
    return new AppView(
      { ...panel.app, callId: 'question', toolInput: {} },
      (method, params) => this.bridge.request(method, params),
      () => undefined,
      () => undefined,
      {
        question: {
          params: panel.question,
          startTimeoutMs: panel.startTimeoutMs,
          answered: (result) => {
            this.answered("Checking the app's answer…");
            this.bridge.send({ type: 'appAnswer', result });
          },
          failed: (reason) => this.bridge.send({ type: 'appQuestionFailed', reason }),
        },
      },
    );
  }

  /** The person can always leave the app: the same question as a form, or cancel it. */
  private appQuestionActions(): HTMLElement {
    this.primary = undefined;
    return h(
      'div',
      { className: 'actions' },
      this.button('Answer in a form instead', () => this.bridge.send({ type: 'appQuestionFailed', reason: 'You chose to answer in the form.' })),
      this.button('Cancel', () => this.answer('cancel')),
      this.status,
    );
  }

  private urlConsent(url: string, domain: string, warning: string | undefined): HTMLElement {
    this.primary = undefined;
    const shown = h('code', { className: 'url' });
    const host = hostOf(url);
    const at = host ? url.indexOf(host) : -1;
    if (at >= 0) shown.append(url.slice(0, at), h('strong', { className: 'domain' }, host), url.slice(at + host.length));
    else shown.append(url);
    const open = this.button(
      'Open in browser',
      () => {
        this.bridge.send({ type: 'openUrl', url });
        this.answered('Opened in your browser. Finish there; this panel closes when the server is done.');
      },
      { primary: true, iconName: 'link-external' },
    );
    return h(
      'div',
      { className: 'url-consent' },
      h('p', {}, 'The server asks you to open this address:'),
      h('div', { className: 'url-box' }, shown),
      h('p', {}, 'Domain: ', h('strong', { className: 'domain', attrs: { 'aria-label': 'Domain' } }, domain)),
      warning ? h('div', { className: 'warning', attrs: { role: 'alert' } }, icon('warning'), ' ', warning) : null,
      h(
        'div',
        { className: 'actions' },
        open,
        this.button('Decline', () => this.answer('decline')),
        this.button('Cancel', () => this.answer('cancel')),
      ),
      this.status,
    );
  }

  private toolStatus(): HTMLElement {
    const cancel = h('button', { className: 'secondary', attrs: { type: 'button' } }, icon('stop-circle'), ' Cancel');
    cancel.addEventListener('click', () => {
      const callId = this.state?.runningCallId;
      if (callId) this.bridge.send({ type: 'cancelCall', callId });
    });
    this.runningArea = h('div', { className: 'running', attrs: { hidden: true } }, this.progress, this.progressMessage, cancel);
    return h('div', { className: 'tool-status' }, this.runningArea, this.status);
  }

  private setRunning(callId: string | undefined): void {
    if (!this.state) return;
    this.state.runningCallId = callId;
    if (this.runningArea) this.runningArea.hidden = callId === undefined;
    if (this.runButton) this.runButton.disabled = callId !== undefined;
    if (callId !== undefined) {
      this.progress.removeAttribute('value');
      this.progressMessage.textContent = 'Running…';
      this.status.textContent = '';
    }
    this.save();
  }

  private addResult(entry: ResultEntry): void {
    const panel = this.panel;
    if (panel?.kind !== 'tool') return;
    const replaced = panel.results.some((r) => r.id === entry.id);
    panel.results = [entry, ...panel.results.filter((r) => r.id !== entry.id)];
    // Prepend rather than re-render: earlier results keep their expanded/Markdown state.
    if (replaced || panel.results.length === 1) this.renderResults(panel.results);
    else this.results.querySelector('h2')?.after(renderResult(entry, this.resultActions));
    this.save();
  }

  private readonly resultActions = {
    readResource: (uri: string) => this.bridge.send({ type: 'readResource', uri }),
    save: (resultId: string, item: SaveItem) => this.bridge.send({ type: 'saveOutput', resultId, itemId: item.ref }),
    open: (resultId: string, item: SaveItem) => this.bridge.send({ type: 'openOutput', resultId, itemId: item.ref }),
    markdown: {
      isOn: (key: string) => this.state?.markdown?.includes(key) ?? false,
      set: (key: string, on: boolean) => {
        if (!this.state) return;
        const others = (this.state.markdown ?? []).filter((k) => k !== key);
        this.state.markdown = on ? [...others, key] : others;
        this.save();
      },
    },
  };

  private renderResults(results: ToolPanelInit['results']): void {
    replaceChildren(this.results, results.length ? h('h2', {}, 'Results') : null, ...results.map((r) => renderResult(r, this.resultActions)));
  }

  private changed(fieldId: string): void {
    this.touched.add(fieldId);
    this.save();
    this.scheduleValidation();
  }

  private panelClientErrors(): FieldErrors {
    const panel = this.panel;
    const form = panel && formPanel(panel);
    if (!form) return {};
    const secure = panel.kind === 'tool' && panel.secure ? clientErrors(panel.secure.form, this.secureValues, {}) : {};
    return {
      ...clientErrors(form.form, form.values, chosenFilesOf(form) ?? {}),
      ...Object.fromEntries(Object.entries(secure).map(([id, m]) => [`${SECURE_FIELD_PREFIX}${id}`, m])),
    };
  }

  private showErrors(): void {
    const all = { ...this.hostErrors, ...this.panelClientErrors() };
    const visible = this.showAllErrors
      ? all
      : Object.fromEntries(Object.entries(all).filter(([id]) => [...this.touched].some((t) => id === t || id.startsWith(`${t}/`))));
    const own = (secure: boolean) =>
      Object.fromEntries(
        Object.entries(visible)
          .filter(([id]) => id.startsWith(SECURE_FIELD_PREFIX) === secure)
          .map(([id, m]) => [secure ? id.slice(SECURE_FIELD_PREFIX.length) : id, m]),
      );
    this.form?.showErrors(own(false));
    this.secureForm?.showErrors(own(true));
  }

  /** The secure values' section: the same form engine and checks; what is typed is sent with Run and kept by the host. */
  private secureSection(model: FormModel): HTMLElement {
    this.secureForm = new FormView(model, {
      values: this.secureValues,
      files: () => [],
      changed: (id) => {
        this.touched.add(`${SECURE_FIELD_PREFIX}${id}`);
        this.showErrors();
      },
      pickFile: () => undefined,
      removeFile: () => undefined,
    });
    return h(
      'section',
      { className: 'secure-values', attrs: { 'aria-label': 'Secure values' } },
      h('h2', {}, icon('lock'), ' Secure values'),
      this.secureForm.element,
    );
  }

  private scheduleValidation(): void {
    clearTimeout(this.validateTimer);
    this.showErrors();
    this.validateTimer = setTimeout(() => void this.validateWithHost(), VALIDATE_DELAY_MS);
  }

  private async validateWithHost(): Promise<void> {
    const panel = this.panel;
    if (!panel || !('values' in panel)) return;
    this.bridge.send({ type: 'valuesChanged', values: panel.values });
    const seq = ++this.validateSeq;
    try {
      const { errors } = await this.bridge.request('validate', { values: panel.values });
      if (seq !== this.validateSeq) return;
      this.hostErrors = errors;
      this.showErrors();
    } catch {
      // The host may not validate this panel kind; the client checks stay.
    }
  }

  /** Debounced per field; a newer request for the field drops the older one's answer. */
  private readonly completions = new LatestCompletion<Suggestions>(COMPLETE_DELAY_MS);

  private suggest(field: string, value: string): Promise<Suggestions | undefined> {
    return this.completions.request(field, async () => {
      const values = this.panel && 'values' in this.panel ? this.panel.values : {};
      return this.bridge.request('complete', { field, value, values });
    });
  }

  /** A new form puts the keyboard in its first field, so the user can type at once. */
  private focusFirstField(): void {
    if (this.locked || !this.form) return;
    this.form.element
      .querySelector<HTMLElement>('input:not([type="hidden"]):not(:disabled), select:not(:disabled), textarea:not(:disabled), button:not(:disabled)')
      ?.focus();
  }

  private focusFirstError(): void {
    const invalid = this.root.querySelector<HTMLElement>('[aria-invalid="true"]');
    const target = invalid?.matches('input, select, textarea, button') ? invalid : invalid?.querySelector<HTMLElement>('input, select, textarea, button');
    target?.focus();
  }

  /** Client checks first: anything they find is shown and nothing is sent. */
  private checkBeforeSending(): boolean {
    this.showAllErrors = true;
    const errors = this.panelClientErrors();
    this.showErrors();
    if (Object.keys(errors).length === 0) return true;
    this.focusFirstError();
    return false;
  }

  private submit(): void {
    const panel = this.panel;
    if (panel?.kind !== 'tool' || this.state?.runningCallId !== undefined) return;
    if (!this.checkBeforeSending()) return;
    this.status.textContent = '';
    performance.mark('mcp-host:submit');
    this.bridge.send({ type: 'submit', values: panel.values, ...(panel.secure ? { secureValues: this.secureValues } : {}) });
  }

  private answer(action: AnswerAction): void {
    const panel = this.panel;
    if (!panel || panel.kind === 'tool') return;
    if (action === 'accept' && 'values' in panel) {
      if (!this.checkBeforeSending()) return;
      this.bridge.send({ type: 'answer', action, values: panel.values });
    } else {
      this.bridge.send({ type: 'answer', action });
    }
    // An accepted answer is on its way until the host closes the panel (a file confirmation may still be open).
    this.answered(action === 'accept' ? 'Sending…' : action === 'decline' ? 'Declined.' : 'Cancelled.');
  }

  /** After an answer the buttons are disabled: the host closes the panel (or re-inits it for a new question). */
  private answered(text: string): void {
    this.lock();
    this.status.textContent = text;
    if (!this.status.isConnected) this.root.append(this.status);
  }

  /**
   * The host replaces this page: what was typed is saved (the next page restores it) and sent to the host, and the
   * form takes no more input, which would be lost with the page.
   */
  private readyForReload(): void {
    clearTimeout(this.validateTimer);
    this.lock();
    if (this.secureForm) this.secureForm.disabled = true;
    this.save();
    const panel = this.panel;
    if (panel && 'values' in panel) this.bridge.send({ type: 'valuesChanged', values: panel.values });
    this.bridge.send({ type: 'reloadable' });
  }

  /** The form and its buttons take no input until `unlock` (or the next `init`). */
  private lock(): void {
    this.locked = true;
    for (const button of this.actionButtons) button.disabled = true;
    if (this.form) this.form.disabled = true;
  }

  /** The host refused the answer (a `validation` notification): the user can fix it and answer again. */
  private unlock(): void {
    if (!this.locked) return;
    this.locked = false;
    for (const button of this.actionButtons) button.disabled = false;
    if (this.form) this.form.disabled = false;
    this.status.textContent = '';
  }
}

function newestFailed(panel: PanelInit | undefined): boolean {
  const newest = panel?.kind === 'tool' ? panel.results[0] : undefined;
  return newest !== undefined && (newest.view.isError || failedValidation(newest.view));
}

/** What the status region says when a call ends with a result (screen readers announce it). */
function resultAnnouncement(panel: PanelInit | undefined): string {
  const newest = panel?.kind === 'tool' ? panel.results[0] : undefined;
  if (!newest) return 'Done.';
  if (newest.view.isError) return 'The tool returned an error; see Results.';
  return failedValidation(newest.view) ? "The result failed the tool's output schema; see Results." : 'New result; see Results.';
}

/** The host as written in the URL (punycode stays punycode), or '' when it does not parse. */
function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

function samePanel(a: PanelInit, b: PanelInit): boolean {
  return (
    a.kind === b.kind &&
    a.heading.server === b.heading.server &&
    a.heading.title === b.heading.title &&
    ('mode' in a ? a.mode : '') === ('mode' in b ? b.mode : '')
  );
}

new App().start();
