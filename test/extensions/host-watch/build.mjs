// Bundles the host watch extension (dist/extension.js), and lays out development folders that load it beside others.
import * as esbuild from 'esbuild';
import { mkdirSync, readFileSync, readlinkSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const hostWatchDir = dirname(fileURLToPath(import.meta.url));

/** The folder it has in an extensions folder when installed there: publisher.name-version. */
export function hostWatchInstalledName() {
  const { publisher, name, version } = JSON.parse(readFileSync(join(hostWatchDir, 'package.json'), 'utf8'));
  return `${publisher}.${name}-${version}`;
}

/** Builds dist/extension.js (CommonJS, `vscode` external) and returns the extension's folder. */
export async function buildHostWatch() {
  await buildTestExtension(hostWatchDir);
  return hostWatchDir;
}

/** Bundles a test extension's `extension.ts` into its `dist/extension.js` (CommonJS, `vscode` external). */
export async function buildTestExtension(dir) {
  await esbuild.build({
    entryPoints: [join(dir, 'extension.ts')],
    outfile: join(dir, 'dist/extension.js'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    logLevel: 'warning',
  });
}

/**
 * A development path (the smoke-test payload keeps one) that loads several extensions: `.cache/<name>` under
 * `extensionRoot`, with a link per extension folder of `entries` (name -> folder).
 */
export function developmentFolder(extensionRoot, name, entries) {
  const dir = join(extensionRoot, '.cache', name);
  mkdirSync(dir, { recursive: true });
  for (const [entry, target] of Object.entries(entries)) link(target, join(dir, entry));
  return dir;
}

function link(target, path) {
  try {
    symlinkSync(target, path, 'dir');
  } catch (e) {
    // Another run made it already (scenarios start in parallel).
    if (e.code !== 'EEXIST' || readlinkSync(path) !== target) throw e;
  }
}
