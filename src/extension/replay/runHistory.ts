// The History of tool runs (the panel, the palette, the Explorer, agents): each run's record (core/replay:
// arguments without files' bytes or secrets, files as path, size, type and sha-256) in the workspace's storage,
// bounded in count and size, and the latest results (redacted, cut) for Show Result.
import * as vscode from 'vscode';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { withRun } from '../../core/replay/history';
import type { RunCaller, RunRecord } from '../../core/replay';
import type { RunRecorder } from '../../core/run';

const RUNS_KEY = 'mcpHost.history.runs';
const RESULTS_KEY = 'mcpHost.history.results';

export class RunHistory implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  /** Runs are added one after another: each adds to the state the one before it wrote. */
  private adding: Promise<void> = Promise.resolve();

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
    return {
      by,
      keep: (record, result) => {
        void this.add(record, result);
      },
    };
  }

  add(record: RunRecord, result?: CallToolResult): Promise<void> {
    this.adding = this.adding
      .catch(() => undefined)
      .then(async () => {
        const next = withRun({ runs: this.runs(), results: this.state.get<Record<string, string>>(RESULTS_KEY) ?? {} }, record, result);
        await this.state.update(RUNS_KEY, next.runs);
        await this.state.update(RESULTS_KEY, next.results);
        this.changed.fire();
      });
    return this.adding;
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
