// A deliberately tiny Markdown subset for tool results: headings, paragraphs, lists, quotes,
// fenced code, **bold**, *italic*, `code` and [links](url). Parsing is pure (tested in node);
// rendering builds DOM nodes with text only. Links are shown, never followed from the webview.

export type Inline =
  | { type: 'text'; text: string }
  | { type: 'strong'; text: string }
  | { type: 'em'; text: string }
  | { type: 'code'; text: string }
  | { type: 'link'; text: string; url: string };

export type Block =
  | { type: 'heading'; level: number; inlines: Inline[] }
  | { type: 'paragraph'; inlines: Inline[] }
  | { type: 'quote'; inlines: Inline[] }
  | { type: 'list'; ordered: boolean; items: Inline[][] }
  | { type: 'code'; text: string };

const INLINE = /`([^`]+)`|\*\*([^*]+)\*\*|__([^_]+)__|\*([^*\s][^*]*)\*|_([^_\s][^_]*)_|\[([^\]]+)\]\(([^)\s]+)\)/g;

export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) out.push({ type: 'text', text: text.slice(last, m.index) });
    if (m[1] !== undefined) out.push({ type: 'code', text: m[1] });
    else if (m[2] !== undefined || m[3] !== undefined) out.push({ type: 'strong', text: (m[2] ?? m[3])! });
    else if (m[4] !== undefined || m[5] !== undefined) out.push({ type: 'em', text: (m[4] ?? m[5])! });
    else out.push({ type: 'link', text: m[6]!, url: m[7]! });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ type: 'text', text: text.slice(last) });
  return out;
}

const LIST_ITEM = /^\s*(?:([-*+])|(\d+)[.)])\s+(.*)$/;

export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) blocks.push({ type: 'paragraph', inlines: parseInline(paragraph.join(' ')) });
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = /^\s*(```|~~~)/.exec(line);
    if (fence) {
      flush();
      const body: string[] = [];
      while (++i < lines.length && !lines[i]!.trimStart().startsWith(fence[1]!)) body.push(lines[i]!);
      blocks.push({ type: 'code', text: body.join('\n') });
      continue;
    }
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    const item = LIST_ITEM.exec(line);
    if (heading) {
      flush();
      blocks.push({ type: 'heading', level: heading[1]!.length, inlines: parseInline(heading[2]!) });
    } else if (item) {
      flush();
      const ordered = item[2] !== undefined;
      const previous = blocks[blocks.length - 1];
      const inlines = parseInline(item[3]!);
      if (previous?.type === 'list' && previous.ordered === ordered) previous.items.push(inlines);
      else blocks.push({ type: 'list', ordered, items: [inlines] });
    } else if (/^\s*>/.test(line)) {
      flush();
      blocks.push({ type: 'quote', inlines: parseInline(line.replace(/^\s*>\s?/, '')) });
    } else if (line.trim() === '') {
      flush();
    } else {
      paragraph.push(line.trim());
    }
  }
  flush();
  return blocks;
}

function renderInlines(parent: HTMLElement, inlines: Inline[]): HTMLElement {
  for (const inline of inlines) {
    if (inline.type === 'text') {
      parent.append(inline.text);
    } else if (inline.type === 'link') {
      const span = document.createElement('span');
      span.className = 'md-link';
      span.append(inline.text);
      const url = document.createElement('code');
      url.append(` (${inline.url})`);
      parent.append(span, url);
    } else {
      const el = document.createElement(inline.type === 'strong' ? 'strong' : inline.type === 'em' ? 'em' : 'code');
      el.append(inline.text);
      parent.append(el);
    }
  }
  return parent;
}

export function renderMarkdown(source: string): HTMLElement {
  const root = document.createElement('div');
  root.className = 'markdown';
  for (const block of parseMarkdown(source)) {
    switch (block.type) {
      case 'heading':
        root.append(renderInlines(document.createElement(`h${Math.min(6, block.level + 2)}` as 'h3'), block.inlines));
        break;
      case 'paragraph':
        root.append(renderInlines(document.createElement('p'), block.inlines));
        break;
      case 'quote':
        root.append(renderInlines(document.createElement('blockquote'), block.inlines));
        break;
      case 'list': {
        const list = document.createElement(block.ordered ? 'ol' : 'ul');
        for (const item of block.items) list.append(renderInlines(document.createElement('li'), item));
        root.append(list);
        break;
      }
      case 'code': {
        const pre = document.createElement('pre');
        pre.className = 'text';
        pre.append(block.text);
        root.append(pre);
        break;
      }
    }
  }
  return root;
}
