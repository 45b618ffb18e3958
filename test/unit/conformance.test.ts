// The official MCP conformance client suites, run through the CLI (test/conformance/adapter.mjs maps each
// scenario's context onto documented options): the current pre-release (0.2.0-alpha.12) and the stable
// release (0.1.16). Every client scenario must pass in both. The suites need Node 22+; Node 24 from
// .cache/tools is used when this Node is older.
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { repoRoot } from '../fixtures/servers';

const run = promisify(execFile);
const suites = [
  { name: 'pre-release 0.2.0-alpha.12', entry: join(repoRoot, 'node_modules/@modelcontextprotocol/conformance/dist/index.js') },
  { name: 'stable 0.1.16', entry: join(repoRoot, 'node_modules/conformance-stable/dist/index.js') },
];
const adapter = join(repoRoot, 'test/conformance/adapter.mjs');
const cli = join(repoRoot, 'dist/cli.js');
/** Scenarios run at once per suite: each runs its servers and a CLI; more would only slow down every one. */
const CONCURRENCY = 3;

async function suiteNode(): Promise<string> {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const toolsModule = '../../scripts/vscode-tools.mjs';
  const tools = (await import(toolsModule)) as { node24: string; ensureTools(): void };
  if (!existsSync(tools.node24)) tools.ensureTools();
  return tools.node24;
}

async function clientScenarios(node: string, entry: string): Promise<string[]> {
  const { stdout } = await run(node, [entry, 'list', '--client'], { cwd: repoRoot });
  return [...stdout.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]!);
}

const work = mkdtempSync(join(tmpdir(), 'mcp-host-conformance-'));
after(() => rmSync(work, { recursive: true, force: true }));

for (const suite of suites) {
  describe(`conformance client suite, ${suite.name}`, { concurrency: CONCURRENCY }, async () => {
    assert.ok(existsSync(cli), 'dist/cli.js is missing: run `npm run build` first');
    const node = await suiteNode();
    const scenarios = await clientScenarios(node, suite.entry);
    test('lists its client scenarios', () => assert.ok(scenarios.length >= 26, `only ${scenarios.length} scenarios: ${scenarios.join(', ')}`));
    for (const scenario of scenarios) {
      test(scenario, async () => {
        const result = await run(
          node,
          [suite.entry, 'client', '--command', `"${process.execPath}" "${adapter}"`, '--scenario', scenario, '--timeout', '90000'],
          {
            cwd: work,
            maxBuffer: 16 * 1024 * 1024,
            timeout: 150_000,
          },
        ).catch((e: { stdout?: string; stderr?: string }) => ({ stdout: e.stdout ?? '', stderr: e.stderr ?? '' }));
        const output = `${result.stdout}\n${result.stderr}`;
        const failures = output.split('\n').filter((l) => /FAILURE|WARNING/.test(l) && !/\b0 failed\b/.test(l));
        assert.match(output, /OVERALL: PASSED/, `${scenario} did not pass:\n${failures.join('\n')}\n${output.slice(-3000)}`);
      });
    }
  });
}
