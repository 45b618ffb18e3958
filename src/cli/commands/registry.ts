// `mcp-host registry search|show|install`: an MCP Registry from the command line (no server to connect to).
import {
  DEFAULT_REGISTRY_URL,
  describeEntry,
  installKinds,
  installTargets,
  InstallError,
  planInstall,
  RegistryClient,
  RegistryPager,
  type InstallTarget,
  type RegistryEntry,
} from '../../core/registry';
import { configToWrite, writeServer } from '../configWrite';
import { usageError, type ParsedArgs } from '../options';
import type { CliIo } from '../target';
import { terminalLine, terminalText } from '../terminal';
import { installBundleFromRegistry } from './bundle';

function statusMark(entry: RegistryEntry): string {
  return entry.status === 'active' ? '' : ` [${entry.status.toUpperCase()}${entry.statusMessage ? `: ${entry.statusMessage}` : ''}]`;
}

/** What a `registry` command line gives: its action, the words after it, and its options. */
export interface RegistryArgs {
  action: string;
  positional: string[];
  json: boolean;
  pages: number;
  limit?: number;
  version: string;
  from?: string;
  config?: string;
  as?: string;
  args: [string, string][];
  env: [string, string][];
}

/** Runs `registry …`; returns the exit code, throws a usage error (exit 1) or RegistryError/InstallError. */
export async function registryCommand(p: ParsedArgs, io: CliIo): Promise<number> {
  const [action, ...positional] = p.positional;
  if (!action) throw usageError('registry takes search, show or install');
  let client: RegistryClient;
  try {
    client = new RegistryClient(p.registry ?? DEFAULT_REGISTRY_URL, { ...(io.interrupt ? { signal: io.interrupt } : {}) });
  } catch (e) {
    throw usageError(`--registry: ${(e as Error).message}`);
  }
  const a: RegistryArgs = {
    action,
    positional,
    json: p.json === true,
    pages: p.pages ?? 1,
    version: p.serverVersion ?? 'latest',
    args: p.arg ?? [],
    env: p.env ?? [],
    ...(p.limit !== undefined ? { limit: p.limit } : {}),
    ...(p.from !== undefined ? { from: p.from } : {}),
    ...(p.config !== undefined ? { config: p.config } : {}),
    ...(p.as !== undefined ? { as: p.as } : {}),
  };
  switch (a.action) {
    case 'search':
      return search(client, a, io);
    case 'show':
      return show(client, a, io);
    case 'install':
      return install(client, a, io);
    default:
      throw usageError(`registry takes search, show or install, not "${a.action}"`);
  }
}

async function search(client: RegistryClient, a: RegistryArgs, io: CliIo): Promise<number> {
  if (a.positional.length > 1) throw usageError('registry search takes one TEXT (quote it if it has spaces)');
  const pager = new RegistryPager(client, a.positional[0] ?? '', a.pages, a.limit);
  const entries: RegistryEntry[] = [];
  const skipped: string[] = [];
  for (let n = 0; n < a.pages && !pager.done; n++) {
    const page = await pager.next();
    entries.push(...page.entries);
    skipped.push(...page.skipped);
  }
  for (const s of skipped) io.stderr.write(`mcp-host: left out an invalid entry: ${terminalLine(s)}\n`);
  if (a.json) {
    io.stdout.write(`${JSON.stringify({ servers: entries, more: !pager.done }, null, 2)}\n`);
    return 0;
  }
  for (const e of entries) {
    const s = e.server;
    io.stdout.write(
      `${terminalLine(s.name)} ${terminalLine(s.version)}${statusMark(e)}  (${
        installKinds(s)
          .map((k) => terminalLine(k))
          .join(', ') || 'nothing to install'
      })\n    ${terminalLine(s.description)}\n`,
    );
  }
  if (entries.length === 0) io.stderr.write('mcp-host: no servers found\n');
  if (!pager.done) io.stderr.write(`mcp-host: more servers match; add --pages ${a.pages + 1} (or narrow the search)\n`);
  return 0;
}

function oneName(a: RegistryArgs, action: string): string {
  if (a.positional.length !== 1) throw usageError(`registry ${action} takes one NAME (as \`registry search\` lists it)`);
  return a.positional[0]!;
}

async function show(client: RegistryClient, a: RegistryArgs, io: CliIo): Promise<number> {
  const entry = await client.getServer(oneName(a, 'show'), a.version);
  if (a.json) {
    io.stdout.write(`${JSON.stringify(entry, null, 2)}\n`);
    return 0;
  }
  const s = entry.server;
  const lines = [`${s.title ? `${s.title} — ` : ''}${s.name} ${s.version}${statusMark(entry)}`, s.description];
  if (s.repository) lines.push(`repository: ${s.repository.url}${s.repository.subfolder ? ` (${s.repository.subfolder})` : ''}`);
  if (s.websiteUrl) lines.push(`website: ${s.websiteUrl}`);
  for (const target of installTargets(s)) {
    lines.push(
      '',
      `--from ${target.kind === 'unsupported' ? '(cannot install)' : target.kind}: ${target.label}${target.unsupported ? ` — ${target.unsupported}` : ''}`,
    );
    if (target.unsupported) continue;
    try {
      const plan = planInstall(s, target);
      for (const f of plan.fields) {
        const option = f.kind === 'env' ? '--env' : '--arg';
        const i = f.input;
        const notes = [
          i.isRequired ? 'required' : 'optional',
          f.secret ? 'secret: asked at the first start' : undefined,
          i.default !== undefined ? `default ${i.default}` : undefined,
          i.choices ? `one of ${i.choices.join(', ')}` : undefined,
        ]
          .filter(Boolean)
          .join(', ');
        lines.push(`  ${option} ${f.key}=…  ${f.label}${i.description ? `: ${i.description}` : ''} (${notes})`);
      }
    } catch (e) {
      if (!(e instanceof InstallError)) throw e;
      lines.push(`  cannot install: ${e.message}`);
    }
  }
  io.stdout.write(`${lines.map((l) => terminalText(l)).join('\n')}\n`);
  return 0;
}

function chooseTarget(entry: RegistryEntry, from: string | undefined): InstallTarget {
  const targets = installTargets(entry.server);
  const runnable = targets.filter((t) => !t.unsupported);
  // `--from http` / `--from sse` pick a remote by its transport.
  const remoteType = from === 'http' ? 'streamable-http' : from;
  const pick = from ? runnable.find((t) => t.kind === from || (t.from === 'remote' && entry.server.remotes[t.index]!.type === remoteType)) : runnable[0];
  if (pick) return pick;
  const offered = targets.map((t) => (t.unsupported ? `${t.label} (${t.unsupported})` : t.kind)).join('; ') || 'no packages or remotes';
  if (from) throw usageError(`--from ${from}: ${entry.server.name} offers ${offered}`);
  throw new InstallError(`${entry.server.name} has nothing the host can install: ${offered}`);
}

/** `--env K=SOURCE` as the value written: env:NAME -> ${env:NAME}, input -> the default secret input. */
function envSource(value: string): string | undefined {
  if (value === 'input') return undefined;
  const env = /^env:([A-Za-z_][A-Za-z0-9_]*)$/.exec(value);
  return env ? `\${env:${env[1]}}` : value;
}

async function install(client: RegistryClient, a: RegistryArgs, io: CliIo): Promise<number> {
  const entry = await client.getServer(oneName(a, 'install'), a.version);
  if (entry.status === 'deleted') throw new InstallError(`${entry.server.name} ${entry.server.version} was deleted from the registry`);
  if (entry.status === 'deprecated')
    io.stderr.write(
      `mcp-host: warning: ${terminalLine(entry.server.name)} is deprecated${entry.statusMessage ? `: ${terminalLine(entry.statusMessage)}` : ''}\n`,
    );
  const target = chooseTarget(entry, a.from);
  if (target.kind === 'mcpb') return installBundleFromRegistry(entry, entry.server.packages[target.index]!, a, io);
  const plan = planInstall(entry.server, target);
  const values: Record<string, string> = {};
  for (const [k, v] of a.args) {
    const field = plan.fields.find((f) => f.key === k);
    if (field?.kind === 'env') throw usageError(`--arg ${k}: ${k} is an environment variable; give it with --env`);
    values[k] = v;
  }
  for (const [k, v] of a.env) {
    const field = plan.fields.find((f) => f.key === k);
    if (field && field.kind !== 'env') throw usageError(`--env ${k}: ${k} is not an environment variable; give it with --arg`);
    const value = envSource(v);
    if (value !== undefined) values[k] = value;
  }
  let built;
  try {
    built = plan.build(values);
  } catch (e) {
    if (e instanceof InstallError) throw usageError(`cannot install ${entry.server.name}: ${e.message}`);
    throw e;
  }
  const file = configToWrite(a.config, io);
  const key = await writeServer(file, plan.suggestedName, a.as, built.entry, built.inputs);
  if (a.json) {
    io.stdout.write(
      `${JSON.stringify({ name: entry.server.name, version: entry.server.version, status: entry.status, key, config: file, entry: built.entry, inputs: built.inputs }, null, 2)}\n`,
    );
    return 0;
  }
  io.stdout.write(
    `${terminalLine(`Installed ${entry.server.name} ${entry.server.version} as "${key}" in ${file}:`)}\n  ${terminalText(describeEntry(built.entry))}\n`,
  );
  for (const input of built.inputs) io.stdout.write(`  \${input:${input.id}} is asked at the first start (a secret)\n`);
  return 0;
}
