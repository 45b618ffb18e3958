// Loads a CommonJS bundle the way Node's `require` does, but compiled with a V8 code cache kept in a folder of
// the extension's own: compiling the bundle was most of the extension's activation, and with the cache a later
// activation only deserializes what an earlier one compiled. Only this bundle is cached (Node's
// `module.enableCompileCache` would take every extension of the host along).
//
// V8 checks a cache against its own version, its flags and the source's length, not its text, so the file is
// named by a hash of the text and of the Node/V8 versions: an updated bundle never meets an old cache.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Module } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

/** Larger files in the cache folder are not read: a cache of a bundle of our size is a few MB at most. */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * What became of the code cache on a load: V8 took it (`accepted`) or refused it (`rejected`: another V8 or other
 * flags, or damaged); there was none for this bundle yet (`absent`: the first load after an install or update);
 * the file could not be used (`unreadable`: empty, too large or unreadable); or there is no local folder for one.
 */
export type CodeCacheVerdict = 'accepted' | 'rejected' | 'absent' | 'unreadable' | 'no storage';

export interface CachedLoad<T> {
  exports: T;
  /** Whether V8 took the cache: false on a first load, after an update, or when the cache was unusable. */
  fromCache: boolean;
  cache: CodeCacheVerdict;
  /** The size of the cache file read (0 when none was). */
  cacheBytes: number;
  /** Milliseconds spent reading the bundle and its cache, compiling (or deserializing), and running the bundle's top level. */
  phases: { readMs: number; compileMs: number; runMs: number };
  /**
   * Writes the cache of what has been compiled so far, when this load did not come from one, and only when it
   * holds more than what an earlier call wrote: V8 drops the bytecode of functions that have not run for a few
   * garbage collections, so a cache taken later can lack the code activation ran. Never throws: a cache is only
   * a speed-up.
   */
  saveCache(): void;
}

/**
 * Runs `file` as a CommonJS module whose `require` is `requireFrom` (a require of the same folder, so that
 * `vscode` and the bundle's siblings resolve as they would for the file itself), with the code cache of
 * `cacheDir` when there is one. Without a `cacheDir` (no local storage) it compiles as `require` would. Once run, it
 * is in `requireFrom`'s module cache as `require` would leave it: a bundle it loads on demand that requires it back
 * (scripts/build.mjs, sharedWithMain) gets this very module, not a second copy.
 */
export function loadWithCodeCache<T>(file: string, requireFrom: NodeJS.Require, cacheDir: string | undefined): CachedLoad<T> {
  const started = performance.now();
  const bytes = readFileSync(file);
  const cacheFile = cacheDir && join(cacheDir, `${basename(file)}.${cacheKey(bytes)}.cache`);
  const source = bytes.toString('utf8');
  const cached = cacheFile ? readCache(cacheFile) : undefined;
  const cachedData = Buffer.isBuffer(cached) ? cached : undefined;
  const read = performance.now();
  const script = new Script(wrap(source), { filename: file, cachedData });
  const compiled = performance.now();
  const fromCache = cachedData !== undefined && !script.cachedDataRejected;
  const module = new Module(file);
  module.filename = file;
  (script.runInThisContext() as ModuleFunction)(module.exports, requireFrom, module, file, dirname(file));
  module.loaded = true;
  requireFrom.cache[file] = module;
  const ran = performance.now();
  let savedBytes = 0;
  return {
    exports: module.exports as T,
    fromCache,
    cache: !cacheFile ? 'no storage' : cachedData ? (fromCache ? 'accepted' : 'rejected') : cached === 'absent' ? 'absent' : 'unreadable',
    cacheBytes: cachedData?.length ?? 0,
    phases: { readMs: read - started, compileMs: compiled - read, runMs: ran - compiled },
    saveCache() {
      if (!cacheDir || !cacheFile || fromCache) return;
      try {
        const data = script.createCachedData();
        if (data.length <= savedBytes) return;
        mkdirSync(cacheDir, { recursive: true });
        const partial = `${cacheFile}.${process.pid}.partial`;
        writeFileSync(partial, data);
        renameSync(partial, cacheFile);
        savedBytes = data.length;
        // caches of earlier versions of the bundle, never to be read again
        for (const name of readdirSync(cacheDir)) {
          if (name.startsWith(`${basename(file)}.`) && join(cacheDir, name) !== cacheFile) rmSync(join(cacheDir, name), { force: true });
        }
      } catch {
        // a read-only or full disk: the next activation compiles again
      }
    },
  };
}

type ModuleFunction = (exports: unknown, require: NodeJS.Require, module: unknown, filename: string, dirname: string) => void;

/** Node's CommonJS wrapper, on the source's first line so that line numbers stay as they are. */
function wrap(source: string): string {
  return `(function (exports, require, module, __filename, __dirname) { ${source}\n})`;
}

/** Hashed as bytes: twice as fast as hashing the decoded text. */
function cacheKey(bundle: Buffer): string {
  return createHash('sha256').update(`${process.versions.v8}\0${process.version}\0`).update(bundle).digest('hex').slice(0, 32);
}

function readCache(cacheFile: string): Buffer | 'absent' | 'unreadable' {
  try {
    const size = statSync(cacheFile).size;
    return size > 0 && size <= MAX_CACHE_BYTES ? readFileSync(cacheFile) : 'unreadable';
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'absent' : 'unreadable';
  }
}
