// `mcp-host complete (--prompt NAME | --resource-template URI) ARG VALUE TARGET`: the server's suggestions.
import { completionRef, completionText } from '../clientFeatures';
import { openConnection, withConnection } from '../connect';
import { CliError, EXIT } from '../errors';
import { usageError, type ParsedArgs } from '../options';
import { parseArgsOption } from '../output';
import { resolveTarget, type CliIo } from '../target';
import { terminalText } from '../terminal';

export async function completeCommand(a: ParsedArgs, io: CliIo): Promise<number> {
  const ref = completionRef(a);
  if (!ref) throw usageError('complete needs --prompt NAME or --resource-template URI (one of them)');
  const [argument, value, ...extra] = a.positional;
  if (argument === undefined || value === undefined) throw usageError('complete needs the argument\'s name and the value typed so far (it may be "")');
  if (extra.length) throw usageError(`unexpected argument ${extra[0]}`);
  const context = parseArgsOption(a.args);
  for (const [key, v] of Object.entries(context)) {
    if (typeof v !== 'string')
      throw new CliError(`--args: the arguments filled in are strings ("${terminalText(key)}" is ${terminalText(JSON.stringify(v))})`, EXIT.usage);
  }
  const server = await resolveTarget(a, io);
  const cli = await openConnection(server, a, io);
  const { connection } = cli;
  return withConnection(cli, async () => {
    if (!connection.supportsCompletions) throw new CliError(`server "${server.name}" offers no completions`, EXIT.toolError);
    const answer = await connection.complete(
      { ref, argument: { name: argument, value }, context: Object.keys(context).length ? (context as Record<string, string>) : undefined },
      { signal: io.interrupt, timeoutMs: a.timeoutMs },
    );
    cli.stdout.write(completionText(answer, !!a.json));
    if (!a.json && answer.cut) cli.stderr.write(`mcp-host: ${answer.cut}\n`);
    return EXIT.ok;
  });
}
