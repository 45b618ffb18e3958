// Bundles the test model extension (and the test account provider of ../test-accounts) and lays out the
// folder that loads them beside MCP Host.
// The workbench's smoke-test payload keeps one `extensionDevelopmentPath` only (the last), but a
// development path may be a folder of several extensions: `withTestModel(root)` returns one whose
// entries link to MCP Host's folder and to this extension.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildHostWatch, buildTestExtension, developmentFolder } from '../host-watch/build.mjs';

export const testModelDir = dirname(fileURLToPath(import.meta.url));
export const testAccountsDir = join(testModelDir, '../test-accounts');

/** Builds dist/extension.js (CommonJS, `vscode` external) and returns the extension's folder. */
export async function buildTestModel() {
  await buildTestExtension(testModelDir);
  return testModelDir;
}

/** Builds the test account provider's dist/extension.js and returns its folder. */
export async function buildTestAccounts() {
  await buildTestExtension(testAccountsDir);
  return testAccountsDir;
}

/**
 * Builds the test extensions and returns a development path that loads `extensionRoot`, the test model, the test
 * account provider and the host watch (which records only where MCP_HOST_HOST_PROBLEMS says: test/extensions/host-watch).
 */
export async function withTestModel(extensionRoot) {
  await buildTestModel();
  await buildTestAccounts();
  return developmentFolder(extensionRoot, 'dev-extensions', {
    'mcp-host': extensionRoot,
    'test-model': testModelDir,
    'test-accounts': testAccountsDir,
    'host-watch': await buildHostWatch(),
  });
}
