// `npm test`: builds, then runs every stage in order:
//   unit         node:test in plain Node (test/unit, real servers)
//   integration  mocha inside a real VS Code extension host (code-server, test/integration)
//   e2e          Playwright in the real workbench (test/e2e/*.e2e.mts), screenshots in .artifacts/e2e
//   vsix         packages the extension and runs the first scenario against the installed .vsix
// `npm test -- unit e2e` runs only the named stages; `--grep <text>` filters integration and e2e tests.
// The summary at the end gives each stage's time and, for a failed stage, the tests that failed.
// The unit and integration stages run side by side: the unit stage leaves about a third of two cores idle while its
// tests wait on their servers, and the integration stage (one extension host running its suite) fits in it. With the
// e2e stage, the vsix stage's package is built beside them too, and its scenarios run among the e2e stage's.
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const allStages = ['unit', 'integration', 'e2e', 'vsix'];
const argv = process.argv.slice(2);
const grepAt = argv.indexOf('--grep');
const grep = grepAt >= 0 ? argv[grepAt + 1] : undefined;
const named = argv.filter((a, i) => allStages.includes(a) && (grepAt < 0 || i !== grepAt + 1));
const stages = named.length ? named : allStages;
const vsixForTests = join(root, '.cache/mcp-host-test.vsix');

function testFiles(dir, suffix) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...testFiles(p, suffix));
    else if (name.endsWith(suffix)) out.push(relative(root, p));
  }
  return out.sort();
}

/**
 * What a stage's output says failed, for the summary: a CI log is read from its end, where one stage's failures
 * would otherwise be buried under the output of the stages after it.
 */
class FailureLines {
  lines = [];
  #partial = '';
  #mochaFailing = 0;
  #afterNotOk = 0;
  #errorLines = 0;

  /** Scans a chunk of output (lines may be split between chunks). */
  scan(chunk) {
    const text = this.#partial + chunk.toString('utf8');
    const lines = text.split('\n');
    this.#partial = lines.pop() ?? '';
    for (const line of lines) this.#line(line);
  }

  #line(line) {
    if (this.lines.length >= 200) return;
    // node:test (TAP): a failed test, then the first lines of its error
    if (/^\s*not ok \d+ - /.test(line)) {
      this.lines.push(line.trimEnd());
      this.#afterNotOk = 16;
      this.#errorLines = 0;
      return;
    }
    if (this.#afterNotOk > 0) {
      this.#afterNotOk--;
      if (/^\s*\.\.\.\s*$/.test(line)) this.#afterNotOk = 0;
      else if (this.#errorLines > 0) {
        this.#errorLines--;
        if (line.trim()) this.lines.push(`      ${line.trim().slice(0, 300)}`);
      } else if (/^\s*(error|expected|actual):/.test(line)) {
        this.lines.push(`    ${line.trim().slice(0, 300)}`);
        // a message of several lines follows `error: |-`
        if (/\|-?\s*$/.test(line)) this.#errorLines = 3;
      }
      return;
    }
    // the integration runner's own verdicts (the extension host's unhandled rejections among them)
    if (/^integration: (the tests passed, but|no exit code)|\d+ integration test\(s\) failed/.test(line)) this.lines.push(line.trimEnd().slice(0, 300));
    // mocha (spec reporter): the "N failing" section
    if (/^\s*\d+ failing\s*$/.test(line)) this.#mochaFailing = 60;
    if (this.#mochaFailing > 0) {
      this.#mochaFailing--;
      if (line.trim()) this.lines.push(line.trimEnd().slice(0, 300));
    }
  }
}

/**
 * Runs a command to its end and resolves with its exit code. Its output goes to this terminal as it comes, or, with
 * `held`, into that array (to be printed in one piece once a stage running beside it has printed its own); what it
 * says failed goes into `failures`.
 */
function run(cmd, args, env = {}, held = undefined, failures = new FailureLines()) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    const take = (into) => (d) => {
      failures.scan(d);
      if (held) held.push(d);
      else into.write(d);
    };
    child.stdout.on('data', take(process.stdout));
    child.stderr.on('data', take(process.stderr));
    child.on('error', (e) => {
      console.error(`${cmd}: ${e.message}`);
      resolve(1);
    });
    child.on('close', (code) => resolve(code ?? 1));
  });
}

// a scenario that hangs fails after this long instead of holding up the run
const E2E_TEST_TIMEOUT_MS = 4 * 60_000;
// the same for a unit test file or test (Node bounds each file by it too; the longest file takes a few minutes on two
// busy cores)
const UNIT_TEST_TIMEOUT_MS = 10 * 60_000;
// scenario files run at once (each with its own code-server, extension host and Chromium)
const E2E_CONCURRENCY = Number(process.env.MCP_HOST_E2E_CONCURRENCY ?? 2);
const grepArgs = grep ? ['--test-name-pattern', grep] : [];
const stageRunners = {
  // Three files at a time on two cores: much of a file's time is spent waiting on its servers (starts, sign-in bounds,
  // simulated work), which a third file fills.
  unit: (held, failures) =>
    run(
      process.execPath,
      ['--import', 'tsx', '--test', '--test-concurrency=3', `--test-timeout=${UNIT_TEST_TIMEOUT_MS}`, ...testFiles(join(root, 'test/unit'), '.test.ts')],
      {
        MCP_HOST_FIXTURE_BUNDLES: fixtureBundles,
      },
      held,
      failures,
    ),
  integration: (held, failures) =>
    run(process.execPath, ['test/integration/run.mjs', ...(grep ? ['--grep', grep] : [])], { MCP_HOST_FIXTURE_BUNDLES: fixtureBundles }, held, failures),
  // with the vsix stage's package built (`vsixPackaged`), its scenarios run among these
  e2e: (held, failures) =>
    run(
      process.execPath,
      [
        '--import',
        'tsx',
        '--test',
        `--test-concurrency=${E2E_CONCURRENCY}`,
        `--test-timeout=${E2E_TEST_TIMEOUT_MS}`,
        '--test-force-exit',
        ...grepArgs,
        ...testFiles(join(root, 'test/e2e'), '.e2e.mts').filter((f) => vsixPackaged || !f.endsWith(VSIX_SCENARIOS)),
      ],
      vsixPackaged ? { MCP_HOST_TEST_VSIX: vsixForTests } : {},
      held,
      failures,
    ),
  vsix: async (held, failures) => {
    const packaged = await packageVsix(held, failures);
    if (packaged !== 0 || stages.includes('e2e')) return packaged;
    return run(
      process.execPath,
      ['--import', 'tsx', '--test', `--test-timeout=${E2E_TEST_TIMEOUT_MS}`, '--test-force-exit', VSIX_SCENARIOS],
      { MCP_HOST_TEST_VSIX: vsixForTests },
      held,
      failures,
    );
  },
};

const VSIX_SCENARIOS = 'test/e2e/vsix.e2e.mts';
/** Whether the vsix stage's package is built, for the e2e stage to run its scenarios. */
let vsixPackaged = false;

/** The package as users get it: a production build, then vsce (in a staging folder). */
async function packageVsix(held, failures) {
  const code = await run(process.execPath, ['scripts/package.mjs', '--out', vsixForTests], {}, held, failures);
  vsixPackaged = code === 0 && stages.includes('e2e');
  return code;
}

// Dependencies, system packages and the VS Code test tools, once, before any stage: a missing one stops
// here with the command that installs it, instead of failing in every scenario.
const { ensurePrerequisites } = await import('./prerequisites.mjs');
await ensurePrerequisites({ workbench: stages.some((s) => s !== 'unit') });

const results = [];
const build = await run(process.execPath, ['scripts/build.mjs']);
if (build !== 0) {
  console.error('build failed');
  process.exit(1);
}
// Once for both stages that start the fixture servers from these bundles.
const { buildFixtureBundles } = await import('./fixture-bundles.mjs');
const fixtureBundles = stages.includes('unit') || stages.includes('integration') ? await buildFixtureBundles() : undefined;
/** Runs a stage, printing its output as it comes, or holding it in `held`; records its result. */
async function runStage(stage, held) {
  const started = Date.now();
  if (!held) console.log(`\n=== ${stage} ===`);
  const failures = new FailureLines();
  const code = await stageRunners[stage](held, failures);
  return { stage, code, seconds: (Date.now() - started) / 1000, failures: failures.lines };
}

// What runs beside the unit stage (output held, printed after it): the integration stage, and the vsix stage when
// the e2e stage is to run its scenarios. Without a unit stage they run in order as usual, the vsix stage before e2e.
const besideUnit = stages.includes('unit') ? stages.filter((s) => s === 'integration' || (s === 'vsix' && stages.includes('e2e'))) : [];
const order = stages.includes('e2e') && stages.includes('vsix') ? [...stages.filter((s) => s !== 'vsix' && s !== 'e2e'), 'vsix', 'e2e'] : stages;
for (const stage of order) {
  if (besideUnit.includes(stage)) continue;
  if (stage === 'unit' && besideUnit.length) {
    const beside = besideUnit.map((name) => {
      const held = [];
      return { name, held, result: runStage(name, held) };
    });
    results.push(await runStage('unit'));
    for (const { name, held, result } of beside) {
      console.log(`\n=== ${name} (ran beside unit) ===`);
      const done = await result;
      process.stdout.write(Buffer.concat(held));
      results.push(done);
    }
    continue;
  }
  results.push(await runStage(stage));
}
console.log('\n=== summary ===');
for (const r of results) console.log(`${r.code === 0 ? 'pass' : 'FAIL'}  ${r.stage.padEnd(12)} ${r.seconds.toFixed(1)} s`);
for (const r of results.filter((r) => r.code !== 0)) {
  console.log(`\n=== what failed in ${r.stage} ===`);
  console.log(r.failures.length ? r.failures.join('\n') : `(no failed test named: exit code ${r.code}; see the stage's output above)`);
}
process.exit(results.some((r) => r.code !== 0) ? 1 : 0);
