// Where a saved-calls file is and where its paths point (kept apart from the format, which needs Ajv and the
// schema: the extension's History uses only these).
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';

/** The file's name in a workspace's `.vscode` folder. */
export const SAVED_CALLS_FILE = 'mcp-calls.json';

/** The folder paths in a saved-calls file are relative to: the workspace folder (the parent of `.vscode/`), else the file's folder. */
export function savedCallsBase(file: string): string {
  const dir = dirname(resolve(file));
  return basename(dir) === '.vscode' ? dirname(dir) : dir;
}

/** A saved path made absolute against `base`; refused when it leaves the folder (`..`, or absolute elsewhere). */
export function resolveSavedPath(base: string, path: string, label: string): string {
  const full = resolve(base, path);
  const rel = relative(base, full);
  if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel)) {
    throw new Error(`${label}: ${path} is outside the folder ${base}; saved calls name files inside it`);
  }
  return full;
}

/** A path as saved: relative to `base` with forward slashes when inside it, else as given. */
export function toSavedPath(base: string, path: string): string {
  const rel = relative(base, path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : path;
}
