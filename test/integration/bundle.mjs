// Bundles the integration suite for the extension host: index.ts and every suite/*.test.ts become
// CommonJS files in .cache/integration, with `vscode` and mocha left to the host and node_modules.
import * as esbuild from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
export const bundleDir = join(root, '.cache/integration');
export const workspace = join(root, 'test/integration/workspace');

/** Bundles index.ts and every suite/*.test.ts into .cache/integration (CommonJS, `vscode` and mocha external). */
export async function bundleSuite() {
  rmSync(bundleDir, { recursive: true, force: true });
  const suiteDir = join(root, 'test/integration/suite');
  const entryPoints = [{ in: join(root, 'test/integration/index.ts'), out: 'index' }];
  for (const name of readdirSync(suiteDir)) {
    if (name.endsWith('.test.ts')) entryPoints.push({ in: join(suiteDir, name), out: name.replace(/\.ts$/, '') });
  }
  await esbuild.build({
    entryPoints,
    outdir: bundleDir,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // 'module' first: jsonc-parser's UMD main cannot be bundled (it requires its files dynamically)
    mainFields: ['module', 'main'],
    sourcemap: 'inline',
    external: ['vscode', 'mocha'],
    logLevel: 'warning',
    absWorkingDir: root,
  });
  return join(bundleDir, 'index.js');
}
