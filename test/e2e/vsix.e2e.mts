// Runs by `npm test -- vsix`, which packages the extension first (MCP_HOST_TEST_VSIX names the file).
import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import { test } from 'node:test';
import { zipEntries } from '../../scripts/package.mjs';
import { describePngFromWorkspace } from './steps.mjs';
import { withWorkbench } from './workbench.mjs';

test('the .vsix holds the bundles, media, README, CHANGELOG and LICENSE, no sources, tests or maps, under 5 MB', () => {
  const vsix = process.env.MCP_HOST_TEST_VSIX;
  assert.ok(vsix && existsSync(vsix), 'MCP_HOST_TEST_VSIX names a built .vsix (run `npm test -- vsix`)');
  assert.ok(statSync(vsix).size < 5 * 1024 * 1024, `${statSync(vsix).size} bytes`);
  const files = zipEntries(vsix).filter((f) => f.startsWith('extension/'));
  for (const expected of [
    'extension/package.json', 'extension/dist/extension.js', 'extension/dist/connection.js', 'extension/media/webview.js', 'extension/media/icon.png',
    'extension/readme.md', 'extension/changelog.md', 'extension/LICENSE.txt',
  ]) {
    assert.ok(files.includes(expected), `${expected} missing from ${files.join(', ')}`);
  }
  const unwanted = files.filter((f) => /\.(ts|mts|map)$|node_modules\/|^extension\/(src|test|scripts|examples|bench)\//.test(f));
  assert.deepEqual(unwanted, []);
});

test('the packaged .vsix, installed into a fresh VS Code, runs describe_file on a workspace PNG', async () => {
  const vsix = process.env.MCP_HOST_TEST_VSIX;
  assert.ok(vsix && existsSync(vsix), 'MCP_HOST_TEST_VSIX names a built .vsix (run `npm test -- vsix`)');
  await withWorkbench('vsix-installed', { vsix }, async (wb) => {
    // installed, not a development folder: the window is not an Extension Development Host
    assert.doesNotMatch(await wb.page.title(), /Extension Development Host/);
    await describePngFromWorkspace(wb);
  });
});
