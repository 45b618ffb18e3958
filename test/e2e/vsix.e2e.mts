// Runs by `npm test -- vsix`, which packages the extension first (MCP_HOST_TEST_VSIX names the file).
import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { zipEntries, zipEntry } from '../../scripts/package.mjs';
import { describePngFromWorkspace } from './steps.mjs';
import { root, withWorkbench } from './workbench.mjs';

/** The .vsix named by MCP_HOST_TEST_VSIX (`npm test -- vsix` packages it first). */
function builtVsix(): string {
  const vsix = process.env.MCP_HOST_TEST_VSIX;
  assert.ok(vsix && existsSync(vsix), 'MCP_HOST_TEST_VSIX names a built .vsix (run `npm test -- vsix`)');
  return vsix;
}

test('the .vsix holds the bundles, media, README, CHANGELOG and LICENSE, no sources, tests, fixtures or maps, under 5 MB', () => {
  const vsix = builtVsix();
  assert.ok(statSync(vsix).size < 5 * 1024 * 1024, `${statSync(vsix).size} bytes`);
  const files = zipEntries(vsix).filter((f) => f.startsWith('extension/'));
  for (const expected of [
    'extension/package.json',
    'extension/dist/extension.js',
    'extension/dist/main.js',
    'extension/dist/connection.js',
    'extension/dist/libraries.js',
    'extension/dist/sandbox.js',
    'extension/dist/replay.js',
    'extension/dist/carry.js',
    'extension/schemas/mcp-calls.schema.json',
    'extension/media/webview.js',
    'extension/media/icon.png',
    'extension/readme.md',
    'extension/changelog.md',
    'extension/LICENSE.txt',
  ]) {
    assert.ok(files.includes(expected), `${expected} missing from ${files.join(', ')}`);
  }
  const unwanted = files.filter((f) =>
    /\.(ts|mts|map|tgz|vsix)$|node_modules\/|fixtures?\/|^extension\/(src|test|scripts|examples|bench|docs|cli|\.cache|\.artifacts)\//.test(f),
  );
  assert.deepEqual(unwanted, []);
});

test("the listing: icon, banner and preview in the manifest, no address the project does not serve, the walkthrough's pictures inside, every README picture resolving", () => {
  const vsix = builtVsix();
  const files = zipEntries(vsix);
  const manifest = JSON.parse(zipEntry(vsix, 'extension/package.json').toString('utf8')) as {
    icon: string;
    galleryBanner?: { color?: string; theme?: string };
    preview?: boolean;
    qna?: string;
    repository?: { url: string };
    bugs?: { url: string };
    homepage?: string;
    categories: string[];
    keywords: string[];
    contributes: { walkthroughs?: { steps: { id: string; media: { image?: string }; completionEvents?: string[] }[] }[] };
  };
  assert.ok(files.includes(`extension/${manifest.icon}`), `the icon ${manifest.icon} is in the package`);
  const icon = zipEntry(vsix, `extension/${manifest.icon}`);
  assert.deepEqual([icon.readUInt32BE(16), icon.readUInt32BE(20)], [128, 128], 'the icon is 128 × 128');
  assert.match(manifest.galleryBanner?.color ?? '', /^#[0-9a-f]{6}$/i);
  assert.ok(['dark', 'light'].includes(manifest.galleryBanner?.theme ?? ''));
  assert.equal(manifest.preview, true);
  // The publisher fills in the repository (scripts/package.mjs, MCP_HOST_REPOSITORY); without one the manifest
  // names no address at all rather than one nobody serves.
  const published = process.env.MCP_HOST_REPOSITORY;
  assert.equal(manifest.qna, undefined);
  assert.equal(manifest.repository?.url, published);
  if (!published) assert.deepEqual([manifest.bugs, manifest.homepage], [undefined, undefined]);
  assert.ok(manifest.categories.length > 0 && manifest.keywords.length > 0 && manifest.keywords.length <= 30);

  const steps = manifest.contributes.walkthroughs?.flatMap((w) => w.steps) ?? [];
  assert.equal(steps.length, 5);
  for (const step of steps) {
    assert.ok(
      step.media.image && files.includes(`extension/${step.media.image}`),
      `the picture of the step ${step.id} (${step.media.image}) is in the package`,
    );
    assert.ok(step.completionEvents?.length, `the step ${step.id} has a completion event`);
  }

  // With a repository vsce rewrites the README's relative pictures to it; without one they stay relative.
  // Either way each must be a file of this repository, small enough for the listing page.
  const readme = zipEntry(vsix, 'extension/readme.md').toString('utf8');
  const base = published ? `${published.replace(/\.git$/, '')}/raw/HEAD/` : '';
  const pictures = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)|<img[^>]+src="([^"]+)"/g)].map((m) => m[1] ?? m[2]);
  assert.ok(pictures.length >= 4, `the README shows the main flow and three more pictures (found ${pictures.length})`);
  for (const url of pictures) {
    assert.ok(url!.startsWith(base), `${url} points into the repository (${base})`);
    const path = url!.slice(base.length);
    assert.doesNotMatch(path, /\.svg$/i, 'the Marketplace refuses SVG pictures in a README');
    const local = join(root, decodeURIComponent(path));
    assert.ok(existsSync(local), `${path} exists`);
    assert.ok(statSync(local).size < 400 * 1024, `${path} is ${statSync(local).size} bytes, under 400 KB`);
  }
});

test('the packaged .vsix, installed into a fresh VS Code, runs describe_file on a workspace PNG', async () => {
  const vsix = builtVsix();
  await withWorkbench('vsix-installed', { vsix }, async (wb) => {
    // installed, not a development folder: the window is not an Extension Development Host
    assert.doesNotMatch(await wb.page.title(), /Extension Development Host/);
    await describePngFromWorkspace(wb);
  });
});
