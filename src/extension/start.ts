// The extension's entry (package.json `main`, dist/extension.js): loads the extension itself, dist/main.js, with a
// V8 code cache kept in the extension's global storage (codeCache.ts), and hands activation to it.
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { loadWithCodeCache } from './codeCache';

/** Activation is timed from here (`activationMs` of the extension's API). */
const loadedAt = performance.now();

/** Long enough after activation for the views' first work to be compiled too, and so in the cache. */
const SAVE_CACHE_AFTER_MS = 5_000;

type Main = typeof import('./extension');
let main: Main | undefined;

export function activate(context: vscode.ExtensionContext): ReturnType<Main['activate']> {
  const activateCalledAt = performance.now();
  const storage = context.globalStorageUri;
  const cacheDir = storage.scheme === 'file' ? join(storage.fsPath, 'code-cache') : undefined;
  const loaded = loadWithCodeCache<Main>(join(__dirname, 'main.js'), require, cacheDir);
  main = loaded.exports;
  if (!loaded.fromCache) setTimeout(() => loaded.saveCache(), SAVE_CACHE_AFTER_MS).unref();
  return main.activate(context, { loadedAt, activateCalledAt, fromCodeCache: loaded.fromCache, codeCacheDir: cacheDir });
}

export function deactivate(): ReturnType<Main['deactivate']> {
  return main?.deactivate();
}
