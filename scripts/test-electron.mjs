// The integration suite under @vscode/test-electron, for machines that can download VS Code
// (a contributor's laptop, a public CI). Machines without that network run the same suite through
// code-server: `npm test -- integration`.
//   npm run test:electron [-- --version 1.100.0]   (default: the lowest version the manifest supports)
import { runTests } from '@vscode/test-electron';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildTestModel } from '../test/extensions/test-model/build.mjs';
import { bundleSuite, workspace } from '../test/integration/bundle.mjs';
import { buildFixtureBundles } from './fixture-bundles.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const versionAt = process.argv.indexOf('--version');
const version = versionAt >= 0 ? process.argv[versionAt + 1] : manifest.engines.vscode.replace(/^\^/, '');

try {
  const extensionTestsPath = await bundleSuite();
  // the workspace's mcp.json and the suite run the fixture servers from their bundles
  const fixtureBundles = await buildFixtureBundles();
  await runTests({
    extensionTestsEnv: { MCP_HOST_FIXTURE_BUNDLES: fixtureBundles },
    version,
    // The test model needs VS Code 1.104 (the language model provider API); older versions skip its tests.
    extensionDevelopmentPath: [root, await buildTestModel()],
    extensionTestsPath,
    launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', '--user-data-dir', mkdtempSync(join(tmpdir(), 'mcp-host-electron-'))],
  });
} catch (e) {
  console.error(`integration (electron): ${e instanceof Error ? e.message : e}`);
  process.exit(1);
}
