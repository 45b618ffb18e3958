import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '../..');
const script = join(root, 'scripts/prerequisites.mjs');
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

test('with a system package missing and no way to install it, set-up stops at once and names the command to run', { skip: !isRoot && 'needs root to run as a user without sudo' }, () => {
  // `nobody` has no passwordless sudo: the script may only tell, never half-install.
  const r = spawnSync('runuser', ['-u', 'nobody', '--', process.execPath, script, '--system-only'], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, CHROMIUM_PATH: '/nonexistent/chromium', HOME: '/tmp' },
    timeout: 30_000,
  });
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stderr, /Missing system packages: chromium\./);
  assert.match(r.stderr, /sudo sh -c 'apt-get update && apt-get install -y --no-install-recommends chromium'/);
  assert.doesNotMatch(r.stdout, /installing system packages/);
});

test('with every system package present, the check passes without installing anything', () => {
  const r = spawnSync(process.execPath, [script, '--system-only'], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stdout, /installing/);
  assert.match(r.stdout, /\[prerequisites\] ready/);
});
