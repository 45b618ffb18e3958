// `npm run bench`: builds, then runs every bench/*.ts (top level only; subfolders hold helpers)
// one after the other, so their timings do not disturb each other. `npm run bench -- vscode` runs
// only the benchmarks whose file name contains one of the given words.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const words = process.argv.slice(2);
const benches = readdirSync(join(root, 'bench'))
  .filter((f) => f.endsWith('.ts') && (words.length === 0 || words.some((w) => f.includes(w))))
  .sort();

const { ensurePrerequisites } = await import('./prerequisites.mjs');
await ensurePrerequisites({ workbench: benches.some((f) => f.startsWith('vscode')) });

let failed = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' }).status !== 0;
for (const file of benches) {
  console.log(`\n=== bench/${file} ===`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', join('bench', file)], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
