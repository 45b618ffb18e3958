// JSON and JSONC from users (--args, mcp.json, answers files) checked for nesting before any parser sees it:
// recursive parsers and schema walkers overflow the stack on deep input, which would read as a server failure.
import { MAX_JSON_DEPTH } from './limits';

/** 1-based line and column of each offset, found in one pass over the text (for many offsets at once). */
export function lineColumns(text: string, offsets: readonly number[]): Array<{ line: number; column: number }> {
  const order = offsets.map((offset, i) => ({ offset, i })).sort((a, b) => a.offset - b.offset);
  const out = new Array<{ line: number; column: number }>(offsets.length);
  let line = 1;
  let lineStart = 0;
  let pos = 0;
  for (const { offset, i } of order) {
    const end = Math.min(offset, text.length);
    for (; pos < end; pos++) if (text.charCodeAt(pos) === 10) { line++; lineStart = pos + 1; }
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
      if (next === 0x2f) { const nl = text.indexOf('\n', i); i = nl === -1 ? text.length : nl; }
      else if (next === 0x2a /* * */) { const end = text.indexOf('*/', i + 2); i = end === -1 ? text.length : end + 1; }
    }
  }
  return undefined;
}

/** "nested too deeply (more than 256 levels) at line 1, column 257", or undefined when the text is shallow enough. */
export function nestingProblem(text: string, comments = false, maxDepth = MAX_JSON_DEPTH): string | undefined {
  const at = tooDeepAt(text, maxDepth, comments);
  if (at === undefined) return undefined;
  const [{ line, column }] = lineColumns(text, [at]);
  return `nested too deeply (more than ${maxDepth} levels) at line ${line}, column ${column}`;
}

/** JSON.parse after the nesting check; throws a SyntaxError whose message says what is wrong and where. */
export function parseJsonBounded(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  const problem = nestingProblem(text, false, maxDepth);
  if (problem) throw new SyntaxError(problem);
  return JSON.parse(text) as unknown;
}
