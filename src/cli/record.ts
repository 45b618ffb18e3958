// `mcp-host call --record FILE [--expect-current]`: the call appended to a saved-calls file, as the MCP view's
// Save Call… writes it (files by workspace path and sha-256, secrets as env: sources).
import type { CallToolResult } from '@modelcontextprotocol/client';
import {
  appendSavedCall,
  expectationsOf,
  observedOf,
  savedCallOf,
  savedCallsBase,
  SAVED_CALLS_LIMITS,
  SavedCallsError,
  withSecretsLeftOut,
  writeSavedCalls,
  type RunRecord,
} from '../core/replay';
import { readBoundedText } from '../core/io/boundedRead';
import { CliError, EXIT } from './errors';
import { usageError, type ParsedArgs } from './options';

export interface KeptRun {
  record: RunRecord;
  result?: CallToolResult;
}

/** Refuses options that would record nothing, silently: --expect-current alone, --record with --no-wait. */
export function checkRecordOptions(a: Pick<ParsedArgs, 'record' | 'expectCurrent' | 'noWait'>): void {
  if (a.expectCurrent && a.record === undefined) throw usageError('--expect-current goes with --record FILE (it says what the recorded call expects)');
  if (a.record !== undefined && a.noWait) throw usageError('--record records a call when it ends; with --no-wait it is not waited for');
}

/** Appends the run to `file` (created when missing); returns the name it was saved under. */
export async function recordCall(
  file: string,
  kept: KeptRun,
  secretLabels: readonly string[],
  expectCurrent: boolean,
): Promise<{ name: string; file: string }> {
  const record = withSecretsLeftOut(kept.record, secretLabels);
  if (!record.arguments) throw new CliError(`--record: not recorded: ${record.argumentsNote ?? 'the arguments were not kept'}`, EXIT.usage);
  const call = savedCallOf(record, savedCallsBase(file));
  if (expectCurrent && kept.result) call.expect = expectationsOf(observedOf(kept.result, record.durationMs));
  let text = '';
  try {
    text = await readBoundedText(file, SAVED_CALLS_LIMITS.fileBytes, 'the saved-calls file');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new CliError(`--record: cannot read ${file}: ${(e as Error).message}`, EXIT.usage);
  }
  try {
    const appended = appendSavedCall(text, file, call);
    await writeSavedCalls(file, appended.text);
    return { name: appended.name, file };
  } catch (e) {
    if (e instanceof SavedCallsError) throw new CliError(`--record: ${e.message}`, EXIT.usage);
    throw e;
  }
}
