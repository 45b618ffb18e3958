// Sandbox benchmark: the same server (the sandbox fixture, bundled so that tsx's compile time does not hide the
// sandbox's costs) started by the host sandboxed and unsandboxed, in the same run:
// 1. start + tools/list: START_RUNS starts each, interleaved, medians (goal: ratio <= 1.5). A sandboxed start asks
//    the sandbox service (dist/sandbox.js, as shipped) for the wrapped command and runs it: bubblewrap, the proxy
//    bridge in the sandbox, seccomp. The first sandboxed start also starts the service (Node, the runtime, its
//    proxy): reported on its own, as it is paid once per host and network policy.
// 2. tools/call of a trivial tool: CALLS sequential calls each, in interleaved blocks, medians (goal: ratio <= 1.10).
//    The server's stdin and stdout are its own pipes in the sandbox too, so a call crosses nothing more.
//
//   npm run build && npx tsx bench/sandbox.ts

import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { build } from 'esbuild';
import type { ResolvedStdioServer } from '../src/core/config/types';
import { sandboxPolicy } from '../src/core/sandbox/policy';
import { Logger, ServerConnection } from './lib/shipped';
import { fixturePath, repoRoot } from '../test/fixtures/servers';
import { median, reportGoal } from './lib/goals';

const START_RUNS = Number(process.env.MCP_HOST_BENCH_STARTS ?? 10);
const CALLS = 300;
const WARMUP = 30;
const BLOCK = 25;

const ms = (x: number) => x.toFixed(x < 1 ? 3 : 1);
const quiet = () => new Logger(() => undefined, 'error');

/** The shipped host finds the sandbox service next to itself, as the extension finds dist/sandbox.js. */
function placeLauncher(): void {
  const dist = join(repoRoot, 'dist');
  if (!existsSync(join(dist, 'sandbox.js'))) throw new Error('dist/sandbox.js is missing: run `npm run build` first');
  const shippedDir = dirname(process.env.MCP_HOST_BENCH_SHIPPED!);
  cpSync(join(dist, 'sandbox.js'), join(shippedDir, 'sandbox.js'));
  cpSync(join(dist, 'vendor'), join(shippedDir, 'vendor'), { recursive: true });
}

async function servers(dir: string): Promise<{ plain: ResolvedStdioServer; sandboxed: ResolvedStdioServer }> {
  const outfile = join(dir, 'sandbox-server.js');
  await build({
    entryPoints: [fixturePath('sandbox-server.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'silent',
  });
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  const plain: ResolvedStdioServer = { name: 'plain', transport: 'stdio', command: process.execPath, args: [outfile], env, cwd: dir };
  return { plain, sandboxed: { ...plain, name: 'sandboxed', sandbox: sandboxPolicy(undefined, { command: process.execPath, cwd: dir }) } };
}

async function start(server: ResolvedStdioServer): Promise<number> {
  const connection = new ServerConnection(server, { log: quiet() });
  const t0 = performance.now();
  await connection.start();
  const took = performance.now() - t0;
  if (connection.tools.length === 0) throw new Error(`${server.name}: no tools listed`);
  await connection.stop();
  return took;
}

async function starts(plain: ResolvedStdioServer, sandboxed: ResolvedStdioServer): Promise<void> {
  const times = { plain: [] as number[], sandboxed: [] as number[] };
  await start(plain);
  const first = await start(sandboxed);
  for (let i = 0; i < START_RUNS; i++) {
    const order = i % 2 ? (['sandboxed', 'plain'] as const) : (['plain', 'sandboxed'] as const);
    for (const side of order) times[side].push(await start(side === 'plain' ? plain : sandboxed));
  }
  reportGoal({
    name: 'start + tools/list: sandboxed vs unsandboxed',
    value: median(times.sandboxed) / median(times.plain),
    goal: 1.5,
    unit: 'x',
    detail:
      `medians ${ms(median(times.sandboxed))} vs ${ms(median(times.plain))} ms over ${START_RUNS} starts each, interleaved; ` +
      `the first sandboxed start, which starts the sandbox service, took ${ms(first)} ms`,
  });
}

async function calls(plain: ResolvedStdioServer, sandboxed: ResolvedStdioServer): Promise<void> {
  const sides = [new ServerConnection(plain, { log: quiet() }), new ServerConnection(sandboxed, { log: quiet() })];
  await Promise.all(sides.map((c) => c.start()));
  const times: number[][] = [[], []];
  for (let i = 0; i < WARMUP; i++) for (const c of sides) await c.callTool('echo', { text: 'x' });
  for (let done = 0, turn = 0; done < CALLS; done += BLOCK, turn++) {
    for (let k = 0; k < 2; k++) {
      const side = (k + turn) % 2;
      for (let i = 0; i < BLOCK; i++) {
        const s = performance.now();
        await sides[side]!.callTool('echo', { text: 'x' });
        times[side]!.push(performance.now() - s);
      }
    }
  }
  await Promise.all(sides.map((c) => c.stop()));
  const [p, s] = [median(times[0]!), median(times[1]!)];
  reportGoal({
    name: 'tools/call round trip: sandboxed vs unsandboxed',
    value: s / p,
    goal: 1.1,
    unit: 'x',
    detail: `medians ${ms(s)} vs ${ms(p)} ms over ${CALLS} calls each`,
  });
}

async function main(): Promise<void> {
  console.log(`sandbox: machine load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`);
  placeLauncher();
  const dir = mkdtempSync(join(tmpdir(), 'mcp-host-bench-sandbox-'));
  try {
    const { plain, sandboxed } = await servers(dir);
    await starts(plain, sandboxed);
    await calls(plain, sandboxed);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((e) => {
  console.error(e);
  process.exit(1);
});
