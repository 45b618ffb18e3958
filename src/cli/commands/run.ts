// `mcp-host run FILE`: runs the saved calls of a file against the servers they name (from the mcp.json beside
// it, or --config), checks each call's expectations, prints a line per call with what differed, and exits 5
// when an expectation failed (4 when a call could not be made at all). --junit writes a report for CI.
import { stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { errorText, InputRefusedError } from '../../core/errors';
import { setAtPath } from '../../core/files';
import {
  checkExpectations,
  fileChangedSince,
  observedOf,
  readSavedCalls,
  resolveSavedPath,
  savedCallsBase,
  savedFilesOf,
  SavedCallsError,
  type SavedCall,
} from '../../core/replay';
import { readSecret } from '../auth';
import { cliSecureArguments } from '../secureArgs';
import { openConnection } from '../connect';
import { CliError, EXIT, report } from '../errors';
import { cliEncodeSettings, fileOptionChoices, type FileOptionSettings } from '../files';
import { usageError, type ParsedArgs } from '../options';
import { resolveTarget, type CliIo } from '../target';
import { runToolOrTask } from '../tasks';
import { terminalName, terminalText } from '../terminal';

export interface CallReport {
  name: string;
  server: string;
  tool: string;
  /** passed: every expectation met; failed: one was not; error: the call could not be made (why in `error`). */
  status: 'passed' | 'failed' | 'error';
  durationMs: number;
  differences: string[];
  error?: string;
}

export async function runCommand(a: ParsedArgs, io: CliIo): Promise<number> {
  const [given, ...extra] = a.positional;
  if (!given) throw usageError('run needs a FILE of saved calls');
  if (extra.length) throw usageError(`unexpected argument ${extra[0]}`);
  const file = resolve(io.cwd, given);
  let calls: SavedCall[];
  try {
    calls = (await readSavedCalls(file)).calls;
  } catch (e) {
    if (e instanceof SavedCallsError) throw new CliError(e.message, EXIT.usage);
    throw new CliError(`cannot read ${file}: ${errorText(e)}`, EXIT.usage);
  }
  const only = a.only ?? [];
  const unknown = only.filter((n) => !calls.some((c) => c.name === n));
  if (unknown.length) throw usageError(`--only ${unknown[0]}: ${file} has no call of that name (calls: ${calls.map((c) => c.name).join(', ') || 'none'})`);
  const selected = only.length ? calls.filter((c) => only.includes(c.name)) : calls;
  const config = a.config !== undefined ? resolve(io.cwd, a.config) : join(dirname(file), 'mcp.json');
  const base = savedCallsBase(file);
  const junit = a.junit !== undefined ? resolve(io.cwd, a.junit) : undefined;
  // Its folder is checked before any call runs: a report that cannot be written is known at once.
  if (junit) await checkReportFolder(junit);

  const reports: CallReport[] = new Array(selected.length);
  const queue = selected.map((call, i) => ({ call, i }));
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(a.parallel ?? 1, selected.length) }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        reports[next.i] = await runSavedCall(next.call, { a, io, config, base });
        if (!a.json) io.stdout.write(reportLines(reports[next.i]!));
      }
    }),
  );
  const totalMs = performance.now() - started;
  const count = (s: CallReport['status']) => reports.filter((r) => r.status === s).length;
  const summary = { passed: count('passed'), failed: count('failed'), errors: count('error'), durationMs: Math.round(totalMs) };
  if (a.json)
    io.stdout.write(`${JSON.stringify({ file, calls: reports.map((r) => ({ ...r, durationMs: Math.round(r.durationMs) })), ...summary }, null, 2)}\n`);
  else io.stdout.write(`${summary.passed} passed, ${summary.failed} failed, ${summary.errors} could not run (${Math.round(totalMs)} ms)\n`);
  if (junit) {
    try {
      await writeFile(junit, junitReport(given, reports, totalMs), 'utf8');
    } catch (e) {
      throw new CliError(`--junit: cannot write ${terminalName(junit, 4096)} (${errorText(e)})`, EXIT.usage);
    }
    io.stderr.write(`mcp-host: wrote the JUnit report ${terminalName(junit, 4096)}\n`);
  }
  return summary.failed ? EXIT.toolError : summary.errors ? EXIT.server : EXIT.ok;
}

async function checkReportFolder(path: string): Promise<void> {
  const folder = dirname(path);
  const info = await stat(folder).catch(() => undefined);
  if (!info?.isDirectory()) throw new CliError(`--junit ${terminalName(path, 4096)}: the folder ${terminalName(folder, 4096)} does not exist`, EXIT.usage);
  if ((await stat(path).catch(() => undefined))?.isDirectory())
    throw new CliError(`--junit ${terminalName(path, 4096)} is a folder; give the report's file`, EXIT.usage);
}

/** A call's line (and its differences, indented), terminal-safe. */
export function reportLines(r: CallReport): string {
  const ms = `${Math.round(r.durationMs)} ms`;
  const head = `${r.status === 'passed' ? 'pass ' : r.status === 'failed' ? 'FAIL ' : 'ERROR'} ${terminalName(r.name, 200)}  (${terminalName(r.server, 100)}/${terminalName(r.tool, 100)}, ${ms})`;
  const details = r.status === 'error' ? [r.error ?? ''] : r.differences;
  return `${[head, ...details.map((d) => `      ${terminalText(d).replaceAll('\n', '\n      ')}`)].join('\n')}\n`;
}

interface RunContext {
  a: ParsedArgs;
  io: CliIo;
  config: string;
  base: string;
}

/** Without --timeout, how long one saved call (a task's whole wait included) may take: a run in CI must end. */
export const RUN_CALL_TIMEOUT_MS = 10 * 60_000;

/** One saved call: its server started, files checked against what was saved, the call made and its result checked. */
async function runSavedCall(call: SavedCall, { a, io, config, base }: RunContext): Promise<CallReport> {
  const reportOf = (fields: Pick<CallReport, 'status' | 'durationMs' | 'differences'> & { error?: string }): CallReport => ({
    name: call.name,
    server: call.server,
    tool: call.tool,
    ...fields,
  });
  const quiet: CliIo = { ...io, interactive: false };
  let stop: (() => Promise<void>) | undefined;
  let mask = (text: string) => text;
  try {
    const server = await resolveTarget({ command: 'run', positional: [], given: [], server: call.server, config }, quiet);
    const cli = await openConnection(server, { timeoutMs: a.timeoutMs }, quiet);
    stop = () => cli.stop();
    const { connection, log } = cli;
    mask = (text) => log.maskSecretsIn(text);
    if (!connection.tools.some((t) => t.name === call.tool)) await connection.refreshTools().catch(() => undefined);
    const tool = connection.tools.find((t) => t.name === call.tool);
    if (!tool) throw new InputRefusedError(`server "${call.server}" has no tool "${call.tool}"`);
    const args = structuredClone(call.arguments ?? {});
    for (const [label, source] of Object.entries(call.secrets ?? {})) {
      const value = (await readSecret(`secrets.${label}`, source, io.env, base))!;
      log.maskSecrets([value]);
      setAtPath(args, label.split('.'), value);
    }
    // Each file as saved: inside the workspace folder, and the same bytes (size, sha-256) as when it was saved.
    const specs: string[] = [];
    for (const { label, files } of savedFilesOf(call)) {
      for (const saved of files) {
        const path = resolveSavedPath(base, saved.path, label);
        const changed = await fileChangedSince(path, saved, label, io.interrupt);
        if (changed) throw new InputRefusedError(`${changed}; not sent (record the call again if the new file is meant)`, label);
        specs.push(`${label}=${path}`);
      }
    }
    // SEP-3221 secure values come from the server's entry in the mcp.json, as `call` takes them; never from the file.
    const secureArguments = await cliSecureArguments(tool, server.secureArguments, {}, { env: io.env, cwd: base });
    const inUse = connection.transportInUse ?? server.transport;
    const settings: FileOptionSettings = { uploader: connection.transfers, workspaceRoots: [base], ...(io.interrupt ? { signal: io.interrupt } : {}) };
    const files = await fileOptionChoices(tool, args, specs, inUse, log, settings);
    const startedAt = performance.now();
    // A tool that runs as a task is followed to its end as `call` follows it; --timeout bounds the whole wait.
    const { result } = (await runToolOrTask(
      connection,
      { tool, input: { json: args }, files, ...(secureArguments ? { secureArguments } : {}) },
      {
        elicitation: cli.elicitation.ui,
        signal: io.interrupt,
        timeoutMs: a.timeoutMs,
        totalTimeoutMs: a.timeoutMs ?? RUN_CALL_TIMEOUT_MS,
        encode: cliEncodeSettings(inUse, settings),
      },
      { optionalTasks: true, stdout: io.stdout, onStatus: (line) => io.stderr.write(`mcp-host: ${terminalName(call.name, 200)}: ${line}\n`) },
    ))!; // (always a result without noWait)
    const durationMs = performance.now() - startedAt;
    // Without an outcome expectation, a tool error fails the call.
    const expect = { outcome: 'success' as const, ...call.expect };
    const differences = checkExpectations(expect, observedOf(result, durationMs)).map(mask);
    return reportOf({ status: differences.length ? 'failed' : 'passed', durationMs, differences });
  } catch (e) {
    let message = '';
    report(
      e,
      {
        stderr: {
          write: (text: string) => {
            message += text;
            return true;
          },
        } as unknown as NodeJS.WritableStream,
      },
      mask,
    );
    return reportOf({ status: 'error', durationMs: 0, differences: [], error: message.replace(/^mcp-host: /, '').trimEnd() });
  } finally {
    await stop?.();
  }
}

/** Text for XML: escaped, without the characters XML 1.0 forbids. */
function xml(text: string): string {
  // The control characters XML 1.0 cannot hold.
  return text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '\uFFFD')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}

/** A JUnit XML report: one testsuite (the file), a testcase per call; a failed expectation is a <failure>, a call not made an <error>. */
export function junitReport(file: string, reports: readonly CallReport[], totalMs: number): string {
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const failures = reports.filter((r) => r.status === 'failed').length;
  const errors = reports.filter((r) => r.status === 'error').length;
  const cases = reports.map((r) => {
    const open = `    <testcase name="${xml(r.name)}" classname="${xml(`${r.server}.${r.tool}`)}" time="${seconds(r.durationMs)}"`;
    if (r.status === 'passed') return `${open}/>`;
    const [tag, lines] = r.status === 'failed' ? ['failure', r.differences] : ['error', [r.error ?? '']];
    return `${open}>\n      <${tag} message="${xml(lines[0] ?? '')}">${xml(lines.join('\n'))}</${tag}>\n    </testcase>`;
  });
  const counts = `tests="${reports.length}" failures="${failures}" errors="${errors}" time="${seconds(totalMs)}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="mcp-host run" ${counts}>`,
    `  <testsuite name="${xml(file)}" ${counts}>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
