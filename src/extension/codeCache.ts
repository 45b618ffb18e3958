// Loads a CommonJS bundle the way Node's `require` does, but compiled with a V8 code cache kept in a folder of
// the extension's own: compiling the bundle was most of the extension's activation, and with the cache a later
// activation only deserializes what an earlier one compiled. Only this bundle is cached (Node's
// `module.enableCompileCache` would take every extension of the host along).
//
// V8 checks a cache against its own version, its flags and the source's length, not its text, so the file is
// named by a hash of the text and of the Node/V8 versions: an updated bundle never meets an old cache.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

/** Larger files in the cache folder are not read: a cache of a bundle of our size is a few MB at most. */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

export interface CachedLoad<T> {
  exports: T;
  /** Whether V8 took the cache: false on a first load, after an update, or when the cache was unusable. */
  fromCache: boolean;
  /**
   * Writes the cache of what has been compiled so far, when this load did not come from one. Called some time
   * after activation, so that the functions activation ran are in it. Never throws: a cache is only a speed-up.
   */
  saveCache(): void;
}

/**
 * Runs `file` as a CommonJS module whose `require` is `requireFrom` (a require of the same folder, so that
 * `vscode` and the bundle's siblings resolve as they would for the file itself), with the code cache of
 * `cacheDir` when there is one. Without a `cacheDir` (no local storage) it compiles as `require` would.
 */
export function loadWithCodeCache<T>(file: string, requireFrom: NodeJS.Require, cacheDir: string | undefined): CachedLoad<T> {
  const bytes = readFileSync(file);
  const cacheFile = cacheDir && join(cacheDir, `${basename(file)}.${cacheKey(bytes)}.cache`);
  const source = bytes.toString('utf8');
  const cachedData = cacheFile ? readCache(cacheFile) : undefined;
  const script = new Script(wrap(source), { filename: file, cachedData });
  const fromCache = cachedData !== undefined && !script.cachedDataRejected;
  const module = { exports: {} as T, id: file, filename: file, loaded: false };
  (script.runInThisContext() as ModuleFunction)(module.exports, requireFrom, module, file, dirname(file));
  module.loaded = true;
  return {
    exports: module.exports,
    fromCache,
    saveCache() {
      if (!cacheDir || !cacheFile || fromCache) return;
      try {
        const data = script.createCachedData();
        mkdirSync(cacheDir, { recursive: true });
        const partial = `${cacheFile}.${process.pid}.partial`;
        writeFileSync(partial, data);
        renameSync(partial, cacheFile);
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

function readCache(cacheFile: string): Buffer | undefined {
  try {
    const size = statSync(cacheFile).size;
    return size > 0 && size <= MAX_CACHE_BYTES ? readFileSync(cacheFile) : undefined;
  } catch {
    return undefined;
  }
}
