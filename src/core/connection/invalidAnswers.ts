// Answers the SDK cannot accept end their request at once with an error naming the server, instead of being
// dropped (the request would then wait for its timeout, or for ever).
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { isObject } from '../../shared/json';

/** JSON-RPC "Internal error": the code an answer the host cannot use is turned into. */
export const INVALID_ANSWER_CODE = -32603;

function kindOf(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/**
 * A response (it has an id and no method) whose `result` is not an object, or that has neither `result` nor a
 * well-formed `error`, becomes an error response for the same id whose message says what was wrong. Every other
 * message is returned as it is.
 */
export function answerOrError(message: JSONRPCMessage, server: string): JSONRPCMessage {
  const m = message as Record<string, unknown>;
  if (m.method !== undefined || (typeof m.id !== 'string' && typeof m.id !== 'number')) return message;
  const hasResult = Object.hasOwn(m, 'result');
  const hasError = Object.hasOwn(m, 'error');
  let problem: string | undefined;
  if (hasResult && hasError) problem = 'has both "result" and "error"';
  else if (hasResult && !isObject(m.result)) problem = `has a "result" that is ${kindOf(m.result)}, not an object`;
  else if (hasError && (!isObject(m.error) || typeof m.error.code !== 'number' || typeof m.error.message !== 'string')) {
    problem = 'has an "error" without a numeric code and a message';
  } else if (!hasResult && !hasError) problem = 'has neither "result" nor "error"';
  if (!problem) return message;
  return {
    jsonrpc: '2.0',
    id: m.id,
    error: { code: INVALID_ANSWER_CODE, message: `server "${server}" sent an answer the host cannot use: it ${problem}` },
  };
}

/** `answerOrError` on a message as JSON text: the same text when it is fine (or not JSON at all). */
export function answerOrErrorText(text: string, server: string): string {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return text;
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return text;
  const checked = answerOrError(message as JSONRPCMessage, server);
  return checked === message ? text : JSON.stringify(checked);
}

/**
 * `answerOrErrorText` on an event's data, given as the bytes of its data lines (joined by newlines): undefined
 * when the message is kept as it is, else the text that replaces it. Requests, notifications and well-formed
 * results are told from the top level of the text alone, without decoding or parsing it (the SDK parses it
 * next; a second copy of a large answer would double the memory it takes); anything else is parsed.
 */
export function answerOrErrorData(lines: readonly Uint8Array[], server: string): string | undefined {
  if (isKeptAsItIs(lines)) return undefined;
  const text = Buffer.concat(lines.flatMap((line, i) => (i === 0 ? [line] : [NEWLINE, line]))).toString('utf8');
  const checked = answerOrErrorText(text, server);
  return checked === text ? undefined : checked;
}

const NEWLINE = new Uint8Array([10]);
const enum Byte {
  Quote = 34,
  Backslash = 92,
  Colon = 58,
  Comma = 44,
  OpenBrace = 123,
  CloseBrace = 125,
  OpenBracket = 91,
  CloseBracket = 93,
  Minus = 45,
  Zero = 48,
  Nine = 57,
}
const KEYS_OF_INTEREST = new Set(['id', 'method', 'result', 'error']);

/**
 * True when the top level of the JSON text shows that `answerOrError` keeps the message: it is not an object,
 * or it has a method, or an id that is neither a string nor a number, or a `result` that is an object and no
 * `error`. Values are skipped, not read; false (parse it) on anything unusual: an escaped key, text that is not
 * well formed at the top level.
 */
function isKeptAsItIs(lines: readonly Uint8Array[]): boolean {
  const bytes = new JoinedBytes(lines);
  const first = bytes.skipSpace();
  if (first !== Byte.OpenBrace) return true;
  bytes.next();
  if (bytes.skipSpace() === Byte.CloseBrace) return true;
  const valueStart = new Map<string, number>();
  for (;;) {
    let b = bytes.skipSpace();
    if (b !== Byte.Quote) return false;
    const key = bytes.readKey();
    if (key === undefined) return false;
    if (bytes.skipSpace() !== Byte.Colon) return false;
    bytes.next();
    const start = bytes.skipSpace();
    if (KEYS_OF_INTEREST.has(key)) valueStart.set(key, start); // a repeated key: the last one counts, as in a parse
    if (!bytes.skipValue()) return false;
    b = bytes.skipSpace();
    bytes.next();
    if (b === Byte.CloseBrace) break;
    if (b !== Byte.Comma) return false;
  }
  if (valueStart.has('method')) return true;
  const id = valueStart.get('id');
  if (id === undefined || !(id === Byte.Quote || id === Byte.Minus || (id >= Byte.Zero && id <= Byte.Nine))) return true;
  return valueStart.get('result') === Byte.OpenBrace && !valueStart.has('error');
}

/** The bytes of several lines read as one text with a newline between each, one byte at a time. */
class JoinedBytes {
  private line = 0;
  private at = 0;
  constructor(private readonly lines: readonly Uint8Array[]) {}

  /** The current byte (-1 at the end). */
  peek(): number {
    while (this.line < this.lines.length) {
      const bytes = this.lines[this.line]!;
      if (this.at < bytes.length) return bytes[this.at]!;
      if (this.at === bytes.length && this.line < this.lines.length - 1) return 10;
      this.line++;
      this.at = 0;
    }
    return -1;
  }

  next(): void {
    if (this.peek() !== -1) this.at++;
  }

  skipSpace(): number {
    let b = this.peek();
    while (b === 32 || b === 9 || b === 10 || b === 13) {
      this.next();
      b = this.peek();
    }
    return b;
  }

  /** Reads a key (at its opening quote); undefined when it has an escape, which only a parser reads right. */
  readKey(): string | undefined {
    this.next();
    let key = '';
    for (let b = this.peek(); b !== Byte.Quote; b = this.peek()) {
      if (b === -1 || b === Byte.Backslash) return undefined;
      if (key.length <= 8) key += String.fromCharCode(b);
      this.next();
    }
    this.next();
    return key;
  }

  /** Skips one value; false when the text ends first. */
  skipValue(): boolean {
    let depth = 0;
    for (let b = this.peek(); b !== -1; b = this.peek()) {
      if (b === Byte.Quote) {
        if (!this.skipString()) return false;
      } else if (b === Byte.OpenBrace || b === Byte.OpenBracket) {
        depth++;
        this.next();
      } else if (b === Byte.CloseBrace || b === Byte.CloseBracket) {
        if (depth === 0) return true;
        depth--;
        this.next();
      } else if (b === Byte.Comma && depth === 0) {
        return true;
      } else {
        this.next();
      }
      if (depth === 0 && (b === Byte.Quote || b === Byte.CloseBrace || b === Byte.CloseBracket)) return true;
    }
    return false;
  }

  /** Skips a string (at its opening quote); false when it does not end on its line (no JSON string spans lines). */
  private skipString(): boolean {
    const bytes = this.lines[this.line]!;
    for (let from = this.at + 1; ;) {
      const quote = bytes.indexOf(Byte.Quote, from);
      if (quote === -1) return false;
      let backslashes = 0;
      while (bytes[quote - 1 - backslashes] === Byte.Backslash) backslashes++;
      if (backslashes % 2 === 0) {
        this.at = quote + 1;
        return true;
      }
      from = quote + 1;
    }
  }
}
