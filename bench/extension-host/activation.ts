// Loaded by bench/vscode.ts as the extension-tests entry of a real extension host, in a folder
// without .vscode/mcp.json so nothing has activated the extension yet. Times the activation of
// MCP Host (loading dist/extension.js and running activate()) and of an empty baseline extension
// in the same host, in alternating order, and prints both for the runner to collect.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';

async function timeActivation(id: string): Promise<number> {
  const ext = vscode.extensions.getExtension(id);
  if (!ext) throw new Error(`${id} is not loaded`);
  if (ext.isActive) throw new Error(`${id} was already active: the timing would be meaningless`);
  const started = performance.now();
  await ext.activate();
  return performance.now() - started;
}

export async function run(): Promise<void> {
  // let the host finish its own start-up work first
  await new Promise((r) => setTimeout(r, 1500));
  const ids = ['mcp-host.mcp-host', 'mcp-host.activation-baseline'];
  // the runner writes which one goes first next to this bundle before each load
  if (readFileSync(join(__dirname, 'order.txt'), 'utf8').trim() === 'baseline-first') ids.reverse();
  const times: Record<string, number> = {};
  for (const id of ids) times[id] = await timeActivation(id);
  // the extension's own measure: from its module's first line to the end of activate()
  const own = (vscode.extensions.getExtension('mcp-host.mcp-host')?.exports as { activationMs?: number } | undefined)?.activationMs ?? -1;
  console.log(`ACTIVATION_MS ${times['mcp-host.mcp-host'].toFixed(2)} ${times['mcp-host.activation-baseline'].toFixed(2)} ${own.toFixed(2)}`);
}
