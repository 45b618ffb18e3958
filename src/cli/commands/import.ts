// `mcp-host import SOURCE|FILE [NAME...]`: servers of another app (or of a standard mcp.json) copied into an
// mcp.json, each value that looks secret turned into a password input instead of being copied.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseMcpConfig, type InputDefinition, type ServerDefinition } from '../../core/config';
import { discoverServers, importEntry, isDiscoverySource } from '../../core/discovery';
import { readBoundedText } from '../../core/io/boundedRead';
import { FILE_LIMITS } from '../../core/io/limits';
import { configToWrite, writeServer } from '../configWrite';
import { usageError, type ParsedArgs } from '../options';
import type { CliIo } from '../target';
import { terminalLine } from '../terminal';
import { discoveryContext } from './discover';

/** The servers (and declared inputs) of a source or a file. */
async function serversFrom(from: string, io: CliIo): Promise<{ servers: ServerDefinition[]; inputs: InputDefinition[]; problems: string[] }> {
  if (isDiscoverySource(from)) {
    const [result] = await discoverServers(discoveryContext(io), [from]);
    return { servers: result!.servers.map((s) => s.definition), inputs: [], problems: result!.problems };
  }
  const file = resolve(io.cwd, from);
  if (!existsSync(file)) throw usageError(`"${from}" is neither a source (claudeDesktop, claudeCode, cursor, windsurf, copilotCli, codex) nor a file`);
  const parsed = parseMcpConfig(await readBoundedText(file, FILE_LIMITS.config, 'the file to import'), file);
  return { servers: parsed.servers, inputs: parsed.inputs, problems: parsed.errors.map((e) => `${e.line}:${e.column} ${e.message}`) };
}

export async function importCommand(a: ParsedArgs, io: CliIo): Promise<number> {
  const [from, ...names] = a.positional;
  if (!from) throw usageError('import takes SOURCE or FILE, then the NAMEs of the servers (default: all)');
  if (a.as !== undefined && names.length !== 1) throw usageError('--as names one server: give one NAME with it');
  const { servers, inputs, problems } = await serversFrom(from, io);
  for (const p of problems) io.stderr.write(`mcp-host: ${terminalLine(p)}\n`);
  const missing = names.filter((n) => !servers.some((s) => s.name === n));
  if (missing.length) throw usageError(`${from} has no server ${missing.join(', ')} (it has ${servers.map((s) => s.name).join(', ') || 'none'})`);
  const chosen = names.length ? servers.filter((s) => names.includes(s.name)) : servers;
  if (chosen.length === 0) throw usageError(`${from} has no servers to import`);
  const file = configToWrite(a.config, io);
  const written: { name: string; key: string; secrets: string[] }[] = [];
  for (const def of chosen) {
    const imported = importEntry(def, inputs);
    const key = await writeServer(file, def.name, a.as, imported.entry, imported.inputs);
    written.push({ name: def.name, key, secrets: imported.secrets });
  }
  if (a.json) {
    io.stdout.write(`${JSON.stringify({ config: file, servers: written }, null, 2)}\n`);
    return 0;
  }
  for (const w of written) {
    io.stdout.write(`${terminalLine(`Imported "${w.name}" as "${w.key}" into ${file}`)}\n`);
    if (w.secrets.length) io.stdout.write(`  ${terminalLine(`not copied (asked at the first start, kept as secrets): ${w.secrets.join(', ')}`)}\n`);
  }
  return 0;
}
