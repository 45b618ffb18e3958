// Where a path a model gives may lead: a file inside the open workspace folders, nowhere else. The path is
// judged as written (no `..`, no home directory, no absolute path outside the folders) and again once every
// symbolic link is resolved, and files the user keeps out of view (`files.exclude`), out of the repository
// (`.gitignore`) or that look like secrets (`.env`, keys) are refused unless the user picked the file.

import { lstat, realpath } from 'node:fs/promises';
import { basename, isAbsolute, join, normalize, relative, sep } from 'node:path';
import { FileReadError, readBoundedText } from '../io/boundedRead';

/* eslint-disable @typescript-eslint/no-require-imports -- core/libraries is its own bundle, loaded on first use */
const libraries = () => require('../libraries') as typeof import('../libraries');

export interface WorkspaceFolderRules {
  /** The folder on disk. */
  root: string;
  /** Its name in the workspace (a multi-root path may start with it). */
  name: string;
  /** The `files.exclude` globs that are on, relative to the folder. */
  excludes: readonly string[];
}

export type ResolvedPath = { ok: true; path: string; folder: WorkspaceFolderRules; relative: string } | { ok: false; reason: string };

/** A `.gitignore` larger than this is not read (the file is judged without it). */
const GITIGNORE_MAX_BYTES = 256 * 1024;

const SECRET_FILE = [
  /^\.env(\..+)?$/i,
  /\.(pem|key|p12|pfx|keystore|jks|kdbx|ppk|asc|gpg)$/i,
  /^id_(rsa|dsa|ecdsa|ed25519)$/i,
  /^\.(npmrc|netrc|pypirc|pgpass|git-credentials|htpasswd|dockercfg)$/i,
  /^(credentials|secrets?)(\.(json|ya?ml|toml|ini|txt))?$/i,
];
/** Templates of secret files hold no secrets. */
const SECRET_TEMPLATE = /\.(example|sample|template|dist)$/i;
const SECRET_FOLDER = /^\.(git|ssh|aws|gnupg|azure|kube|docker)$/i;

/** Why a path inside a folder looks like a secret, or undefined. */
export function secretReason(relativePath: string): string | undefined {
  const segments = relativePath.split(/[\\/]/).filter((s) => s !== '');
  const folder = segments.slice(0, -1).find((s) => SECRET_FOLDER.test(s));
  if (folder) return `it is inside ${folder}, which holds credentials or repository internals`;
  const name = segments[segments.length - 1] ?? '';
  if (SECRET_FILE.some((r) => r.test(name)) && !SECRET_TEMPLATE.test(name)) return `${name} looks like a file of secrets (credentials, keys)`;
  return undefined;
}

/** The `files.exclude` glob that hides a path (or one of its folders), or undefined. */
export function excludedBy(relativePath: string, excludes: readonly string[]): string | undefined {
  if (excludes.length === 0) return undefined;
  const { minimatch } = libraries();
  const segments = relativePath.split(/[\\/]/).filter((s) => s !== '');
  for (let n = 1; n <= segments.length; n++) {
    const prefix = segments.slice(0, n).join('/');
    const glob = excludes.find((g) => minimatch(prefix, g, { dot: true }));
    if (glob) return glob;
  }
  return undefined;
}

/** The `.gitignore` (as a path relative to the folder) that ignores a path, reading each one from the folder down. */
export async function gitignoredBy(root: string, relativePath: string): Promise<string | undefined> {
  const segments = relativePath.split(/[\\/]/).filter((s) => s !== '');
  for (let depth = 0; depth < segments.length; depth++) {
    const dir = segments.slice(0, depth);
    const file = join(root, ...dir, '.gitignore');
    let text: string;
    try {
      text = await readBoundedText(file, GITIGNORE_MAX_BYTES, '.gitignore');
    } catch (e) {
      if (e instanceof FileReadError || (e as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw e;
    }
    const rules = libraries().ignore().add(text);
    const below = segments.slice(depth);
    // A folder that is ignored hides everything in it, so each of its prefixes is asked too.
    for (let n = 1; n <= below.length; n++) {
      const candidate = below.slice(0, n).join('/') + (n < below.length ? '/' : '');
      if (rules.ignores(candidate)) return [...dir, '.gitignore'].join('/');
    }
  }
  return undefined;
}

function inside(root: string, path: string): string | undefined {
  const rel = relative(root, path);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? undefined : rel;
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

function folderNames(folders: readonly WorkspaceFolderRules[]): string {
  return folders.map((f) => f.name).join(', ');
}

/**
 * Resolves a path a model gave for `argument` to a file inside one of `folders`. With `userPicked` the user chose
 * the file themselves: hidden and secret-looking files are allowed, the folders still bound it.
 */
export async function resolveWorkspacePath(
  argument: string,
  given: string,
  folders: readonly WorkspaceFolderRules[],
  options: { userPicked?: boolean } = {},
): Promise<ResolvedPath> {
  const refuse = (why: string): ResolvedPath => ({ ok: false, reason: `${argument}: "${given.slice(0, 200)}" ${why}` });
  if (given.trim() === '') return { ok: false, reason: `${argument}: the path is empty; give the path of a file in the workspace.` };
  if (given.includes('\0')) return refuse('contains a NUL character.');
  if (given.split(/[\\/]/).includes('..')) return refuse('contains "..": only files inside the workspace folders can be sent.');
  if (given.startsWith('~')) return refuse('points into a home directory: only files inside the workspace folders can be sent.');
  if (folders.length === 0) return refuse('cannot be resolved: no workspace folder is open.');

  const candidates: { folder: WorkspaceFolderRules; path: string }[] = [];
  if (isAbsolute(given)) {
    const folder = folders.find((f) => inside(f.root, normalize(given)) !== undefined);
    if (!folder) return refuse(`is outside the workspace folders (${folderNames(folders)}): only files inside them can be sent.`);
    candidates.push({ folder, path: normalize(given) });
  } else {
    const [first, ...rest] = given.split(/[\\/]/);
    const named = folders.length > 1 ? folders.find((f) => f.name === first) : undefined;
    if (named && rest.length > 0) candidates.push({ folder: named, path: join(named.root, ...rest) });
    for (const folder of folders) candidates.push({ folder, path: join(folder.root, given) });
  }
  let found: { folder: WorkspaceFolderRules; path: string } | undefined;
  for (const c of candidates) {
    if (await exists(c.path)) {
      found = c;
      break;
    }
  }
  if (!found) return refuse(`is not a file in the workspace folder${folders.length > 1 ? 's' : ''} (${folderNames(folders)}).`);

  let real: string;
  let realRoot: string;
  try {
    [real, realRoot] = await Promise.all([realpath(found.path), realpath(found.folder.root)]);
  } catch (e) {
    return refuse(`cannot be resolved (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`);
  }
  const realRelative = inside(realRoot, real);
  if (realRelative === undefined) return refuse('is a symbolic link that leads outside the workspace folders: only files inside them can be sent.');
  const givenRelative = inside(found.folder.root, found.path) ?? realRelative;

  if (!options.userPicked) {
    for (const rel of new Set([givenRelative, realRelative])) {
      const secret = secretReason(rel);
      if (secret) return refuse(`is refused: ${secret}. An agent may not send it; the user can attach it in the tool's panel.`);
      const glob = excludedBy(rel.split(sep).join('/'), found.folder.excludes);
      if (glob)
        return refuse(
          `is refused: it is hidden by the files.exclude setting ("${glob}"). An agent may not send it; the user can attach it in the tool's panel.`,
        );
      const gitignore = await gitignoredBy(realRoot, rel);
      if (gitignore)
        return refuse(
          `is refused: ${gitignore} ignores it (ignored files often hold secrets). An agent may not send it; the user can attach it in the tool's panel.`,
        );
    }
  }
  return { ok: true, path: real, folder: found.folder, relative: realRelative.split(sep).join('/') };
}

/** The name shown for a resolved file: its path in the workspace (the folder's name first when there are several). */
export function workspaceLabel(resolved: { folder: WorkspaceFolderRules; relative: string }, folderCount: number): string {
  return folderCount > 1 ? `${resolved.folder.name}/${resolved.relative}` : resolved.relative || basename(resolved.folder.root);
}
