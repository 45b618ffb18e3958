// Saving result files: free names (never overwrite silently), workspace containment by real path,
// and presigned-URL downloads that run only with the caller's consent, over HTTPS, within a size limit.

import { createWriteStream } from 'node:fs';
import { access, open, realpath, unlink } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import { basename, dirname, extname, isAbsolute, join, relative, resolve } from 'node:path';
import { refuseInsecureUrl } from '../net/destination';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../io/limits';
import { linkIntoPlace, partPathFor, removeStaleParts, seconds } from '../files/transfer/http';
import type { SaveItem } from '../../shared/resultModel';
import { linkAbort } from '../events';

/**
 * Characters that change how a name displays without being seen: bidirectional embeddings, overrides, isolates
 * and marks, zero-width characters, the BOM, and C1 controls. A name like `report\u202Egpj.exe` would
 * display as `reportexe.jpg`.
 */
const INVISIBLE = /[\u0080-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

/** A file name that is safe on every platform and shows what it is: no directories, no control, invisible or reserved characters. */
export function safeFileName(wanted: string, fallback = 'output'): string {
  const base = basename(wanted.replace(INVISIBLE, '').replace(/\\/g, '/'))
    .replace(/[\x00-\x1f\x7f<>:"/\\|?*]/g, '_')
    .replace(/^[.\s]+|[.\s]+$/g, '')
    .slice(0, 200);
  return /^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i.test(base) || base === '' ? `${fallback}${base ? '_' + base : ''}` : base;
}

const exists = (p: string) =>
  access(p).then(
    () => true,
    () => false,
  );

/**
 * The absolute path to save `item` under in `dir` (inside the workspace): the wanted (or suggested)
 * name when free, otherwise `name (1).ext`, `name (2).ext`, ... It never names an existing file.
 */
export async function planSave(item: SaveItem, dir: string, wantedName?: string): Promise<string> {
  const name = safeFileName(wantedName ?? item.name);
  const ext = extname(name);
  const stem = name.slice(0, name.length - ext.length);
  for (let n = 0; n < 10_000; n++) {
    const candidate = join(dir, n === 0 ? name : `${stem} (${n})${ext}`);
    if (!(await exists(candidate))) return candidate;
  }
  throw new Error(`No free file name for "${name}" in ${dir}.`);
}

/** Writes a new file; fails (EEXIST) rather than overwrite one that appeared meanwhile. */
export async function writeNewFile(path: string, bytes: Uint8Array): Promise<void> {
  const handle = await open(path, 'wx');
  try {
    await handle.writeFile(bytes);
  } finally {
    await handle.close();
  }
}

async function realOrResolved(p: string): Promise<string> {
  try {
    return await realpath(p);
  } catch {
    // Not there (yet): resolve the nearest existing parent, so a symlinked parent still counts.
    const parent = dirname(p);
    return parent === p ? resolve(p) : join(await realOrResolved(parent), basename(p));
  }
}

/** True when `p` (after resolving symlinks) lies inside one of `roots`. */
export async function pathInsideWorkspace(p: string, roots: readonly string[]): Promise<boolean> {
  if (!isAbsolute(p)) return false;
  const real = await realOrResolved(p);
  for (const root of roots) {
    const rel = relative(await realOrResolved(root), real);
    if (rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))) return true;
  }
  return false;
}

export interface DownloadOptions {
  /** The user agreed to download from this URL. Without it nothing is fetched. */
  consent: boolean;
  maxBytes: number;
  /** What sets `maxBytes` (a setting's name), for the refusal. */
  maxBytesName?: string;
  /** The whole download ends within this long (default DEFAULT_REQUEST_TIMEOUT_MS). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * Downloads a presigned URL into a new file at `target` (never overwriting), streaming and
 * stopping as soon as more than `maxBytes` arrive or its deadline passes. Redirects are not followed. The
 * bytes go to a temporary file beside `target`, linked into place only once complete: a failure, a cancel or
 * a killed process leaves no partial file under the wanted name (a killed one's temporary file is removed by
 * the next download into that folder). Returns the number of bytes written.
 */
export async function downloadToFile(rawUrl: string, target: string, opts: DownloadOptions): Promise<number> {
  if (opts.consent !== true) throw new Error('Download refused: the user has not agreed to download this file.');
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new Error('Download refused: the server gave an invalid URL.');
  }
  const insecure = refuseInsecureUrl(url);
  if (insecure) throw new Error(`Download refused: ${insecure}.`);
  if (await exists(target)) throw new Error(`EEXIST: ${basename(target)} exists; nothing was overwritten`);
  await removeStaleParts(dirname(target));
  const temp = partPathFor(target);
  const out = createWriteStream(temp, { flags: 'wx' });
  await new Promise<void>((res, rej) => {
    out.once('open', () => res());
    out.once('error', rej);
  });
  let written = 0;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const stop = linkAbort(opts.signal);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    stop.abort();
  }, timeoutMs);
  const limitName = opts.maxBytesName ? `, ${opts.maxBytesName}` : '';
  try {
    await new Promise<void>((res, rej) => {
      stop.signal.addEventListener(
        'abort',
        () => rej(new Error(timedOut ? `Download stopped: it did not finish within ${seconds(timeoutMs)} (${written} bytes arrived).` : 'Download cancelled.')),
        { once: true },
      );
      const req = (url.protocol === 'https:' ? https : http).get(url, { signal: stop.signal }, (response) => {
        const status = response.statusCode ?? 0;
        if (status < 200 || status >= 300) {
          response.resume();
          rej(new Error(`Download failed: the server answered HTTP ${status}${status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}.`));
          return;
        }
        const declared = Number(response.headers['content-length']);
        if (Number.isFinite(declared) && declared > opts.maxBytes) {
          response.destroy();
          rej(new Error(`Download refused: the file is ${declared} bytes, over the ${opts.maxBytes}-byte limit${limitName}.`));
          return;
        }
        response.on('data', (chunk: Buffer) => {
          written += chunk.length;
          if (written > opts.maxBytes) {
            response.destroy();
            rej(new Error(`Download stopped: more than ${opts.maxBytes} bytes arrived (the limit${limitName}).`));
            return;
          }
          if (!out.write(chunk)) {
            response.pause();
            out.once('drain', () => response.resume());
          }
        });
        response.on('end', () => res());
        response.on('error', rej);
      });
      req.on('error', rej);
    });
    await new Promise<void>((res, rej) => out.end((e?: Error | null) => (e ? rej(e) : res())));
    await linkIntoPlace(temp, target);
    return written;
  } catch (e) {
    out.destroy();
    throw e;
  } finally {
    clearTimeout(timer);
    stop.dispose();
    await unlink(temp).catch(() => undefined);
  }
}
