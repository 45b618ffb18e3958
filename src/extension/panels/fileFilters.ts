// Turning a slot's `accept` list into what VS Code's pickers take: extension globs for
// `workspace.findFiles` and filters for `showOpenDialog`. These only narrow what is offered;
// the file engine's check (by content) decides. No `vscode` import: tested in plain Node.

import { mimeTable } from '../../core/files/typeTables';

/** Folders of tools and dependencies, never offered by "From workspace…" (build outputs are: a report may live there). */
const TOOL_FOLDERS = ['node_modules', '.git', '.svn', '.hg', '.cache', '.venv', '__pycache__'];

/**
 * The exclude glob for "From workspace…": the tool folders plus the user's `files.exclude` patterns that are on.
 * (Passing any exclude to `findFiles` replaces `files.exclude`, so it is merged here.)
 */
export function workspaceExclude(filesExclude: Record<string, unknown> = {}): string {
  const user = Object.entries(filesExclude)
    .filter(([pattern, on]) => on === true && !/[{}]/.test(pattern))
    .map(([pattern]) => pattern);
  return `{${[...TOOL_FOLDERS.map((f) => `**/${f}/**`), ...user].join(',')}}`;
}

/**
 * The file extensions (lower case, no dot) an accept list allows, or `undefined` when any file may fit
 * (no list, `*` / `*\/*`, or a MIME type whose extensions are unknown).
 */
export function acceptedExtensions(accept: readonly string[] | undefined): string[] | undefined {
  const entries = (accept ?? []).map((e) => e.split(';')[0]!.trim().toLowerCase()).filter((e) => e !== '');
  if (entries.length === 0) return undefined;
  const out = new Set<string>();
  for (const entry of entries) {
    if (entry === '*' || entry === '*/*') return undefined;
    if (entry.startsWith('.')) {
      if (entry.length > 1) out.add(entry.slice(1));
    } else if (entry.endsWith('/*')) {
      const prefix = entry.slice(0, -1);
      const matching = Object.keys(mimeTable().extensions).filter((type) => type.startsWith(prefix));
      if (matching.length === 0) return undefined;
      for (const type of matching) for (const ext of mimeTable().extensions[type]!) out.add(ext);
    } else {
      const exts = mimeTable().extensions[entry];
      if (!exts || exts.length === 0) return undefined;
      for (const ext of exts) out.add(ext);
    }
  }
  return [...out].sort();
}

/** Case-insensitive glob character classes, since `findFiles` matches case-sensitively. */
function caseless(ext: string): string {
  return [...ext].map((c) => (c.toLowerCase() !== c.toUpperCase() ? `[${c.toLowerCase()}${c.toUpperCase()}]` : c)).join('');
}

/** The glob for `workspace.findFiles`: `**\/*` or `**\/*.{png,jpg}` (case-insensitive). */
export function workspaceGlob(accept: readonly string[] | undefined): string {
  const exts = acceptedExtensions(accept);
  if (!exts || exts.length === 0) return '**/*';
  const parts = exts.map(caseless);
  return parts.length === 1 ? `**/*.${parts[0]}` : `**/*.{${parts.join(',')}}`;
}

/** `showOpenDialog` filters: the accepted types first, then "All files" (the check still applies). */
export function openDialogFilters(accept: readonly string[] | undefined, label: string): Record<string, string[]> {
  const exts = acceptedExtensions(accept);
  if (!exts || exts.length === 0) return { 'All files': ['*'] };
  return { [label]: exts, 'All files': ['*'] };
}

/** The modal confirmation's detail: one line per file, then where the files go. */
export function confirmationDetail(
  files: readonly { label: string; name: string; size: string; mediaType: string; uploadHost?: string }[],
  server: string,
  target: string,
): string {
  const lines = files.map((f) => `• ${f.label}: ${f.name} (${f.size}, ${f.mediaType}${f.uploadHost ? `, uploaded to ${f.uploadHost}` : ''})`);
  if (lines.length > 0) lines.push('');
  lines.push(`Destination: ${target} on the MCP server "${server}".`);
  if (files.some((f) => f.uploadHost)) {
    lines.push(
      `Files marked "uploaded to" go first to that storage host, which "${server}" authorized for them, over HTTPS and` +
        ' without your MCP credentials (never to a private or link-local address unless the server itself is on one).',
    );
  }
  if (files.length > 0) lines.push('The files are read and sent only if you choose Send.');
  return lines.join('\n');
}

/** Picker entries newest first, then by path. */
export function byRecency<T extends { mtimeMs: number; path: string }>(items: T[]): T[] {
  return [...items].sort((a, b) => b.mtimeMs - a.mtimeMs || a.path.localeCompare(b.path));
}
