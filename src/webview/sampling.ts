// The sampling panel: what a server asks a language model (system prompt, messages with their media,
// maxTokens, model preferences, tools offered), the model to ask, Approve / Edit / Decline, then the
// answer as it streams, to send (edited or not) or decline. Everything from the server is shown as text;
// media elements get only data URIs the host built from data it checked.

import type { SamplingAnswer, SamplingBlock, SamplingPanelInit, SamplingStage, WebviewNotification } from '../shared/protocol';
import { h, icon, longText, replaceChildren } from './dom';

export class SamplingView {
  readonly element = h('div', { className: 'sampling' });
  private readonly status = h('div', { className: 'status', attrs: { role: 'status' } });
  private readonly answerArea = h('section', { className: 'sampling-answer', attrs: { 'aria-label': 'Answer' } });
  private editing = false;

  constructor(
    private readonly panel: SamplingPanelInit,
    private readonly send: (message: WebviewNotification) => void,
    /** Keeps the panel's state (stage, answer, chosen model) for a hidden panel. */
    private readonly changed: () => void,
  ) {
    this.render();
  }

  /** The host's news: a new stage and the answer so far. */
  update(stage: SamplingStage, answer: SamplingAnswer): void {
    const stageChanged = stage !== this.panel.stage;
    this.panel.stage = stage;
    this.panel.answer = answer;
    if (stageChanged) this.render();
    else this.renderAnswer();
    this.changed();
  }

  /** Ctrl+Enter: the primary action of the stage. */
  primary(): void {
    if (this.panel.stage === 'ask') this.approve();
    else if (this.panel.stage === 'review') this.sendAnswer();
  }

  private render(): void {
    const p = this.panel;
    const asking = p.stage === 'ask';
    const request = h(
      'section',
      { className: 'sampling-request', attrs: { 'aria-label': 'Request' } },
      h('p', { className: 'message' }, `${p.heading.server} asks a language model for an answer.`),
      p.systemPrompt !== undefined ? this.textBlock('System prompt', p.systemPrompt, 'system', 'system-prompt') : null,
      h('h2', {}, 'Messages'),
      ...p.messages.map((m, i) =>
        h(
          'div',
          { className: `sampling-message role-${m.role}` },
          h('div', { className: 'message-role' }, m.role === 'user' ? 'User' : 'Assistant'),
          ...m.blocks.map((b, j) => this.block(b, `${i}.${j}`)),
        ),
      ),
      h(
        'dl',
        { className: 'sampling-details' },
        h('dt', {}, 'Max tokens'),
        h('dd', { attrs: { 'aria-label': 'Max tokens' } }, p.maxTokens.toLocaleString('en-US')),
        p.preferences.length ? h('dt', {}, 'Model preferences') : null,
        p.preferences.length ? h('dd', {}, ...p.preferences.map((line) => h('div', {}, line))) : null,
        p.tools.length ? h('dt', {}, `Tools offered${p.toolChoice ? ` (${p.toolChoice})` : ''}`) : null,
        p.tools.length
          ? h('dd', { className: 'sampling-tools' }, ...p.tools.map((t) => h('div', {}, h('code', {}, t.name), t.description ? ` ${t.description}` : '')))
          : null,
      ),
    );
    const model = h(
      'select',
      { attrs: { 'aria-label': 'Model', disabled: !asking } },
      ...p.models.map((m) => h('option', { attrs: { value: m.id, selected: m.id === p.model } }, m.label)),
    );
    model.addEventListener('change', () => {
      p.model = model.value;
      this.changed();
    });
    const chooser = h('label', { className: 'sampling-model' }, 'Model ', model);

    const actions = h('div', { className: 'actions' });
    if (asking) {
      actions.append(
        this.button('Approve', () => this.approve(), true),
        this.button(
          this.editing ? 'Editing…' : 'Edit',
          () => {
            this.editing = true;
            this.render();
          },
          false,
          this.editing,
        ),
        this.button('Decline', () => this.decline()),
      );
    } else if (p.stage === 'answering') {
      actions.append(this.button('Decline', () => this.decline()));
    }
    replaceChildren(this.element, request, chooser, actions, this.answerArea, this.status);
    this.renderAnswer();
  }

  private renderAnswer(): void {
    const p = this.panel;
    const answer = p.answer;
    if (!answer || p.stage === 'ask') {
      replaceChildren(this.answerArea);
      return;
    }
    const text = h('textarea', { className: 'answer-text', attrs: { 'aria-label': 'Answer text', rows: 8, readonly: p.stage !== 'review' } });
    text.value = answer.text;
    const calls = answer.toolUses.map((u) => h('div', { className: 'tool-use' }, icon('tools'), ' ', h('code', {}, u.name), ' ', h('code', {}, u.input)));
    const actions =
      p.stage === 'review' && !answer.error
        ? h(
            'div',
            { className: 'actions' },
            this.button('Send answer', () => this.sendAnswer(text.value), true),
            this.button('Decline', () => this.decline()),
          )
        : p.stage === 'review'
          ? h(
              'div',
              { className: 'actions' },
              this.button('Decline', () => this.decline(), true),
            )
          : null;
    this.status.className = `status${answer.error ? ' error' : ''}`;
    this.status.textContent = answer.error
      ? `The model failed: ${answer.error}`
      : p.stage === 'answering'
        ? 'The model is answering…'
        : p.stage === 'sent'
          ? 'Sent.'
          : `The model answered${answer.truncated ? ' (cut at maxTokens)' : ''}; send it to the server or decline.`;
    replaceChildren(this.answerArea, h('h2', {}, 'Answer'), answer.text || !calls.length ? text : null, ...calls, actions);
  }

  private block(b: SamplingBlock, key: string): HTMLElement {
    switch (b.kind) {
      case 'text':
        return this.textBlock(
          undefined,
          b.text,
          key,
          'text-block',
          `Message ${Number(key.split('.')[0]) + 1}${key.endsWith('.0') ? '' : `, part ${Number(key.split('.')[1]) + 1}`}`,
        );
      case 'image':
        return h('img', { className: 'sampling-media', attrs: { src: b.dataUri, alt: `image (${b.mimeType}, ${b.bytes} bytes)` } });
      case 'audio':
        return h('audio', { className: 'sampling-media', attrs: { src: b.dataUri, controls: true, 'aria-label': `audio (${b.mimeType}, ${b.bytes} bytes)` } });
      case 'toolUse':
        return h('div', { className: 'tool-use' }, icon('tools'), ' calls ', h('code', {}, b.name), ' ', h('code', {}, b.input));
      case 'toolResult':
        return h('div', { className: `tool-result${b.isError ? ' error' : ''}` }, `Result of ${b.toolUseId}: `, longText(b.text, 'tool-result-text'));
    }
  }

  /** A text of the request: shown as text, or in a textarea while the user edits the request. */
  private textBlock(label: string | undefined, text: string, key: string, className: string, name = label): HTMLElement {
    if (this.editing && this.panel.stage === 'ask') {
      const area = h('textarea', { className: `edit ${className}`, attrs: { 'data-key': key, rows: 3, 'aria-label': name } });
      area.value = text;
      return h('div', {}, label ? h('div', { className: 'message-role' }, label) : null, area);
    }
    return h('div', {}, label ? h('div', { className: 'message-role' }, label) : null, longText(text, className));
  }

  private button(text: string, onClick: () => void, primary = false, disabled = false): HTMLButtonElement {
    const button = h('button', { className: primary ? 'primary' : 'secondary', attrs: { type: 'button', disabled } }, text);
    button.addEventListener('click', onClick);
    return button;
  }

  private approve(): void {
    const edits = Array.from(this.element.querySelectorAll<HTMLTextAreaElement>('textarea.edit'));
    const texts = Object.fromEntries(edits.filter((a) => a.dataset.key !== 'system').map((a) => [a.dataset.key ?? '', a.value]));
    const system = edits.find((a) => a.dataset.key === 'system')?.value;
    this.send({
      type: 'samplingApprove',
      model: this.panel.model,
      ...(system !== undefined ? { systemPrompt: system } : {}),
      ...(edits.length ? { texts } : {}),
    });
    this.editing = false;
    this.lock('Asking the model…');
  }

  private sendAnswer(text = this.answerArea.querySelector('textarea')?.value ?? ''): void {
    this.send({ type: 'samplingSend', text });
    this.lock('Sending…');
  }

  private decline(): void {
    this.send({ type: 'answer', action: 'decline' });
    this.lock('Declined.');
  }

  private lock(text: string): void {
    this.element.querySelectorAll('button').forEach((b) => {
      b.disabled = true;
    });
    this.status.className = 'status';
    this.status.textContent = text;
  }
}
