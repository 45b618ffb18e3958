// Text from a server (or a file) on its way to a terminal: shown, never obeyed.
import { oneLine } from '../shared/format';

/** C0 and C1 control characters (except newline and tab), and the bidirectional controls that reorder text. */
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Control characters (escape sequences included) become visible escapes such as `\x1b`; newlines and tabs stay. */
export function terminalText(text: string): string {
  return String(text).replace(CONTROL, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** One line of a listing: the first line of `text`, cut to `max` characters, made terminal-safe. */
export function terminalLine(text: string, max = 200): string {
  const first = String(text)
    .slice(0, max + 1)
    .split(/[\r\n]/, 1)[0]!;
  return terminalText(first.length > max ? `${first.slice(0, max - 1)}…` : first);
}

/** A name from a server (a tool, a file, a path made from one) on one line: line breaks escaped, terminal-safe. */
export function terminalName(name: string, max = 200): string {
  const line = oneLine(String(name).slice(0, max + 1));
  return terminalText(line.length > max ? `${line.slice(0, max - 1)}…` : line);
}
