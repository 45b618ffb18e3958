import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/tempDirs';

const root = join(__dirname, '../..');
const script = join(root, 'scripts/prerequisites.mjs');
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

test(
  'with a system package missing and no way to install it, set-up stops at once and names the command to run',
  { skip: !isRoot && 'needs root to run as a user without sudo' },
  () => {
    // `nobody` has no passwordless sudo: the script may only tell, never half-install. It runs a copy of the script
    // (Node's built-ins are all it imports) from a folder `nobody` can read: a checkout under a private folder
    // (mktemp -d makes them 0700) is out of its reach.
    const dir = tempDir('mcp-prereq-nobody-');
    mkdirSync(join(dir, 'scripts'));
    copyFileSync(script, join(dir, 'scripts/prerequisites.mjs'));
    chmodSync(dir, 0o755);
    chmodSync(join(dir, 'scripts'), 0o755);
    chmodSync(join(dir, 'scripts/prerequisites.mjs'), 0o644);
    const r = spawnSync('runuser', ['-u', 'nobody', '--', process.execPath, join(dir, 'scripts/prerequisites.mjs'), '--system-only'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, CHROMIUM_PATH: '/nonexistent/chromium', HOME: '/tmp' },
      timeout: 30_000,
    });
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stderr, /Missing system packages: chromium\./);
    assert.match(r.stderr, /sudo sh -c 'apt-get update && apt-get install -y --no-install-recommends chromium'/);
    assert.doesNotMatch(r.stdout, /installing system packages/);
  },
);

test('with every system package present, the check passes without installing anything', () => {
  const r = spawnSync(process.execPath, [script, '--system-only'], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stdout, /installing/);
  assert.match(r.stdout, /\[prerequisites\] ready/);
});

test('npm dependencies count as installed by their versions, not by the dates a checkout gives the files', async () => {
  const { pathToFileURL } = await import('node:url');
  const { packagesOutOfDate } = (await import(pathToFileURL(script).href)) as { packagesOutOfDate(dir: string): string[] };
  const dir = tempDir('mcp-prereq-');
  const installed = (name: string, version: string) => {
    mkdirSync(join(dir, 'node_modules', name), { recursive: true });
    writeFileSync(join(dir, 'node_modules', name, 'package.json'), JSON.stringify({ name, version }));
  };
  writeFileSync(
    join(dir, 'package-lock.json'),
    JSON.stringify({
      packages: {
        '': { name: 'x' },
        'node_modules/a': { version: '1.0.0' },
        'node_modules/b': { version: '2.0.0' },
        'node_modules/@esbuild/darwin-arm64': { version: '0.1.0', optional: true },
      },
    }),
  );
  installed('a', '1.0.0');
  installed('b', '2.0.0');
  // A checkout made the lock newer than everything installed: nothing to do.
  const later = new Date(Date.now() + 60_000);
  utimesSync(join(dir, 'package-lock.json'), later, later);
  assert.deepEqual(packagesOutOfDate(dir), []);
  installed('b', '1.9.0');
  assert.deepEqual(packagesOutOfDate(dir), ['b']);
});
