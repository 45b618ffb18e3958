// Loaded by bench/vscode.ts as the extension-tests entry of a real extension host, in a folder
// without .vscode/mcp.json so nothing has activated the extension yet. Times the activation of
// MCP Host (loading dist/extension.js and running activate()) and of an empty baseline extension
// in the same host, in alternating order, wall clock and CPU time, and prints both for the runner to collect.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';

/** Wall-clock and CPU milliseconds of one activation (the CPU time of this whole process: it is idle otherwise). */
async function timeActivation(id: string): Promise<{ wall: number; cpu: number }> {
  const ext = vscode.extensions.getExtension(id);
  if (!ext) throw new Error(`${id} is not loaded`);
  if (ext.isActive) throw new Error(`${id} was already active: the timing would be meaningless`);
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  await ext.activate();
  const wall = performance.now() - started;
  const cpu = process.cpuUsage(cpu0);
  return { wall, cpu: (cpu.user + cpu.system) / 1000 };
}

export async function run(): Promise<void> {
  // let the host finish its own start-up work first
  await new Promise((r) => setTimeout(r, 1500));
  const ids = ['mcp-host.mcp-host', 'mcp-host.activation-baseline'];
  // the runner writes which one goes first next to this bundle before each load
  if (readFileSync(join(__dirname, 'order.txt'), 'utf8').trim() === 'baseline-first') ids.reverse();
  const times: Record<string, { wall: number; cpu: number }> = {};
  for (const id of ids) times[id] = await timeActivation(id);
  // the extension's own measure: from its module's first line to the end of activate()
  const own = (vscode.extensions.getExtension('mcp-host.mcp-host')?.exports as { activationMs?: number } | undefined)?.activationMs ?? -1;
  const ours = times['mcp-host.mcp-host']!;
  const baseline = times['mcp-host.activation-baseline']!;
  console.log(`ACTIVATION_MS ${ours.wall.toFixed(2)} ${baseline.wall.toFixed(2)} ${own.toFixed(2)} ${ours.cpu.toFixed(2)} ${baseline.cpu.toFixed(2)}`);
}
