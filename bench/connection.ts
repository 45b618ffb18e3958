// Connection benchmark, against a bare SDK client measured in the same run on the same kind of server, for a
// 2025-11-25 server and a 2026-07-28 one (the fixtures, bundled first so that tsx's compile time does not hide
// the host's own costs):
// 1. 500 sequential tools/call of a trivial tool: median round trip through ServerConnection vs through a bare
//    @modelcontextprotocol/client Client, each without and with elicitation declared (like against like: a
//    2026-07-28 request carries the client's capabilities) (goal: ratio <= 1.10). Each client has its own server
//    process and has listed the tools, as the host does on start. These are a connection's first calls, mostly
//    code V8 has not optimized yet, so each side runs in processes of its own: in one process, whichever side ran
//    first had V8 shape the shared SDK code to its objects, and the other paid for it (a 0.1-0.2 swing in the
//    ratio). How far V8 has got also differs from process to process, so each side is measured in CALL_RUNS
//    fresh processes, host and bare taking turns, and the medians are compared.
// 2. first start + tools/list: a new ServerConnection with an empty era cache (it probes the era as on a first
//    start) vs a bare client negotiating the era the same way (`versionNegotiation: auto`) then listing tools,
//    START_RUNS starts each, interleaved with the first side alternating, medians (goal: ratio <= 1.10).
//
//   npx tsx bench/connection.ts

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { build } from 'esbuild';
import { z } from 'zod';
import type { ResolvedStdioServer } from '../src/core/config/types';
import { Client, InMemoryEraCache, Logger, ServerConnection, StdioClientTransport } from './lib/shipped';
import { fixturePath, repoRoot } from '../test/fixtures/servers';
import { median, reportGoal } from './lib/goals';

const CALLS = 500;
const WARMUP = 50;
const BLOCK = 25;
const START_RUNS = Number(process.env.MCP_HOST_BENCH_STARTS ?? 12);
const CALL_RUNS = 7;
const CALLS_CHILD = '--calls-child';
/** One side's calls take a few seconds; a process that hangs fails the bench instead of holding it up. */
const CALLS_CHILD_TIMEOUT_MS = 120_000;
const GOAL = 1.1;

const ms = (x: number) => x.toFixed(x < 1 ? 3 : 1);
const quiet = () => new Logger(() => undefined, 'error');

async function bundledFixture(dir: string, fixture: string): Promise<ResolvedStdioServer> {
  const outfile = join(dir, fixture.replace(/\.ts$/, '.js'));
  await build({ entryPoints: [fixturePath(fixture)], outfile, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'silent' });
  return bundledServer(outfile);
}

function bundledServer(outfile: string): ResolvedStdioServer {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  return { name: basename(outfile), transport: 'stdio', command: process.execPath, args: [outfile], env, cwd: repoRoot };
}

function bareTransport(server: ResolvedStdioServer): StdioClientTransport {
  return new StdioClientTransport({ command: server.command, args: server.args, env: server.env, cwd: server.cwd, stderr: 'ignore' });
}

/**
 * The SDK probes the era of a server behind its own StdioClientTransport on a second, short-lived process (so a
 * server that exits on an unknown first request does not cost the real one); behind any other transport, a
 * subclass included, it probes in place on the one process, as the host's transport does. The like-for-like
 * baseline of a first start is therefore the bare client over this subclass.
 */
class InPlaceProbeTransport extends StdioClientTransport {}

function inPlaceTransport(server: ResolvedStdioServer): StdioClientTransport {
  return new InPlaceProbeTransport({ command: server.command, args: server.args, env: server.env, cwd: server.cwd, stderr: 'ignore' });
}

type Side = 'host' | 'bare';

/** Medians of one process's calls, without and with elicitation declared. */
interface CallMedians {
  times: [number, number];
  cpu: [number, number];
}

/** One side's calls, in this process (a child of the bench's): its two clients take turns in blocks. */
async function measureCalls(server: ResolvedStdioServer, side: Side): Promise<CallMedians> {
  let calls: Array<() => Promise<unknown>>;
  let close: () => Promise<unknown>;
  if (side === 'host') {
    const plain = new ServerConnection(server, { log: quiet() });
    await plain.start();
    // The extension always declares elicitation.
    const eliciting = new ServerConnection(server, { log: quiet(), elicitation: async () => ({ action: 'cancel' }) });
    await eliciting.start();
    calls = [() => plain.callTool('echo', { text: 'x' }), () => eliciting.callTool('echo', { text: 'x' })];
    close = () => Promise.all([plain.stop(), eliciting.stop()]);
  } else {
    const bare = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await bare.connect(bareTransport(server));
    const bareEliciting = new Client(
      { name: 'bench', version: '1' },
      { versionNegotiation: { mode: 'auto' }, capabilities: { elicitation: { form: {}, url: {} } } },
    );
    bareEliciting.setRequestHandler('elicitation/create', { params: z.looseObject({}) }, async () => ({ action: 'cancel' as const }));
    await bareEliciting.connect(bareTransport(server));
    // The host lists the tools on start, and the SDK then does per-call work for a tool it knows (its output
    // schema, its x-mcp-header declarations): the bare clients know them too.
    await Promise.all([bare.listTools(), bareEliciting.listTools()]);
    calls = [() => bare.callTool({ name: 'echo', arguments: { text: 'x' } }), () => bareEliciting.callTool({ name: 'echo', arguments: { text: 'x' } })];
    close = () => Promise.all([bare.close(), bareEliciting.close()]);
  }
  const clients = calls.map((call) => ({ call, times: [] as number[], cpu: [] as number[] }));
  for (let i = 0; i < WARMUP; i++) for (const c of clients) await c.call();
  for (let done = 0, turn = 0; done < CALLS; done += BLOCK, turn++) {
    for (let k = 0; k < clients.length; k++) {
      const c = clients[(k + turn) % clients.length]!;
      for (let i = 0; i < BLOCK; i++) {
        const cpu = process.cpuUsage();
        const s = performance.now();
        await c.call();
        c.times.push(performance.now() - s);
        const used = process.cpuUsage(cpu);
        c.cpu.push((used.user + used.system) / 1000);
      }
    }
  }
  await close();
  return {
    times: clients.map((c) => median(c.times)) as CallMedians['times'],
    cpu: clients.map((c) => median(c.cpu)) as CallMedians['cpu'],
  };
}

function measureCallsInChild(server: ResolvedStdioServer, side: Side): CallMedians {
  const r = spawnSync(process.execPath, [...process.execArgv, __filename, CALLS_CHILD, side, server.args[0]!], {
    encoding: 'utf8',
    maxBuffer: 1024 * 1024,
    timeout: CALLS_CHILD_TIMEOUT_MS,
  });
  if (r.status !== 0) throw new Error(`the calls' process failed (${r.error?.message ?? r.status ?? r.signal}): ${r.stderr.slice(-2000)}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as CallMedians;
}

function calls(server: ResolvedStdioServer, label: string): void {
  const runs: Record<Side, CallMedians[]> = { host: [], bare: [] };
  for (let i = 0; i < CALL_RUNS; i++) {
    for (const side of i % 2 ? (['bare', 'host'] as const) : (['host', 'bare'] as const)) runs[side].push(measureCallsInChild(server, side));
  }
  const { host, bare } = runs;
  const of = (side: CallMedians[], what: keyof CallMedians, k: 0 | 1) => median(side.map((r) => r[what][k]));
  const ratio = (what: keyof CallMedians, k: 0 | 1) => {
    const ratios = host.map((h, i) => h[what][k] / bare[i]![what][k]);
    return {
      value: of(host, what, k) / of(bare, what, k),
      detail:
        `medians ${ms(of(host, what, k))} vs ${ms(of(bare, what, k))} ms${what === 'cpu' ? ' of CPU' : ''} over ${CALLS} calls, in ` +
        `${CALL_RUNS} processes each (one process's ratio ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)})`,
    };
  };
  console.log(`connection: client CPU per call (${label}), elicitation declared: host ${ms(of(host, 'cpu', 1))} ms vs bare ${ms(of(bare, 'cpu', 1))} ms`);
  reportGoal({ name: `tools/call round trip, ${label}: host vs bare SDK client`, goal: GOAL, unit: 'x', ...ratio('times', 0) });
  reportGoal({ name: `tools/call round trip, ${label}, elicitation declared: host vs bare SDK client`, goal: GOAL, unit: 'x', ...ratio('times', 1) });
  // The wall clock of a sub-millisecond round trip is at the mercy of the scheduler on a loaded machine; the CPU the
  // client's process spends per call (the server excluded) is not.
  reportGoal({ name: `tools/call, ${label}: host vs bare SDK client in the client's CPU time`, goal: GOAL, unit: 'x', ...ratio('cpu', 0) });
}

async function hostStart(server: ResolvedStdioServer): Promise<number> {
  const connection = new ServerConnection(server, { log: quiet(), eraCache: new InMemoryEraCache() });
  const t0 = performance.now();
  await connection.start();
  const took = performance.now() - t0;
  if (connection.tools.length === 0) throw new Error(`${server.name}: the host listed no tools`);
  await connection.stop();
  return took;
}

async function bareStart(server: ResolvedStdioServer, transport: (s: ResolvedStdioServer) => StdioClientTransport): Promise<number> {
  const client = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  const t0 = performance.now();
  await client.connect(transport(server));
  const { tools } = await client.listTools();
  const took = performance.now() - t0;
  if (tools.length === 0) throw new Error(`${server.name}: the bare client listed no tools`);
  await client.close();
  return took;
}

async function starts(server: ResolvedStdioServer, label: string): Promise<void> {
  const host: number[] = [];
  const inPlace: number[] = [];
  const sibling: number[] = [];
  const sides: Array<[number[], () => Promise<number>]> = [
    [host, () => hostStart(server)],
    [inPlace, () => bareStart(server, inPlaceTransport)],
    [sibling, () => bareStart(server, bareTransport)],
  ];
  // One untimed start of each warms this process (modules, JIT) and the file cache.
  for (const [, start] of sides) await start();
  for (let i = 0; i < START_RUNS; i++) {
    for (let k = 0; k < sides.length; k++) {
      const [out, start] = sides[(i + k) % sides.length]!;
      out.push(await start());
    }
  }
  reportGoal({
    name: `first start + tools/list, ${label}: host (empty era cache) vs bare SDK client`,
    value: median(host) / median(inPlace),
    goal: GOAL,
    unit: 'x',
    detail:
      `medians ${ms(median(host))} vs ${ms(median(inPlace))} ms over ${START_RUNS} starts each, interleaved; both probe the era on the one process` +
      ` (the bare client over the SDK's own stdio transport, which probes on a second process: ${ms(median(sibling))} ms)`,
  });
}

async function main(): Promise<void> {
  console.log(`connection: machine load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`);
  const dir = mkdtempSync(join(tmpdir(), 'mcp-host-bench-connection-'));
  try {
    for (const [fixture, label] of [
      ['era2025-server.ts', 'stdio, 2025-11-25 server'],
      ['era2026-server.ts', 'stdio, 2026-07-28 server'],
    ] as const) {
      const server = await bundledFixture(dir, fixture);
      await starts(server, label);
      calls(server, label);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const child = process.argv.indexOf(CALLS_CHILD);
void (
  child === -1 ? main() : measureCalls(bundledServer(process.argv[child + 2]!), process.argv[child + 1] as Side).then((m) => console.log(JSON.stringify(m)))
).catch((e) => {
  console.error(e);
  process.exit(1);
});
