// The unit stage runs hundreds of fixture server processes. Under `node --import tsx` each one loads the
// TypeScript loader and compiles its sources again (about a second of wall time on a busy two-core machine);
// bundled once per run it starts in a fifth of that. `npm test` builds them here and names the folder in
// MCP_HOST_FIXTURE_BUNDLES; test/fixtures/servers.ts `fixtureArgv` uses a bundle only when that is set, so a
// test file run on its own always runs the fixture's current source.
import * as esbuild from 'esbuild';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The folder the bundles go to: two levels below the root, like test/fixtures, so `join(__dirname, '..', '..')` is the root in both. */
export const fixtureBundlesDir = join(root, '.cache', 'fixture-bundles');

export async function buildFixtureBundles() {
  const fixtures = join(root, 'test', 'fixtures');
  const entryPoints = readdirSync(fixtures)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => join(fixtures, f));
  await esbuild.build({
    entryPoints,
    outdir: fixtureBundlesDir,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    // the packages load from node_modules as they do under tsx; only the project's TypeScript is bundled
    packages: 'external',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  return fixtureBundlesDir;
}
