// The History's bounds, one step for every run kept: the newest runs in count and in size (UTF-8 bytes of their
// JSON), and the results of the newest few, redacted and cut. The extension keeps the state in its storage
// (extension/replay/runHistory.ts); this module loads at activation, so it imports no more than it needs.
import type { CallToolResult } from '@modelcontextprotocol/client';
import { redactValue } from '../files/redact';
import { KiB, MiB } from '../io/limits';
import type { RunRecord } from './record';

export const HISTORY_LIMITS = {
  /** Runs kept (the oldest go first). */
  runs: 200,
  /** The most the kept runs may hold together (UTF-8 bytes of their JSON). */
  runsBytes: 1 * MiB,
  /** Results kept for Show Result (the newest runs'). */
  results: 50,
  /** The most one kept result may hold (UTF-8 bytes of its JSON, the note of the cut included). */
  resultBytes: 64 * KiB,
} as const;

export interface HistoryState {
  /** Newest first. */
  runs: RunRecord[];
  /** By run id: the result as JSON text, redacted, cut. */
  results: Record<string, string>;
}

export const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');

/** At most `max` UTF-8 bytes of `text`, cut on a character. */
export function cutToBytes(text: string, max: number): string {
  if (Buffer.byteLength(text, 'utf8') <= max) return text;
  const cut = Buffer.from(text, 'utf8').subarray(0, max).toString('utf8');
  // A character split by the cut decodes as U+FFFD: dropped.
  return cut.endsWith('\uFFFD') ? cut.slice(0, -1) : cut;
}

/** A result as kept: its JSON with file bytes and data: URIs redacted, cut to HISTORY_LIMITS.resultBytes. */
export function keptResult(result: CallToolResult): string {
  const text = JSON.stringify(redactValue(result), null, 2);
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= HISTORY_LIMITS.resultBytes) return text;
  const note = `\n… (cut: the result's JSON has ${bytes} bytes; ${HISTORY_LIMITS.resultBytes} are kept)`;
  return `${cutToBytes(text, HISTORY_LIMITS.resultBytes - Buffer.byteLength(note, 'utf8'))}${note}`;
}

/** Whether a kept result was cut (then it is no expectation to save). */
export const isCutResult = (kept: string): boolean => /\n\u2026 \(cut: the result's JSON has \d+ bytes; \d+ are kept\)$/.test(kept);

/**
 * The state with `record` added as the newest run: the oldest runs go past HISTORY_LIMITS.runs, or past
 * runsBytes together (a record is at most RECORD_LIMITS.recordBytes, so the newest always stays); results are
 * kept for the newest HISTORY_LIMITS.results runs only.
 */
export function withRun(state: HistoryState, record: RunRecord, result?: CallToolResult): HistoryState {
  let bytes = 0;
  const runs: RunRecord[] = [];
  for (const run of [record, ...state.runs].slice(0, HISTORY_LIMITS.runs)) {
    bytes += jsonBytes(run);
    if (bytes > HISTORY_LIMITS.runsBytes) break;
    runs.push(run);
  }
  const newest = new Set(runs.slice(0, HISTORY_LIMITS.results).map((r) => r.id));
  const results: Record<string, string> = {};
  if (result && newest.has(record.id)) results[record.id] = keptResult(result);
  for (const [id, text] of Object.entries(state.results)) if (newest.has(id) && id !== record.id) results[id] = text;
  return { runs, results };
}
