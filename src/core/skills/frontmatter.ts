// The YAML frontmatter of a SKILL.md, read so it can be compared field by field with the entry a server listed
// (SEP-2640: a discrepancy is a verification failure). Only the YAML that frontmatter is written in is read:
// block maps nested by indentation, block lists of scalars, plain, single- and double-quoted scalars, flow
// lists of scalars. Anything else (anchors, block scalars, flow maps, tags) throws: a skill the host cannot
// compare is not loaded, rather than compared loosely.
import { isObject } from '../../shared/json';
import { HostError } from '../errors';

export class FrontmatterError extends HostError {
  static override readonly brand: string = 'FrontmatterError';
}

/** The frontmatter block's text (between the leading `---` lines), or undefined when the file has none. */
export function frontmatterBlock(markdown: string): string | undefined {
  const m = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(markdown);
  return m ? m[1] : undefined;
}

/** Parses the frontmatter of a SKILL.md into JSON; throws FrontmatterError on what this reader does not read. */
export function parseFrontmatter(markdown: string): Record<string, unknown> {
  const block = frontmatterBlock(markdown);
  if (block === undefined) throw new FrontmatterError('it does not begin with a "---" frontmatter block');
  const lines = block
    .split(/\r?\n/)
    .map((text, i) => ({ text: text.replace(/\s+$/, ''), line: i + 2 }))
    .filter((l) => l.text.trim() !== '' && !l.text.trim().startsWith('#'));
  const at = { i: 0 };
  const value = readBlock(lines, at, 0);
  if (at.i < lines.length) throw new FrontmatterError(`line ${lines[at.i]!.line}: unexpected indentation`);
  if (!isObject(value)) throw new FrontmatterError('it is not a map of fields');
  return value;
}

interface Line {
  text: string;
  line: number;
}

function indentOf(text: string): number {
  const width = /^( *)/.exec(text)![1]!.length;
  if (text[width] === '\t') throw new FrontmatterError('tabs indent it');
  return width;
}

function readBlock(lines: Line[], at: { i: number }, indent: number): unknown {
  const first = lines[at.i];
  if (!first) return null;
  return first.text.slice(indent).startsWith('- ') || first.text.slice(indent) === '-' ? readList(lines, at, indent) : readMap(lines, at, indent);
}

function readMap(lines: Line[], at: { i: number }, indent: number): Record<string, unknown> {
  const map: Record<string, unknown> = {};
  while (at.i < lines.length) {
    const { text, line } = lines[at.i]!;
    const own = indentOf(text);
    if (own < indent) break;
    if (own > indent) throw new FrontmatterError(`line ${line}: unexpected indentation`);
    const m = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s:"'][^:]*?)\s*:(?:\s+(.*))?$/.exec(text.slice(indent));
    if (!m) throw new FrontmatterError(`line ${line}: not a "key: value" field`);
    const key = String(scalar(m[1]!, line));
    if (Object.hasOwn(map, key)) throw new FrontmatterError(`line ${line}: the field "${key}" appears twice`);
    at.i++;
    if (m[2] !== undefined && !m[2].startsWith('#')) {
      map[key] = scalar(m[2], line);
    } else {
      const next = lines[at.i];
      const nested = next && indentOf(next.text) > indent;
      // A list may sit at the key's own indentation ("key:\n- a").
      const listHere = next && indentOf(next.text) === indent && next.text.slice(indent).startsWith('-');
      map[key] = nested ? readBlock(lines, at, indentOf(next.text)) : listHere ? readList(lines, at, indent) : null;
    }
  }
  return map;
}

function readList(lines: Line[], at: { i: number }, indent: number): unknown[] {
  const list: unknown[] = [];
  while (at.i < lines.length) {
    const { text, line } = lines[at.i]!;
    const own = indentOf(text);
    if (own < indent || !text.slice(indent).startsWith('-')) break;
    if (own > indent) throw new FrontmatterError(`line ${line}: unexpected indentation`);
    const item = text.slice(indent + 1).trim();
    if (item === '' || /^[^"'[{][^:]*:(\s|$)/.test(item)) throw new FrontmatterError(`line ${line}: a list item that is not a plain value`);
    list.push(scalar(item, line));
    at.i++;
  }
  return list;
}

function scalar(raw: string, line: number): unknown {
  // A comment ends a line: after a quoted string's closing quote, or after a blank in a plain value.
  const quoted = /^\s*("(?:[^"\\]|\\.)*"|'(?:[^']|'')*')\s*(?:#.*)?$/.exec(raw);
  const s = quoted ? quoted[1]! : raw.replace(/\s+#.*$/, '').trim();
  if (s.startsWith('"')) {
    if (!/^"(?:[^"\\]|\\.)*"$/.test(s)) throw new FrontmatterError(`line ${line}: an unterminated string`);
    try {
      return JSON.parse(s);
    } catch {
      throw new FrontmatterError(`line ${line}: a string with an escape this reader does not read`);
    }
  }
  if (s.startsWith("'")) {
    if (!/^'(?:[^']|'')*'$/.test(s)) throw new FrontmatterError(`line ${line}: an unterminated string`);
    return s.slice(1, -1).replace(/''/g, "'");
  }
  if (s.startsWith('[') && s.endsWith(']')) {
    const inner = s.slice(1, -1).trim();
    return inner === ''
      ? []
      : inner.split(',').map((part) => {
          if (/[[\]{}]/.test(part)) throw new FrontmatterError(`line ${line}: a nested flow value`);
          return scalar(part, line);
        });
  }
  if (/^[&*!|>{[%@`]/.test(s)) throw new FrontmatterError(`line ${line}: YAML this host does not read (${s.slice(0, 20)})`);
  if (s === 'null' || s === '~' || s === 'Null' || s === 'NULL') return null;
  if (/^(true|True|TRUE)$/.test(s)) return true;
  if (/^(false|False|FALSE)$/.test(s)) return false;
  if (/^[-+]?(0|[1-9]\d*)$/.test(s)) return Number(s);
  if (/^[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?$/.test(s)) return Number(s);
  return s;
}
