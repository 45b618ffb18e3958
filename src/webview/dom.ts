// A tiny element builder. Text is always inserted as text nodes: nothing here parses markup.

type Child = Node | string | false | null | undefined;

export interface Props {
  className?: string;
  /** Attributes set with setAttribute (ids, aria-*, type, for, ...). */
  attrs?: Record<string, string | number | boolean | undefined>;
  on?: { [K in keyof HTMLElementEventMap]?: (event: HTMLElementEventMap[K]) => void };
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props.className) el.className = props.className;
  for (const [name, value] of Object.entries(props.attrs ?? {})) {
    if (value === undefined || value === false) continue;
    el.setAttribute(name, value === true ? '' : String(value));
  }
  for (const [type, listener] of Object.entries(props.on ?? {})) {
    el.addEventListener(type, listener as EventListener);
  }
  append(el, ...children);
  return el;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === false || child === null || child === undefined) continue;
    parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

/** A codicon, hidden from screen readers (the control next to it carries the name). */
export function icon(name: string): HTMLElement {
  return h('span', { className: `codicon codicon-${name}`, attrs: { 'aria-hidden': 'true' } });
}

export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, ...children);
}

let nextId = 0;
/** A document-unique id for label/for and aria-describedby pairs. */
export function uniqueId(prefix: string): string {
  return `${prefix}-${++nextId}`;
}

/** How much of a long text (a server's description) is shown before "Show all". */
export const LONG_TEXT_SHOWN = 4096;

/**
 * Text that may be huge (a server's 2 MB tool description): the first LONG_TEXT_SHOWN characters at once,
 * and a "Show all" button for the rest, so the panel opens without laying out megabytes.
 */
export function longText(text: string, className: string): HTMLElement {
  if (text.length <= LONG_TEXT_SHOWN) return h('p', { className }, text);
  const shown = h('p', { className }, `${text.slice(0, LONG_TEXT_SHOWN)}…`);
  const more = h('button', { className: 'secondary show-all', attrs: { type: 'button' } }, `Show all (${text.length.toLocaleString('en-US')} characters)`);
  more.addEventListener('click', () => {
    shown.textContent = text;
    more.remove();
  });
  return h('div', { className: 'long-text' }, shown, more);
}
