// JSON and JSONC from users (--args, mcp.json, answers files) checked for nesting before any parser sees it:
// recursive parsers and schema walkers overflow the stack on deep input, which would read as a server failure.
import { MAX_JSON_DEPTH, MAX_SERVER_JSON_DEPTH } from './limits';

/** 1-based line and column of each offset, found in one pass over the text (for many offsets at once). */
export function lineColumns(text: string, offsets: readonly number[]): Array<{ line: number; column: number }> {
  const order = offsets.map((offset, i) => ({ offset, i })).sort((a, b) => a.offset - b.offset);
  const out = new Array<{ line: number; column: number }>(offsets.length);
  let line = 1;
  let lineStart = 0;
  let pos = 0;
  for (const { offset, i } of order) {
    const end = Math.min(offset, text.length);
    for (; pos < end; pos++)
      if (text.charCodeAt(pos) === 10) {
        line++;
        lineStart = pos + 1;
      }
    out[i] = { line, column: offset - lineStart + 1 };
  }
  return out;
}

/**
 * Where `text` first nests deeper than `maxDepth` arrays and objects, or undefined. Linear; strings (and,
 * with `comments`, `//` and block comments) are skipped, so brackets inside them do not count.
 */
export function tooDeepAt(text: string, maxDepth = MAX_JSON_DEPTH, comments = false): number | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c /* \ */) i++;
        else if (d === 0x22 || d === 10) break;
      }
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > maxDepth) return i;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      if (depth > 0) depth--;
    } else if (comments && c === 0x2f /* / */) {
      const next = text.charCodeAt(i + 1);
      if (next === 0x2f) {
        const nl = text.indexOf('\n', i);
        i = nl === -1 ? text.length : nl;
      } else if (next === 0x2a /* * */) {
        const end = text.indexOf('*/', i + 2);
        i = end === -1 ? text.length : end + 1;
      }
    }
  }
  return undefined;
}

/** "nested too deeply (more than 256 levels) at line 1, column 257", or undefined when the text is shallow enough. */
export function nestingProblem(text: string, comments = false, maxDepth = MAX_JSON_DEPTH): string | undefined {
  const at = tooDeepAt(text, maxDepth, comments);
  if (at === undefined) return undefined;
  const { line, column } = lineColumns(text, [at])[0]!;
  return `nested too deeply (more than ${maxDepth} levels) at line ${line}, column ${column}`;
}

/** JSON.parse after the nesting check; throws a SyntaxError whose message says what is wrong and where. */
export function parseJsonBounded(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  const problem = nestingProblem(text, false, maxDepth);
  if (problem) throw new SyntaxError(problem);
  return JSON.parse(text) as unknown;
}

// Parsed values from servers: measured and cut by walks that stop at the bound, so their own recursion stays
// shallow however deep the value is.

/** What stands in for an array or object nested past the host's limit in a value cut by `cutDeep`. */
export const CUT_MARKER = `[nested more than ${MAX_SERVER_JSON_DEPTH} levels deep: cut here]`;

export interface JsonShape {
  /** Arrays and objects nest deeper than the bound given. */
  tooDeep: boolean;
  /** More JSON values (containers and leaves) than the bound given. */
  tooMany: boolean;
  /** JSON values seen before the walk stopped. */
  values: number;
  /** The value holds a `CUT_MARKER` where `cutDeep` with the same bound puts one (it was cut before). */
  cut: boolean;
}

/** Nesting and size of a parsed JSON value, in one walk that stops at the first bound crossed. */
export function jsonShape(value: unknown, maxDepth: number, maxValues = Infinity): JsonShape {
  const shape: JsonShape = { tooDeep: false, tooMany: false, values: 0, cut: false };
  const walk = (v: unknown, depth: number): boolean => {
    if (++shape.values > maxValues) {
      shape.tooMany = true;
      return false;
    }
    // Only where `cutDeep` puts it: the marker anywhere else is a server's text.
    if (typeof v === 'string') {
      if (depth === maxDepth && v === CUT_MARKER) shape.cut = true;
      return true;
    }
    if (typeof v !== 'object' || v === null) return true;
    if (depth >= maxDepth) {
      shape.tooDeep = true;
      return false;
    }
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (!walk(child, depth + 1)) return false;
    return true;
  };
  walk(value, 0);
  return shape;
}

/**
 * `value` with every array or object nested deeper than `maxDepth` replaced by `CUT_MARKER` (a copy only of
 * what leads to a cut; the value itself when nothing is that deep). `cut` also when it was cut before.
 */
export function cutDeep(value: unknown, maxDepth = MAX_SERVER_JSON_DEPTH): { value: unknown; cut: boolean } {
  const shape = jsonShape(value, maxDepth);
  if (!shape.tooDeep) return { value, cut: shape.cut };
  const copy = (v: unknown, depth: number): unknown => {
    if (typeof v !== 'object' || v === null) return v;
    if (depth >= maxDepth) return CUT_MARKER;
    if (Array.isArray(v)) return v.map((child) => copy(child, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [k, child] of Object.entries(v))
      Object.defineProperty(out, k, { value: copy(child, depth + 1), enumerable: true, writable: true, configurable: true });
    return out;
  };
  return { value: copy(value, 0), cut: true };
}
