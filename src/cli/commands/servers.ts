// `mcp-host servers [--config FILE]`: the servers of an mcp.json.
import { resolve } from 'node:path';
import { formatConfigError, loadMcpConfig } from '../../core/config';
import { describeDefinitionLine } from '../describe';
import { EXIT } from '../errors';
import { usageError, type ParsedArgs } from '../options';
import { defaultConfigPath, type CliIo } from '../target';
import { terminalText } from '../terminal';

export async function serversCommand(a: ParsedArgs, io: CliIo): Promise<number> {
  if (a.positional.length) throw usageError(`unexpected argument ${a.positional[0]}`);
  const file = resolve(io.cwd, a.config ?? defaultConfigPath(io));
  const config = await loadMcpConfig(file);
  for (const s of config.servers) {
    io.stdout.write(`${terminalText(`${s.name}\t${s.type}\t${describeDefinitionLine(s)}`)}\n`);
  }
  for (const e of config.errors) io.stderr.write(`${terminalText(formatConfigError(e))}\n`);
  if (config.servers.length === 0 && config.errors.length === 0) io.stderr.write(`no servers in ${file}\n`);
  return config.errors.length ? EXIT.usage : EXIT.ok;
}
