// `mcp-host tools TARGET`: the tools of a server, one short line each (with the same options as `call`, so
// the listing shows what a call can reach).
import { offeredToUser } from '../../core/apps';
import { openConnection, withConnection } from '../connect';
import { EXIT } from '../errors';
import { describeFileSlots } from '../files';
import { describeSecureParameters } from '../secureArgs';
import { usageError, type ParsedArgs } from '../options';
import { toolLine } from '../output';
import { resolveTarget, type CliIo } from '../target';
import { terminalLine, terminalText } from '../terminal';

export async function toolsCommand(a: ParsedArgs, io: CliIo): Promise<number> {
  if (a.positional.length) throw usageError(`unexpected argument ${a.positional[0]}`);
  const cli = await openConnection(await resolveTarget(a, io), a, io);
  const { connection, stdout } = cli;
  return withConnection(cli, async () => {
    if (a.json) {
      stdout.write(`${JSON.stringify(connection.tools, null, 2)}\n`);
    } else {
      // Tools only an app may call (visibility ["app"]) are not offered; --json lists everything.
      for (const tool of connection.tools.filter(offeredToUser)) {
        stdout.write(`${toolLine(tool)}\n`);
        for (const line of describeFileSlots(tool)) stdout.write(`    ${terminalLine(line, 300)}\n`);
        const secure = describeSecureParameters(tool);
        if (secure) stdout.write(`    ${terminalLine(secure, 300)}\n`);
      }
    }
    for (const refused of connection.refusedTools) cli.stderr.write(`mcp-host: tool "${terminalText(refused.name)}" is not offered: ${refused.reason}\n`);
    return EXIT.ok;
  });
}
