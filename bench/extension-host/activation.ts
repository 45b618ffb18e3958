// Loaded by bench/vscode.ts as the extension-tests entry of a real extension host, in a folder
// without .vscode/mcp.json so nothing has activated the extension yet. Times the activation of
// MCP Host (loading dist/extension.js and running activate()) and of an empty baseline extension
// in the same host, in alternating order, wall clock and CPU time, and prints both for the runner to collect.
// When MCP Host loaded without its code cache, it waits until the extension has written the cache, so that the
// runner's next host can load from it.
// Timing starts once the host is quiet (its start-up activations done: VS Code activates extensions such as Emmet
// and configuration-editing some seconds after the window opens, later on a slower or colder machine, and their
// work would be counted as MCP Host's), and the extensions that became active during each timing are reported.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';

/**
 * Wall-clock and CPU milliseconds of one activation (the CPU time of this whole process: it is idle otherwise).
 * With `profileTo`, the activation runs under the inspector's CPU profiler (slower) and its profile is written there.
 */
async function timeActivation(id: string, profileTo?: string): Promise<{ wall: number; cpu: number; othersActivated: string[] }> {
  const ext = vscode.extensions.getExtension(id);
  if (!ext) throw new Error(`${id} is not loaded`);
  if (ext.isActive) throw new Error(`${id} was already active: the timing would be meaningless`);
  const session = profileTo ? new Session() : undefined;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
  }
  const activeBefore = activeExtensions();
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  await ext.activate();
  const wall = performance.now() - started;
  const cpu = process.cpuUsage(cpu0);
  const othersActivated = [...activeExtensions()].filter((other) => other !== id && !activeBefore.has(other));
  if (session && profileTo) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(profileTo, JSON.stringify(profile));
    session.disconnect();
  }
  return { wall, cpu: (cpu.user + cpu.system) / 1000, othersActivated };
}

function activeExtensions(): Set<string> {
  return new Set(vscode.extensions.all.filter((e) => e.isActive).map((e) => e.id));
}

const QUIET_MIN_WAIT_MS = 1500;
const QUIET_WINDOW_MS = 250;
/** CPU time of the host in one window below which it counts as idle (6 % of a core). */
const QUIET_CPU_MS = 15;
/** Windows in a row that must be idle, with no extension activated meanwhile. */
const QUIET_WINDOWS = 4;
const QUIET_MAX_WAIT_MS = 20_000;

/** Waits until the host has been idle for a second with no extension activated (20 s at most). */
async function hostQuiet(): Promise<{ waitedMs: number; quiet: boolean }> {
  const started = Date.now();
  await new Promise((r) => setTimeout(r, QUIET_MIN_WAIT_MS));
  let quietWindows = 0;
  let active = activeExtensions().size;
  while (Date.now() - started < QUIET_MAX_WAIT_MS) {
    const cpu0 = process.cpuUsage();
    await new Promise((r) => setTimeout(r, QUIET_WINDOW_MS));
    const cpu = process.cpuUsage(cpu0);
    const nowActive = activeExtensions().size;
    quietWindows = (cpu.user + cpu.system) / 1000 < QUIET_CPU_MS && nowActive === active ? quietWindows + 1 : 0;
    active = nowActive;
    if (quietWindows >= QUIET_WINDOWS) return { waitedMs: Date.now() - started, quiet: true };
  }
  return { waitedMs: Date.now() - started, quiet: false };
}

export async function run(): Promise<void> {
  const host = await hostQuiet();
  const ids = ['mcp-host.mcp-host', 'mcp-host.activation-baseline'];
  // the runner writes which one goes first next to this bundle before each load
  if (readFileSync(join(__dirname, 'order.txt'), 'utf8').trim() === 'baseline-first') ids.reverse();
  const times: Record<string, { wall: number; cpu: number; othersActivated: string[] }> = {};
  // the runner names a file for MCP Host's CPU profile here when asked to (MCP_HOST_BENCH_CPU_PROFILE)
  const profileFile = join(__dirname, 'profile.txt');
  const profileTo = existsSync(profileFile) ? readFileSync(profileFile, 'utf8').trim() : undefined;
  for (const id of ids) times[id] = await timeActivation(id, id === 'mcp-host.mcp-host' ? profileTo : undefined);
  // the extension's own measure: from its entry's first line to the end of activate()
  const api = vscode.extensions.getExtension('mcp-host.mcp-host')?.exports as
    { activationMs?: number; fromCodeCache?: boolean; activation?: unknown } | undefined;
  const own = api?.activationMs ?? -1;
  const ours = times['mcp-host.mcp-host']!;
  const baseline = times['mcp-host.activation-baseline']!;
  if (api?.fromCodeCache === false) await cacheWritten(readFileSync(join(__dirname, 'cache-dir.txt'), 'utf8').trim());
  // where MCP Host's activation went, with the code cache's verdict (its ActivationReport)
  console.log(`ACTIVATION_REPORT ${JSON.stringify(api?.activation ?? null)}`);
  // how long the host took to become quiet, and the extensions that became active while either was timed
  console.log(`ACTIVATION_HOST ${JSON.stringify({ ...host, othersDuringOurs: ours.othersActivated, othersDuringBaseline: baseline.othersActivated })}`);
  console.log(
    `ACTIVATION_MS ${ours.wall.toFixed(2)} ${baseline.wall.toFixed(2)} ${own.toFixed(2)} ${ours.cpu.toFixed(2)} ${baseline.cpu.toFixed(2)} ${api?.fromCodeCache ? 1 : 0}`,
  );
}

/** Waits (20 s at most) for the code cache the extension writes a few seconds after an activation without one. */
async function cacheWritten(dir: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (existsSync(dir) && readdirSync(dir).some((f) => f.endsWith('.cache'))) return;
    await new Promise((r) => setTimeout(r, 200));
  }
}
