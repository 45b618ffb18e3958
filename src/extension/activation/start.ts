// The extension's entry (package.json `main`, dist/extension.js): loads the extension itself, dist/main.js, with a
// V8 code cache kept in the extension's global storage (codeCache.ts), and hands activation to it.
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { loadWithCodeCache } from './codeCache';

/** Activation is timed from here (`activationMs` of the extension's API). */
const loadedAt = performance.now();

/**
 * The cache is written as soon as activation is over, while all the code it ran is still compiled, and again this
 * long after (with the views' first work) only if that one is larger: V8 drops the bytecode of functions that have
 * not run for six major garbage collections, so on a busy host a cache taken seconds later can lack most of what
 * activation ran, and V8 accepts it, then compiles nearly everything again.
 */
const SAVE_CACHE_AGAIN_AFTER_MS = 5_000;

type Main = typeof import('./extension');
/** The window's shutdown, handed over by the extension's activate (extension.ts owns everything else). */
let deactivation: (() => Promise<void>) | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<import('./extension').McpHostApi> {
  const activateCalledAt = performance.now();
  const cpuAtActivate = process.cpuUsage();
  const storage = context.globalStorageUri;
  const cacheDir = storage.scheme === 'file' ? join(storage.fsPath, 'code-cache') : undefined;
  const loaded = loadWithCodeCache<Main>(join(__dirname, 'main.js'), require, cacheDir);
  const activated = loaded.exports.activate(context, {
    loadedAt,
    activateCalledAt,
    cpuAtActivate,
    cpuAtBundleLoaded: process.cpuUsage(),
    fromCodeCache: loaded.fromCache,
    codeCacheDir: cacheDir,
    codeCache: loaded.cache,
    codeCacheBytes: loaded.cacheBytes,
    phases: loaded.phases,
  });
  if (!loaded.fromCache) {
    const save = () => setImmediate(() => loaded.saveCache());
    activated.then(save, save);
    setTimeout(() => loaded.saveCache(), SAVE_CACHE_AGAIN_AFTER_MS).unref();
  }
  const { api, deactivate: shutdown } = await activated;
  deactivation = shutdown;
  return api;
}

/** VS Code waits for this promise (a few seconds at most): every server is stopped within a shorter budget. */
export function deactivate(): Promise<void> | undefined {
  return deactivation?.();
}
