// Renders ResultViews (newest first). Server text is inserted as text; images and audio come
// from data: URLs built from base64 the core already capped; nothing is fetched.

import type { ResultItem, ResultView, SaveItem, StructuredView } from '../shared/resultModel';
import type { AgentGiven, ResultEntry } from '../shared/protocol';
import { append, h, icon } from './dom';
import { formatBytes } from '../shared/format';
import { renderMarkdown } from './markdown';
import { assertNever } from '../shared/assertNever';

export interface ResultActions {
  readResource(uri: string): void;
  save(resultId: string, item: SaveItem): void;
  /** A file output opened without saving it first. */
  open(resultId: string, item: SaveItem): void;
  /** Which text items are shown as Markdown, by `<result id>/<item index>` (kept in the webview state). */
  markdown: { isOn(key: string): boolean; set(key: string, on: boolean): void };
}

const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function dataUrl(mimeType: string, data: string | undefined): string | undefined {
  if (!data || !MEDIA_TYPE.test(mimeType) || !BASE64.test(data)) return undefined;
  return `data:${mimeType};base64,${data}`;
}

export function renderResult(entry: ResultEntry, actions: ResultActions): HTMLElement {
  const { view } = entry;
  const time = new Date(entry.at).toLocaleTimeString();
  const failed = view.isError || failedValidation(view);
  const status = view.isError ? 'Error' : failedValidation(view) ? 'Result that failed output validation' : 'Result';
  const article = h(
    'article',
    { className: `result${failed ? ' result-error' : ''}`, attrs: { 'aria-label': `${status} at ${time}`, 'data-call-id': entry.id } },
    h('header', { className: 'result-header' }, icon(failed ? 'error' : 'pass'), ` ${status} · ${time}`),
  );
  if (entry.agent) article.append(...agentGiven(entry.agent));
  for (const warning of view.warnings) article.append(h('div', { className: 'warning' }, icon('warning'), ' ', warning));
  view.items.forEach((item, index) => {
    // A prompt's messages: each says whose words it is.
    if (item.role)
      article.append(h('div', { className: 'message-role' }, icon(item.role === 'user' ? 'account' : 'hubot'), item.role === 'user' ? ' User' : ' Assistant'));
    article.append(renderItem(entry.id, index, item, actions));
  });
  if (view.structured) article.append(renderStructured(view.structured));
  // Savable things not linked from an item (e.g. FileOutputs inside structured content).
  const linked = new Set(view.items.map((i) => i.save?.ref).filter(Boolean));
  for (const save of view.saves) if (!linked.has(save.ref)) article.append(saveRow(entry.id, save, actions));
  if (view.items.length === 0 && !view.structured && view.saves.length === 0) article.append(h('p', { className: 'description' }, '(empty result)'));
  return article;
}

/**
 * A chat agent's call: the note says whether its model got all of the result or a preview, and the preview is
 * shown as the model read it (text only); the result below is always whole.
 */
function agentGiven(agent: AgentGiven): HTMLElement[] {
  const note = agent.whole
    ? 'Called by a chat agent; its model was given this whole result.'
    : `Called by a chat agent; its model was given a preview of ${agent.modelText.length.toLocaleString('en-US')} characters${agent.handle ? ` (handle ${agent.handle}, which it reads in ranges)` : ''}. The whole result is below.`;
  return [
    h('div', { className: 'agent-given', attrs: { role: 'note' } }, icon('hubot'), ' ', note),
    h('details', { className: 'model-given' }, h('summary', {}, 'What the model was given'), h('pre', { className: 'model-given-text' }, agent.modelText)),
  ];
}

/** The structured content breaks (or lacks) the tool's output schema: the result is not what the tool promised. */
export function failedValidation(view: ResultView): boolean {
  return view.structured?.status === 'invalid' || view.structured?.status === 'missing';
}

/** Where in the result a saved file comes from, so two buttons for files of the same name can be told apart. */
function saveOrigin(save: SaveItem): string {
  const [part, index] = save.ref.split('/');
  return part === 'structured' ? 'file output' : `content block ${Number(index) + 1}`;
}

function saveButton(resultId: string, save: SaveItem, actions: ResultActions): HTMLButtonElement {
  const label = `Save ${save.name} (${saveOrigin(save)}) to workspace…`;
  return h(
    'button',
    { className: 'secondary', attrs: { type: 'button', 'aria-label': label }, on: { click: () => actions.save(resultId, save) } },
    icon('save'),
    ' Save to workspace…',
  );
}

function openButton(resultId: string, save: SaveItem, actions: ResultActions): HTMLButtonElement {
  return h(
    'button',
    {
      className: 'secondary',
      attrs: { type: 'button', 'aria-label': `Open ${save.name} (${saveOrigin(save)})` },
      on: { click: () => actions.open(resultId, save) },
    },
    icon('go-to-file'),
    ' Open',
  );
}

function saveRow(resultId: string, save: SaveItem, actions: ResultActions): HTMLElement {
  const details = [save.name, save.size !== undefined ? formatBytes(save.size) : '', save.mimeType ?? ''].filter(Boolean).join(' · ');
  return h('div', { className: 'result-item file-output' }, icon('file'), h('span', {}, ` ${details} `), saveButton(resultId, save, actions));
}

function truncatedNote(truncated: { totalChars: number } | undefined): HTMLElement | null {
  return truncated ? h('div', { className: 'description' }, `Showing the beginning of ${truncated.totalChars.toLocaleString()} characters.`) : null;
}

/** Plain text, with a toggle to show it as (safe, tiny-subset) Markdown. */
function textItem(text: string, truncated: { totalChars: number } | undefined, key: string, markdown: ResultActions['markdown']): HTMLElement {
  const plain = h('pre', { className: 'text' }, text);
  const on = markdown.isOn(key);
  let body: HTMLElement = on ? renderMarkdown(text) : plain;
  const toggle = h('button', { className: 'secondary small', attrs: { type: 'button', 'aria-pressed': String(on) } }, icon('markdown'), ' Markdown');
  toggle.addEventListener('click', () => {
    const next = toggle.getAttribute('aria-pressed') !== 'true';
    toggle.setAttribute('aria-pressed', String(next));
    markdown.set(key, next);
    const shown = next ? renderMarkdown(text) : plain;
    body.replaceWith(shown);
    body = shown;
  });
  return h('div', { className: 'result-item result-text' }, h('div', { className: 'item-tools' }, toggle), body, truncatedNote(truncated));
}

function renderItem(resultId: string, index: number, item: ResultItem, actions: ResultActions): HTMLElement {
  const save = item.save ? saveButton(resultId, item.save, actions) : null;
  switch (item.kind) {
    case 'text':
      return textItem(item.text, item.truncated, `${resultId}/${index}`, actions.markdown);
    case 'image':
    case 'audio': {
      const src = item.tooLargeToPreview ? undefined : dataUrl(item.mimeType, item.data);
      const caption = `${item.kind === 'image' ? 'Image' : 'Audio'} · ${item.mimeType} · ${formatBytes(item.size)}`;
      const media = !src
        ? h('div', { className: 'description' }, 'Too large to preview; save it to open it.')
        : item.kind === 'image'
          ? h('img', { attrs: { src, alt: caption } })
          : h('audio', { attrs: { src, controls: true, 'aria-label': caption } });
      return h('figure', { className: 'result-item media' }, media, h('figcaption', { className: 'description' }, caption, ' ', save));
    }
    case 'resourceLink': {
      const read = h(
        'button',
        { className: 'secondary', attrs: { type: 'button', 'aria-label': `Read ${item.uri}` }, on: { click: () => actions.readResource(item.uri) } },
        icon('go-to-file'),
        ' Read',
      );
      const meta = [item.mimeType, item.size !== undefined ? formatBytes(item.size) : undefined].filter(Boolean).join(' · ');
      return h(
        'div',
        { className: 'result-item resource-link' },
        icon('link'),
        h('span', { className: 'resource-name' }, ` ${item.title ?? item.name} `),
        h('code', {}, item.uri),
        meta ? h('span', { className: 'description' }, ` ${meta}`) : null,
        item.description ? h('div', { className: 'description' }, item.description) : null,
        h('div', { className: 'row' }, read, save),
      );
    }
    case 'resourceText':
      return h(
        'div',
        { className: 'result-item resource' },
        h('div', { className: 'resource-header' }, icon('file-code'), ' ', h('code', {}, item.uri), item.mimeType ? ` · ${item.mimeType}` : '', ' ', save),
        h('pre', { className: 'text' }, item.text),
        truncatedNote(item.truncated),
      );
    case 'resourceBlob': {
      const src = item.mimeType?.startsWith('image/') && !item.tooLargeToPreview ? dataUrl(item.mimeType, item.data) : undefined;
      return h(
        'div',
        { className: 'result-item resource' },
        h(
          'div',
          { className: 'resource-header' },
          icon('file-binary'),
          ' ',
          h('code', {}, item.uri),
          ` · ${item.mimeType ?? 'binary'} · ${formatBytes(item.size)} `,
          save,
        ),
        src ? h('img', { attrs: { src, alt: item.uri } }) : null,
      );
    }
    case 'fileOutput': {
      const details = [item.name, item.size !== undefined ? formatBytes(item.size) : '', item.mimeType ?? ''].filter(Boolean).join(' · ');
      return h('div', { className: 'result-item file-output' }, icon('file'), h('span', {}, ` ${details} `), save);
    }
    case 'file': {
      const details = [
        item.name,
        item.size !== undefined ? formatBytes(item.size) : 'size not given',
        item.mimeType ?? 'type not given',
        item.digest ? 'sha-256 given' : 'no digest',
      ].join(' · ');
      const open = item.save ? openButton(resultId, item.save, actions) : null;
      return h(
        'div',
        { className: 'result-item file-output', attrs: { 'data-file-uri': item.uri } },
        icon('file'),
        h('span', {}, ` ${details} `),
        save,
        open ? ' ' : null,
        open,
      );
    }
    case 'unknown':
      return h('details', { className: 'result-item' }, h('summary', {}, `Unknown content type "${item.type}"`), h('pre', { className: 'text' }, item.json));
    default:
      return assertNever(item, 'result item');
  }
}

const STATUS_TEXT: Record<StructuredView['status'], string> = {
  valid: 'matches the output schema',
  invalid: 'does not match the output schema',
  missing: 'missing (the tool declares an output schema)',
  unchecked: 'not checked',
  skipped: 'not checked (error result)',
};

function renderStructured(structured: StructuredView): HTMLElement {
  const bad = structured.status === 'invalid' || structured.status === 'missing';
  const section = h(
    'details',
    { className: `result-item structured${bad ? ' invalid' : ''}`, attrs: { open: true } },
    h('summary', {}, icon(bad ? 'warning' : structured.status === 'valid' ? 'pass' : 'info'), ` Structured content: ${STATUS_TEXT[structured.status]}`),
  );
  for (const error of structured.errors ?? []) section.append(h('div', { className: bad ? 'error' : 'description' }, error));
  for (const note of structured.notes ?? []) section.append(h('div', { className: 'description' }, icon('info'), ' ', note));
  if (structured.json !== undefined) {
    let tree: HTMLElement | undefined;
    if (!structured.truncated) {
      try {
        tree = jsonTree(JSON.parse(structured.json) as unknown, 0);
      } catch {
        tree = undefined;
      }
    }
    append(section, tree ?? h('pre', { className: 'text' }, structured.json), truncatedNote(structured.truncated));
  }
  return section;
}

const JSON_TREE_DEPTH = 32;

/** A collapsible tree of a JSON value: objects and arrays as <details>, leaves as text. */
export function jsonTree(value: unknown, depth: number): HTMLElement {
  if (value === null || typeof value !== 'object')
    return h('span', { className: `json-leaf json-${value === null ? 'null' : typeof value}` }, JSON.stringify(value));
  // Deeper levels are one line of JSON: the page stays shallow whatever the value's nesting.
  if (depth >= JSON_TREE_DEPTH) return h('span', { className: 'json-leaf' }, JSON.stringify(value));
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  const summary = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
  const list = h('ul', { className: 'json-tree' });
  for (const [key, child] of entries) list.append(h('li', {}, h('span', { className: 'json-key' }, `${key}: `), jsonTree(child, depth + 1)));
  return h('details', { attrs: { open: depth < 2 } }, h('summary', {}, summary), list);
}
