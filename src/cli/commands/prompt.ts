// `mcp-host prompt NAME [--args JSON] [--file ARG=PATH] TARGET`: a prompt's messages, each under its role.
import { promptAsTool } from '../../core/forms';
import { requestSizeProblem } from '../../core/io/requestSize';
import { InputRefusedError } from '../../core/errors';
import { runPrompt } from '../../core/run';
import { openConnection, withConnection } from '../connect';
import { CliError, EXIT } from '../errors';
import { cliEncodeSettings, fileOptionChoices } from '../files';
import type { ParsedArgs } from '../options';
import { asLines, parseArgsOption, resultText, singleName } from '../output';
import { resolveTarget, type CliIo } from '../target';
import { terminalLine, terminalName, terminalText } from '../terminal';

export async function promptCommand(a: ParsedArgs, io: CliIo): Promise<number> {
  const promptName = singleName(a, 'prompt');
  const args = parseArgsOption(a.args);
  const server = await resolveTarget(a, io);
  const cli = await openConnection(server, a, io);
  const { connection, log, stdout } = cli;
  return withConnection(cli, async () => {
    const prompt = connection.prompts.find((p) => p.name === promptName);
    if (!prompt) {
      const names = connection.prompts.map((p) => terminalName(p.name, 100));
      throw new CliError(
        `server "${server.name}" has no prompt "${terminalText(promptName)}"${names.length ? ` (prompts: ${names.join(', ')})` : ''}`,
        EXIT.usage,
      );
    }
    // Prompt arguments are strings; a missing required one is refused here rather than by the server.
    for (const [key, value] of Object.entries(args)) {
      if (typeof value !== 'string')
        throw new CliError(`--args: prompt arguments are strings ("${terminalText(key)}" is ${terminalText(JSON.stringify(value))})`, EXIT.usage);
    }
    // File arguments (x-mcp-file): --file checked like a tool's (a missing required one is refused there), sent inline.
    const transport = connection.transportInUse ?? server.transport;
    const asTool = promptAsTool(prompt);
    const files = await fileOptionChoices(asTool, args, a.files ?? [], transport, log, { subject: 'prompt', limits: { transfer: false } });
    const fileArgs = new Set(files.entries().map((e) => e.slot.label));
    const missing = (prompt.arguments ?? []).filter((arg) => arg.required && args[arg.name] === undefined && !fileArgs.has(arg.name));
    if (missing.length) {
      const named = missing.map((arg) => `"${terminalText(arg.name)}"${arg.description ? ` (${terminalLine(arg.description, 100)})` : ''}`);
      throw new CliError(`--args: the prompt "${terminalText(promptName)}" needs ${named.join(', ')}`, EXIT.usage);
    }
    const tooLarge = requestSizeProblem(args, transport);
    if (tooLarge) throw new InputRefusedError(`--args: ${tooLarge}`);
    const { answer, view } = await runPrompt(
      connection,
      promptName,
      { json: args },
      {
        signal: io.interrupt,
        timeoutMs: a.timeoutMs,
        files,
        encode: cliEncodeSettings(transport),
      },
    );
    stdout.write(a.json ? `${JSON.stringify(answer, null, 2)}\n` : asLines(resultText(view)));
    return EXIT.ok;
  });
}
