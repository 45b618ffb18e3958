// `npm run bench`: builds, then runs every bench/*.ts (top level only; subfolders hold helpers)
// one after the other, so their timings do not disturb each other, and ends with one table of every goal
// (each bench reports its goals through bench/lib/goals.ts). `npm run bench -- vscode` runs only the
// benchmarks whose file name contains one of the given words. Exits non-zero when a bench failed or a goal
// was not met.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Must match GOAL_LINE_PREFIX in bench/lib/goals.ts. */
const GOAL_LINE_PREFIX = '##bench-goal ';
const words = process.argv.slice(2);
const benches = readdirSync(join(root, 'bench'))
  .filter((f) => f.endsWith('.ts') && (words.length === 0 || words.some((w) => f.includes(w))))
  .sort();

const { ensurePrerequisites } = await import('./prerequisites.mjs');
await ensurePrerequisites({ workbench: benches.some((f) => f.startsWith('vscode')) });

/** Runs one bench, passing its output through except the goal lines, which it returns parsed. */
function runBench(file) {
  return new Promise((resolve) => {
    const goals = [];
    const child = spawn(process.execPath, ['--import', 'tsx', join('bench', file)], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let pending = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text) => {
      const lines = (pending + text).split('\n');
      pending = lines.pop();
      for (const line of lines) {
        if (line.startsWith(GOAL_LINE_PREFIX)) goals.push(JSON.parse(line.slice(GOAL_LINE_PREFIX.length)));
        else process.stdout.write(`${line}\n`);
      }
    });
    child.on('close', (code) => {
      if (pending) process.stdout.write(`${pending}\n`);
      resolve({ ok: code === 0, goals });
    });
  });
}

const format = (value, unit) => (unit === 'x' ? `${value.toFixed(2)}x` : `${value.toFixed(value < 10 ? 1 : 0)} ${unit}`);

const startLoad = loadavg()[0];
let failed = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' }).status !== 0;
const rows = [];
const crashed = [];
for (const file of benches) {
  console.log(`\n=== bench/${file} ===`);
  const { ok, goals } = await runBench(file);
  if (!ok) {
    failed = true;
    crashed.push(file);
  }
  for (const g of goals) rows.push({ bench: file.replace(/\.ts$/, ''), ...g, met: g.strict ? g.value < g.goal : g.value <= g.goal });
}

console.log(
  `\n=== every goal of this run (ratios against a baseline measured in the same run; load average ${startLoad.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end, on ${cpus().length} cores) ===`,
);
const table = rows.map((r) => [r.bench, r.name, format(r.value, r.unit), `${r.strict ? '<' : '<='} ${format(r.goal, r.unit)}`, r.met ? 'pass' : 'FAIL']);
const header = ['bench', 'measure', 'measured', 'goal', 'result'];
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
const line = (cells) =>
  cells
    .map((c, i) => (i === 2 ? c.padStart(widths[i]) : c.padEnd(widths[i])))
    .join('  ')
    .trimEnd();
console.log(line(header));
console.log(line(widths.map((w) => '-'.repeat(w))));
for (const row of table) console.log(line(row));
const over = rows.filter((r) => !r.met).length;
console.log(`${rows.length - over} of ${rows.length} goals met${crashed.length ? `; failed to run: ${crashed.join(', ')}` : ''}`);
process.exit(failed || over > 0 ? 1 : 0);
