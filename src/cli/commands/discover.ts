// `mcp-host discover [SOURCE]`: the servers configured for other apps, read only.
import { homedir } from 'node:os';
import { DISCOVERY_SOURCES, discoverServers, isDiscoverySource, type DiscoveryContext, type DiscoverySourceId, type SourceResult } from '../../core/discovery';
import { describeDefinitionLine } from '../describe';
import { usageError, type ParsedArgs } from '../options';
import type { CliIo } from '../target';
import { terminalLine, terminalText } from '../terminal';

export function discoveryContext(io: CliIo): DiscoveryContext {
  return { home: io.env.HOME ?? io.env.USERPROFILE ?? homedir(), platform: process.platform, env: io.env, workspaceFolders: [io.cwd] };
}

export function sourceArg(word: string | undefined): DiscoverySourceId[] {
  if (word === undefined) return [...DISCOVERY_SOURCES];
  if (!isDiscoverySource(word)) throw usageError(`unknown source "${word}" (one of ${DISCOVERY_SOURCES.join(', ')})`);
  return [word];
}

export async function discoverCommand(a: ParsedArgs, io: CliIo): Promise<number> {
  if (a.positional.length > 1) throw usageError('discover takes at most one SOURCE');
  const results: SourceResult[] = await discoverServers(discoveryContext(io), sourceArg(a.positional[0]));
  if (a.json) {
    io.stdout.write(
      `${JSON.stringify(
        results.map((r) => ({ source: r.source, label: r.label, files: r.files, problems: r.problems, servers: r.servers.map((s) => s.definition) })),
        null,
        2,
      )}\n`,
    );
    return 0;
  }
  for (const r of results) {
    for (const problem of r.problems) io.stderr.write(`mcp-host: ${terminalLine(r.label)}: ${terminalLine(problem)}\n`);
    if (r.servers.length === 0) continue;
    io.stdout.write(`${terminalLine(`${r.label} (${r.source})`)}\n`);
    for (const s of r.servers) io.stdout.write(`  ${terminalText(`${s.definition.name}\t${s.definition.type}\t${describeDefinitionLine(s.definition)}`)}\n`);
  }
  if (results.every((r) => r.servers.length === 0)) io.stderr.write("mcp-host: no servers found in other apps' configurations\n");
  return 0;
}
