// `mcp-host export [NAME...]`: the servers of an mcp.json as the standard client mcp.json (SEP-2633), to stdout
// or --out FILE. Inputs stay placeholders; their values are never looked up.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { formatConfigError, loadMcpConfig } from '../../core/config';
import { exportStandard, standardText } from '../../core/discovery';
import { EXIT } from '../errors';
import { usageError, type ParsedArgs } from '../options';
import { defaultConfigPath, type CliIo } from '../target';
import { terminalLine, terminalText } from '../terminal';

export async function exportCommand(a: ParsedArgs, io: CliIo): Promise<number> {
  const file = resolve(io.cwd, a.config ?? defaultConfigPath(io));
  const config = await loadMcpConfig(file);
  for (const e of config.errors) io.stderr.write(`${terminalText(formatConfigError(e))}\n`);
  const names = a.positional;
  const missing = names.filter((n) => !config.servers.some((s) => s.name === n));
  if (missing.length) throw usageError(`${file} has no server ${missing.join(', ')}`);
  const chosen = names.length ? config.servers.filter((s) => names.includes(s.name)) : config.servers;
  if (chosen.length === 0) throw usageError(`${file} has no servers to export`);
  const result = exportStandard(chosen);
  for (const note of result.notes) io.stderr.write(`mcp-host: ${terminalLine(note)}\n`);
  const text = standardText(result);
  if (a.out !== undefined) {
    const out = resolve(io.cwd, a.out);
    writeFileSync(out, text, 'utf8');
    io.stderr.write(`mcp-host: ${terminalLine(`wrote ${chosen.length} server${chosen.length === 1 ? '' : 's'} to ${out}`)}\n`);
  } else io.stdout.write(text);
  return config.errors.length ? EXIT.usage : EXIT.ok;
}
