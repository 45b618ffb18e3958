// Bundles the test model extension and lays out the folder that loads it beside MCP Host.
// The workbench's smoke-test payload keeps one `extensionDevelopmentPath` only (the last), but a
// development path may be a folder of several extensions: `withTestModel(root)` returns one whose
// entries link to MCP Host's folder and to this extension.
import * as esbuild from 'esbuild';
import { mkdirSync, readlinkSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const testModelDir = dirname(fileURLToPath(import.meta.url));

/** Builds dist/extension.js (CommonJS, `vscode` external) and returns the extension's folder. */
export async function buildTestModel() {
  await esbuild.build({
    entryPoints: [join(testModelDir, 'extension.ts')],
    outfile: join(testModelDir, 'dist/extension.js'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    logLevel: 'warning',
  });
  return testModelDir;
}

/** Builds the test model and returns a development path that loads `extensionRoot` and the test model. */
export async function withTestModel(extensionRoot) {
  await buildTestModel();
  const dir = join(extensionRoot, '.cache/dev-extensions');
  mkdirSync(dir, { recursive: true });
  link(extensionRoot, join(dir, 'mcp-host'));
  link(testModelDir, join(dir, 'test-model'));
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
