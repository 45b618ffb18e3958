// The History of tool runs (the panel, the palette, the Explorer, agents): each run's record (core/replay:
// arguments without files' bytes or secrets, files as path, size, type and sha-256) in the workspace's storage,
// bounded in count and size, and the latest results (redacted, cut) for Show Result.
import * as vscode from 'vscode';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { redactValue } from '../../core/files';
import { KiB, MiB } from '../../core/io/limits';
import type { RunCaller, RunRecord } from '../../core/replay';
import type { RunRecorder } from '../../core/run';

export const HISTORY_LIMITS = {
  /** Runs kept (the oldest go first). */
  runs: 200,
  /** The most the kept runs may hold together (JSON). */
  runsBytes: 1 * MiB,
  /** Results kept for Show Result (the newest runs'), each cut to resultBytes. */
  results: 50,
  resultBytes: 64 * KiB,
} as const;

const RUNS_KEY = 'mcpHost.history.runs';
const RESULTS_KEY = 'mcpHost.history.results';

export class RunHistory implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly state: vscode.Memento) {}

  runs(): RunRecord[] {
    return this.state.get<RunRecord[]>(RUNS_KEY) ?? [];
  }

  get(id: string): RunRecord | undefined {
    return this.runs().find((r) => r.id === id);
  }

  /** The result kept for a run (redacted JSON text, cut), if it is still kept. */
  result(id: string): string | undefined {
    return (this.state.get<Record<string, string>>(RESULTS_KEY) ?? {})[id];
  }

  /** How a caller's runs are kept: `by` says who asked (the person, or an agent). */
  recorder(by: RunCaller): RunRecorder {
    return { by, keep: (record, result) => { void this.add(record, result); } };
  }

  async add(record: RunRecord, result?: CallToolResult): Promise<void> {
    const runs = [record, ...this.runs()].slice(0, HISTORY_LIMITS.runs);
    let bytes = 0;
    const kept = runs.filter((r) => (bytes += JSON.stringify(r).length) <= HISTORY_LIMITS.runsBytes);
    const results = { ...this.state.get<Record<string, string>>(RESULTS_KEY) ?? {} };
    if (result) {
      const text = JSON.stringify(redactValue(result), null, 2);
      results[record.id] = text.length > HISTORY_LIMITS.resultBytes
        ? `${text.slice(0, HISTORY_LIMITS.resultBytes)}\n… (cut: the result's JSON has ${text.length} characters; ${HISTORY_LIMITS.resultBytes} are kept)` : text;
    }
    const newest = new Set(kept.slice(0, HISTORY_LIMITS.results).map((r) => r.id));
    for (const id of Object.keys(results)) if (!newest.has(id)) delete results[id];
    await this.state.update(RUNS_KEY, kept);
    await this.state.update(RESULTS_KEY, results);
    this.changed.fire();
  }

  async clear(): Promise<void> {
    await this.state.update(RUNS_KEY, undefined);
    await this.state.update(RESULTS_KEY, undefined);
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
