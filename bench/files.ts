// File-input benchmark, each number against a baseline measured in the same run:
// 1. encoding 1, 7 and 50 MiB files through the engine (checkFile + readCheckedFile) vs
//    fs.readFile + Buffer.toString('base64'): time ratio (goal <= 1.10) and peak RSS growth as a
//    multiple of the file size (goal <= 3.0), each measured in a fresh child process;
// 2. a 7 MiB file end to end through tools/call on stdio: engine + ServerConnection (and, to separate
//    the engine from the connection layer, engine + bare SDK client) vs a bare SDK client sending a
//    precomputed data URI (goal <= 1.05). The bare clients negotiate the era as the host does (`auto`: both
//    speak 2026-07-28 to the fixture); the CPU time of the client process and of the server process per call
//    is reported too, since under load it tells the sides apart better than the wall clock.
//
//   npx tsx bench/files.ts

import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cpus, loadavg, tmpdir } from 'node:os';
import { performance } from 'node:perf_hooks';
import { build } from 'esbuild';
import type { FileSlot } from '../src/core/files';
import { checkFile, Client, inlineLimitsFor, Logger, readCheckedFile, ServerConnection, StdioClientTransport } from './lib/shipped';
import { median, reportGoal } from './lib/goals';

const MiB = 1024 * 1024;
const SIZES = [1, 7, 50];
const ENCODE_GOAL = 1.1;
const RSS_GOAL = 3.0;
const CALL_GOAL = 1.05;

const slot: FileSlot = { path: ['blob'], label: 'blob', multiple: false, origin: 'x-mcp-file', required: true };
// The 50 MiB case is over the stdio ceiling on purpose: raise it so the engine encodes it.
const limits = inlineLimitsFor('stdio', { stdioMaxBytes: 64 * MiB });

async function encodeWithEngine(path: string): Promise<string> {
  const check = await checkFile(path, slot, limits);
  if (!check.ok) throw new Error(check.reason);
  return readCheckedFile(check.file, slot, limits);
}

async function encodeBaseline(path: string): Promise<string> {
  const bytes = await readFile(path);
  return 'data:application/octet-stream;base64,' + bytes.toString('base64');
}

/** Ratio of medians; the sides run interleaved so both see the same machine load. */
function ratioOfMedians(engine: number[], baseline: number[]): number {
  return median(engine) / median(baseline);
}

/**
 * Child: time encoding (readCheckedFile: one read, one base64 pass) against the baseline, interleaved,
 * on one file. The check (stat + a 4 KiB sniff) happens once per pick, before the user confirms; it is
 * timed on its own and also reported together with the encode.
 */
async function timeChild(path: string, sizeMiB: number): Promise<void> {
  const runs = sizeMiB <= 1 ? 400 : sizeMiB <= 7 ? 30 : 16;
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
  const check = await checkFile(path, slot, limits);
  if (!check.ok) throw new Error(check.reason);
  const encode = () => readCheckedFile(check.file, slot, limits);
  const sides: Record<'encode' | 'baseline' | 'checkAndEncode', [() => Promise<string>, number[]]> = {
    encode: [encode, []],
    baseline: [() => encodeBaseline(path), []],
    checkAndEncode: [() => encodeWithEngine(path), []],
  };
  const order = Object.values(sides);
  let keep = 0;
  for (let i = 0; i < runs + 2; i++) {
    for (let k = 0; k < order.length; k++) {
      const [fn, out] = order[(i + k) % order.length]!;
      // Collect first so no side pays for another's garbage.
      gc();
      const t0 = performance.now();
      const uri = await fn();
      const dt = performance.now() - t0;
      keep += uri.length;
      if (i >= 2) out.push(dt);
    }
  }
  const [, encodeTimes] = sides.encode;
  const [, baselineTimes] = sides.baseline;
  const [, bothTimes] = sides.checkAndEncode;
  process.stdout.write(
    JSON.stringify({
      engine: median(encodeTimes),
      baseline: median(baselineTimes),
      both: median(bothTimes),
      ratio: ratioOfMedians(encodeTimes, baselineTimes),
      bestRatio: Math.min(...encodeTimes) / Math.min(...baselineTimes),
      bothRatio: ratioOfMedians(bothTimes, baselineTimes),
      runs,
      keep,
    }),
  );
}

/** Child: peak RSS growth of one encode, as bytes over the file size. */
async function rssChild(path: string, method: 'engine' | 'baseline'): Promise<void> {
  const small = join(tmpdir(), `mcp-host-bench-warm-${process.pid}.bin`);
  const fd = openSync(small, 'w');
  writeSync(fd, randomBytes(4096));
  closeSync(fd);
  await encodeWithEngine(small);
  await encodeBaseline(small);
  rmSync(small);
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 1);
  const uri = await (method === 'engine' ? encodeWithEngine(path) : encodeBaseline(path));
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  process.stdout.write(JSON.stringify({ growth: peak - before, length: uri.length }));
}

function child<T>(args: string[]): T {
  const r = spawnSync(process.execPath, [...process.execArgv, '--expose-gc', __filename, ...args], { encoding: 'utf8', maxBuffer: 1024 * 1024 });
  if (r.status !== 0) throw new Error(`bench child ${args.join(' ')} failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

function makeFile(dir: string, sizeMiB: number): string {
  const path = join(dir, `bench-${sizeMiB}MiB.bin`);
  const fd = openSync(path, 'w');
  for (let i = 0; i < sizeMiB; i++) writeSync(fd, randomBytes(MiB));
  closeSync(fd);
  return path;
}

/** CPU milliseconds a process has used so far (Linux /proc; undefined elsewhere). */
function processCpuMs(pid: number | null | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, in clock ticks of 10 ms
  } catch {
    return undefined;
  }
}

interface Side {
  call: () => Promise<unknown>;
  serverPid: () => number | null | undefined;
  wall: number[];
  clientCpu: number[];
  serverCpu: number[];
}

async function endToEnd(dir: string, path: string): Promise<void> {
  const serverJs = join(dir, 'file-server.js');
  await build({
    entryPoints: [join(__dirname, '../test/fixtures/file-server.ts')],
    outfile: serverJs,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'silent',
  });

  // Two bare clients, each with its own server process like the host, negotiating the era as the host does.
  const bareClient = async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [serverJs] });
    const client = new Client({ name: 'bench-bare', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(transport);
    return { client, transport };
  };
  const bare = await bareClient();
  const bareEngine = await bareClient();
  const precomputed = 'data:application/octet-stream;base64,' + readFileSync(path).toString('base64');

  const connection = new ServerConnection(
    { name: 'bench', transport: 'stdio', command: process.execPath, args: [serverJs], env: process.env as Record<string, string> },
    { log: new Logger(() => undefined, 'error') },
  );
  await connection.start();
  const era = connection.state.kind === 'running' ? connection.state.era : undefined;
  if (bare.client.getProtocolEra() !== era) throw new Error(`the bare client speaks the ${bare.client.getProtocolEra()} era, the host the ${era} era`);
  const connectionPid = () => (connection as unknown as { attempt?: { transport: { pid?: number | null } } }).attempt?.transport.pid;
  const side = (call: () => Promise<unknown>, serverPid: () => number | null | undefined): Side => ({
    call,
    serverPid,
    wall: [],
    clientCpu: [],
    serverCpu: [],
  });
  // Three sides in rotating order: the product path, the engine alone on the bare client, the baseline.
  const product = side(async () => connection.callTool('large_upload', { blob: await encodeWithEngine(path) }), connectionPid);
  const engineOnly = side(
    async () => bareEngine.client.callTool({ name: 'large_upload', arguments: { blob: await encodeWithEngine(path) } }),
    () => bareEngine.transport.pid,
  );
  const baseline = side(
    () => bare.client.callTool({ name: 'large_upload', arguments: { blob: precomputed } }),
    () => bare.transport.pid,
  );
  const sides = [product, engineOnly, baseline];
  const runs = 20;
  for (let i = 0; i < runs + 2; i++) {
    for (let k = 0; k < sides.length; k++) {
      const s = sides[(i + k) % sides.length]!;
      const server0 = processCpuMs(s.serverPid());
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const result = (await s.call()) as { isError?: boolean; content?: Array<{ text?: string }> };
      const wall = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      const server1 = processCpuMs(s.serverPid());
      if (result.isError) throw new Error(`server refused: ${result.content?.[0]?.text}`);
      if (i >= 2) {
        s.wall.push(wall);
        s.clientCpu.push((cpu.user + cpu.system) / 1000);
        if (server0 !== undefined && server1 !== undefined) s.serverCpu.push(server1 - server0);
      }
    }
  }
  await connection.stop();
  await bare.client.close();
  await bareEngine.client.close();
  const cpu = (s: Side) => `client CPU ${median(s.clientCpu).toFixed(1)} ms, server CPU ${s.serverCpu.length ? `${median(s.serverCpu).toFixed(0)} ms` : 'n/a'}`;
  console.log(`files: tools/call 7 MiB on stdio, medians of ${runs} (CPU per call; the server's in 10 ms ticks):`);
  for (const [label, s] of [
    ['engine + ServerConnection', product],
    ['engine + bare SDK client', engineOnly],
    ['bare SDK client, precomputed data URI', baseline],
  ] as const) {
    console.log(`  ${label.padEnd(40)} ${median(s.wall).toFixed(1)} ms; ${cpu(s)}`);
  }
  reportGoal({
    name: 'tools/call 7 MiB on stdio, engine + ServerConnection vs bare SDK client with a precomputed data URI',
    value: ratioOfMedians(product.wall, baseline.wall),
    goal: CALL_GOAL,
    unit: 'x',
    detail: `${median(product.wall).toFixed(1)} vs ${median(baseline.wall).toFixed(1)} ms`,
  });
  if (product.serverCpu.length) {
    // The connection layer alone, in CPU time (this process and the server's): both sides encode the file with the engine.
    const cpuOf = (s: Side) => median(s.clientCpu) + median(s.serverCpu);
    reportGoal({
      name: 'tools/call 7 MiB on stdio, CPU time (client + server): engine + ServerConnection vs engine + bare SDK client',
      value: cpuOf(product) / cpuOf(engineOnly),
      goal: CALL_GOAL,
      unit: 'x',
      detail: `${cpuOf(product).toFixed(0)} vs ${cpuOf(engineOnly).toFixed(0)} ms`,
    });
  }
  console.log(`files: the engine alone on the bare SDK client: ratio ${ratioOfMedians(engineOnly.wall, baseline.wall).toFixed(3)} (for information)`);
}

async function main(): Promise<void> {
  const [mode, path, arg] = process.argv.slice(2);
  if (mode === '--time') return timeChild(path!, Number(arg));
  if (mode === '--rss') return rssChild(path!, arg as 'engine' | 'baseline');

  const dir = mkdtempSync(join(tmpdir(), 'mcp-host-bench-files-'));
  console.log(`files: machine load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores (sides run interleaved; ratios are of medians)`);
  try {
    const files = new Map(SIZES.map((s) => [s, makeFile(dir, s)]));
    for (const size of SIZES) {
      const path = files.get(size)!;
      const t = child<{ engine: number; baseline: number; both: number; ratio: number; bestRatio: number; bothRatio: number; runs: number }>([
        '--time',
        path,
        String(size),
      ]);
      reportGoal({
        name: `encode ${size} MiB, engine vs fs.readFile + toString('base64')`,
        value: t.ratio,
        goal: ENCODE_GOAL,
        unit: 'x',
        detail: `${t.engine.toFixed(2)} vs ${t.baseline.toFixed(2)} ms, medians of ${t.runs}; best-of ratio ${t.bestRatio.toFixed(3)}`,
      });
      console.log(
        `files: check + encode ${size} MiB (stat and 4 KiB sniff at pick time, then the encode): ${t.both.toFixed(2)} ms: ratio ${t.bothRatio.toFixed(3)} to the baseline (for information)`,
      );
      const engine = child<{ growth: number }>(['--rss', path, 'engine']).growth / (size * MiB);
      const baseline = child<{ growth: number }>(['--rss', path, 'baseline']).growth / (size * MiB);
      reportGoal({
        name: `encode ${size} MiB, peak RSS growth as a multiple of the file size`,
        value: engine,
        goal: RSS_GOAL,
        unit: 'x',
        detail: `the baseline's ${baseline.toFixed(2)}x`,
      });
    }
    await endToEnd(dir, files.get(7)!);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
