// `mcp-host call TOOL TARGET`: calls a tool (files, uploads, questions, tasks) and prints its result.
import { resolve } from 'node:path';
import { callsAsTask } from '../../core/tasks';
import { InputRefusedError } from '../../core/errors';
import { redactDataUris } from '../../core/files';
import { requestSizeProblem } from '../../core/io/requestSize';
import { RESULT_LIMITS } from '../../core/results';
import { authorizeUploads, type RunHooks } from '../../core/run';
import { setAtPath } from '../../core/files';
import { readSecret } from '../auth';
import { checkRecordOptions, recordCall, type KeptRun } from '../record';
import { openConnection, withConnection } from '../connect';
import { CliError, EXIT } from '../errors';
import { cliEncodeSettings, cliUploadReporter, fileOptionChoices, type FileOptionSettings } from '../files';
import type { ParsedArgs } from '../options';
import { parseArgsOption, resultText, singleName, withToolUi } from '../output';
import { resolveTarget, type CliIo } from '../target';
import { runToolOrTask } from '../tasks';
import { cliSecureArguments } from '../secureArgs';
import { terminalName, terminalText } from '../terminal';
import { confirmUploads, digestProgressLines, downloadLimits, saveFileOutputs, uploadProgressLine } from '../transfer';

export async function callCommand(a: ParsedArgs, io: CliIo): Promise<number> {
  const toolName = singleName(a, 'tool');
  checkRecordOptions(a);
  const args = parseArgsOption(a.args);
  const server = await resolveTarget(a, io);
  const transport = server.transport;
  // Refused before the server is even started when --args alone is too large.
  const argsTooLarge = requestSizeProblem(args, transport);
  if (argsTooLarge) throw new InputRefusedError(`--args: ${argsTooLarge}`);
  const transfer = a.noFileTransfer ? (false as const) : { inlineUpToBytes: a.inlineMax };
  const cli = await openConnection(server, a, io);
  const { connection, log, elicitation, stdout, stderr } = cli;
  return withConnection(cli, async () => {
    // Some servers (server-everything) add tools right after the handshake and announce them with list_changed.
    if (!connection.tools.some((t) => t.name === toolName)) await connection.refreshTools().catch(() => undefined);
    const tool = connection.tools.find((t) => t.name === toolName);
    if (!tool) {
      const refused = connection.refusedTools.find((t) => t.name === toolName);
      if (refused) throw new CliError(`server "${server.name}" lists tool "${terminalText(toolName)}", but it is not offered: ${refused.reason}`, EXIT.usage);
      const names = connection.tools.map((t) => terminalName(t.name, 100));
      throw new CliError(`server "${server.name}" has no tool "${toolName}"${names.length ? ` (tools: ${names.join(', ')})` : ''}`, EXIT.usage);
    }
    const inUse = connection.transportInUse ?? transport;
    const secureArguments = await cliSecureArguments(tool, server.secureArguments, a, io);
    const fileSettings: FileOptionSettings = {
      limits: { transfer },
      uploader: connection.transfers,
      ...(io.interrupt ? { signal: io.interrupt } : {}),
      uploadProgress: (name, size) => uploadProgressLine(stderr, io.interactive, name, size),
    };
    const secretLabels: string[] = [];
    for (const spec of a.secrets ?? []) {
      const label = spec.slice(0, spec.indexOf('='));
      const value = (await readSecret(`--secret ${label}`, spec.slice(label.length + 1), io.env, io.cwd))!;
      log.maskSecrets([value]);
      setAtPath(args, label.split('.'), value);
      secretLabels.push(label);
    }
    const files = await fileOptionChoices(tool, args, a.files ?? [], inUse, log, fileSettings);
    // A tool that runs as a task (required, or optional and the server supports it) is followed to its end.
    if (a.noWait && !callsAsTask(connection, tool, !a.noOptionalTasks))
      throw new CliError(`--no-wait: "${terminalText(toolName)}" does not run as a task on this server`, EXIT.usage);
    const hooks: RunHooks = {
      elicitation: elicitation.ui,
      totalTimeoutMs: a.timeoutMs,
      uploadProgress: () => cliUploadReporter(fileSettings.uploadProgress, io.interrupt),
      checkEncoded: (encoded) => {
        const tooLarge = requestSizeProblem(encoded, inUse);
        if (tooLarge) throw new InputRefusedError(`--args: ${tooLarge}`);
      },
      waitForRetry: elicitation.waitForRetry,
      signal: io.interrupt,
      timeoutMs: a.timeoutMs,
      onProgress: (p) => log.info(`progress ${p.progress}${p.total !== undefined ? `/${p.total}` : ''}${p.message ? ` ${p.message}` : ''}`),
      encode: cliEncodeSettings(inUse, fileSettings),
    };
    let kept: KeptRun | undefined;
    if (a.record !== undefined)
      hooks.record = {
        by: 'person',
        keep: (record, result) => {
          kept = { record, result };
        },
      };
    // Uploads are authorized first, so where their bytes go is shown (and, on a terminal, asked) before any leave.
    const digesting = digestProgressLines(stderr, io.interactive);
    const uploads = await authorizeUploads(files.entries(), files.limits, connection.transfers, io.interrupt, digesting.onDigestBytes).finally(() =>
      digesting.done(),
    );
    if (uploads && !(await confirmUploads(uploads, io, server.name, io.interrupt))) {
      uploads.abandon();
      throw new CliError('not sent: the uploads were not confirmed; nothing of the files left this machine and the tool was not called', EXIT.usage);
    }
    const request = { tool, input: { json: args }, files, ...(uploads ? { uploads } : {}), ...(secureArguments ? { secureArguments } : {}) };
    // A -32042 error names URLs to visit first: they are offered like URL elicitations, then the call is retried.
    // The result is validated against the tool as listed then (a list_changed during the call re-lists first).
    const outcome = await runToolOrTask(connection, request, hooks, {
      optionalTasks: !a.noOptionalTasks,
      noWait: !!a.noWait,
      stdout,
      onStatus: (line) => stderr.write(`${line}\n`),
      // An answer refused locally ends the call; it is not made again as a task.
      mayRetryAsTask: () => !elicitation.refusal,
    }).catch((e: unknown) => {
      throw elicitation.refusal ?? e;
    });
    // An elicitation answer refused locally (the server got only `cancel`): exit 1 with the reason.
    if (elicitation.refusal) throw elicitation.refusal;
    if (!outcome) return EXIT.ok; // --no-wait: the task id is printed
    const { result, view } = outcome;
    if (a.record !== undefined && kept) {
      const { name, file } = await recordCall(resolve(io.cwd, a.record), kept, secretLabels, !!a.expectCurrent);
      stderr.write(`mcp-host: recorded "${terminalText(name)}" in ${terminalName(file, 4096)}\n`);
    }
    if (a.json) {
      // As in the text output, a value of the host's own (a secret input, a secure value) the server echoed is masked.
      stdout.write(`${log.maskSecretsIn(JSON.stringify(withToolUi(result, tool), null, 2))}\n`);
    } else {
      const text = resultText(view);
      (view.isError ? stderr : stdout).write(text.endsWith('\n') || text === '' ? text : `${text}\n`);
      // Text over the display cap is shown in part (previews do not apply to a terminal).
      const notes = view.warnings.filter((w) => !/preview/.test(w));
      if (notes.length) stderr.write(`mcp-host: ${notes.join(' ')} --json prints the whole result.\n`);
    }
    if (a.saveFiles !== undefined) {
      for (const path of await saveFileOutputs(view, result, connection, resolve(io.cwd, a.saveFiles), io.interrupt, downloadLimits(a))) {
        stderr.write(`saved ${terminalName(path, 4096)}\n`);
      }
    }
    const structured = view.structured;
    for (const note of [...(structured?.status === 'unchecked' ? (structured.errors ?? []) : []), ...(structured?.notes ?? [])])
      stderr.write(`mcp-host: ${terminalText(note)}\n`);
    if (structured?.status === 'invalid' || structured?.status === 'missing') {
      const raw = structured.json ?? JSON.stringify(result, null, 2);
      stderr.write(`mcp-host: the result of "${terminalText(toolName)}" does not match its output schema:\n`);
      for (const e of structured.errors ?? []) stderr.write(`  ${terminalText(e)}\n`);
      stderr.write(
        `${structured.json !== undefined ? 'structured content' : 'result'}${structured.truncated ? ' (in part)' : ''}:\n${terminalText(redactDataUris(raw).slice(0, RESULT_LIMITS.textChars))}\n`,
      );
      return EXIT.toolError;
    }
    return view.isError ? EXIT.toolError : EXIT.ok;
  });
}
