// Text both sides of the webview boundary show the same way.

/** "70 bytes", "64 KiB", "7 MiB", "1.5 MiB". */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} byte${n === 1 ? '' : 's'}`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const text = Number.isInteger(value) ? String(value) : value.toFixed(value < 10 ? 1 : 0);
  return `${text.replace(/\.0$/, '')} ${units[unit]}`;
}

/** A readable form of an accept list: "image/png, image/jpeg"; "any file" when unrestricted (an empty list, or one holding the all-types wildcard). */
export function describeAccept(accept: readonly string[] | undefined): string {
  const entries = (accept ?? []).filter((e) => typeof e === 'string' && e.trim() !== '');
  if (entries.length === 0 || entries.some((e) => e.split(';')[0]!.trim().toLowerCase() === '*/*')) return 'any file';
  return entries.map((e) => e.trim()).join(', ');
}

/** Every line break a text may carry: LF, CR, VT, FF, NEL, and the Unicode line and paragraph separators. */
const LINE_BREAKS = /[\n\r\v\f\u0085\u2028\u2029]/g;
const LINE_BREAK_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\v': '\\v', '\f': '\\f' };

/**
 * A name from a server (a tool, a file, a task, a resource), for a place that shows one line: each line break
 * is written as an escape (`\n`, `\r`, `\u2028`), so a name cannot start a line of its own and pass for the
 * host's output.
 */
export function oneLine(name: string): string {
  return String(name).replace(LINE_BREAKS, (c) => LINE_BREAK_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
