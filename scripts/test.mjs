// `npm test`: unit and core tests (node:test, real servers), then the real-VS-Code suites.
// `npm test -- unit` runs only the first group.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const only = process.argv[2];

function testFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...testFiles(p));
    else if (name.endsWith('.test.ts')) out.push(relative(root, p));
  }
  return out.sort();
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  return r.status ?? 1;
}

let failed = 0;
failed |= run(process.execPath, ['scripts/build.mjs']);
if (!only || only === 'unit') {
  failed |= run(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...testFiles(join(root, 'test/unit'))]);
}
process.exit(failed ? 1 : 0);
