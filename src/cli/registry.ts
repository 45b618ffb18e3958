// `mcp-host registry search|show|install`: an MCP Registry from the command line. Its own option table and
// parser, so `main` only hands it the words after `registry`.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { addServerEntry, serverNamesIn, uniqueServerName } from '../core/config';
import { readBoundedText } from '../core/io/boundedRead';
import { FILE_LIMITS } from '../core/io/limits';
import {
  DEFAULT_REGISTRY_URL, describeEntry, installKinds, installTargets, InstallError, planInstall, RegistryClient, RegistryError, RegistryPager,
  REGISTRY_LIMITS, type InstallTarget, type RegistryEntry,
} from '../core/registry';
import { CliError, EXIT } from './errors';
import { EXIT_CODES_HELP } from './help';
import { terminalLine, terminalText } from './terminal';

export const REGISTRY_USAGE = `  mcp-host registry search [TEXT] [--limit N] [--pages N] [--registry URL] [--json]
                                                          servers of an MCP Registry whose name has TEXT
  mcp-host registry show NAME [--version V] [--registry URL] [--json]
                                                          a server's details and how it installs
  mcp-host registry install NAME [--version V] [--from npm|pypi|oci|nuget|remote|http|sse] [--config FILE] [--as KEY]
                [--arg K=V ...] [--env K=SOURCE ...] [--registry URL] [--json]
                                                          write the server (its version pinned) into an mcp.json`;

export const REGISTRY_HELP = `usage:
${REGISTRY_USAGE}

Finds servers in an MCP Registry and writes one into an mcp.json.
  --registry URL   the registry (default ${DEFAULT_REGISTRY_URL})
  --limit N        servers per page (default ${REGISTRY_LIMITS.pageSize}, most ${REGISTRY_LIMITS.maxPageEntries})
  --pages N        pages to read (default 1, most ${REGISTRY_LIMITS.maxPages})
  --version V      the server's version (default latest); installs pin the package's own exact version
  --from KIND      which of the server's packages or remotes to install (default: the first the host can run;
                   http or sse: the remote of that transport)
  --config FILE    the mcp.json to write (default .vscode/mcp.json here; comments are kept)
  --as KEY         the server's name in the file (default: the last part of NAME, made unique)
  --arg K=V        an argument, header or URL variable K (as \`registry show\` names them)
  --env K=SOURCE   an environment variable: a value, env:NAME (written as \${env:NAME}), or input (asked at
                   the first start, kept as a secret). A secret is never written: it is an input unless
                   given as env:NAME.
  --json           print JSON for scripts

${EXIT_CODES_HELP}`;

/** A `registry` command line that does not make sense (exit 1). */
export class RegistryUsageError extends CliError {
  override readonly name = 'RegistryUsageError';
  constructor(message: string) { super(message, EXIT.usage); }
}

interface RegistryIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  cwd: string;
  interrupt?: AbortSignal;
}

interface RegistryArgs {
  action: string;
  positional: string[];
  registry: string;
  json: boolean;
  limit?: number;
  pages: number;
  version: string;
  from?: string;
  config?: string;
  as?: string;
  args: [string, string][];
  env: [string, string][];
}

const VALUE_OPTIONS = ['--registry', '--limit', '--pages', '--version', '--from', '--config', '--as', '--arg', '--env'];

function positiveInt(option: string, value: string, max: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new RegistryUsageError(`${option} takes a whole number from 1 to ${max}, not "${value}"`);
  return n;
}

function pair(option: string, value: string): [string, string] {
  const eq = value.indexOf('=');
  if (eq <= 0) throw new RegistryUsageError(`${option} takes K=V, not "${value}"`);
  return [value.slice(0, eq), value.slice(eq + 1)];
}

export function parseRegistryArgs(argv: readonly string[]): RegistryArgs {
  const a: RegistryArgs = { action: '', positional: [], registry: DEFAULT_REGISTRY_URL, json: false, pages: 1, version: 'latest', args: [], env: [] };
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--json') { a.json = true; continue; }
    const [option, inline] = word.startsWith('--') && word.includes('=') ? [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)] : [word, undefined];
    if (VALUE_OPTIONS.includes(option)) {
      const value = inline ?? argv[++i];
      if (value === undefined) throw new RegistryUsageError(`${option} needs a value`);
      switch (option) {
        case '--registry': a.registry = value; break;
        case '--limit': a.limit = positiveInt(option, value, REGISTRY_LIMITS.maxPageEntries); break;
        case '--pages': a.pages = positiveInt(option, value, REGISTRY_LIMITS.maxPages); break;
        case '--version': a.version = value; break;
        case '--from': a.from = value; break;
        case '--config': a.config = value; break;
        case '--as': a.as = value; break;
        case '--arg': a.args.push(pair(option, value)); break;
        case '--env': a.env.push(pair(option, value)); break;
      }
      continue;
    }
    if (word.startsWith('-') && word !== '-') throw new RegistryUsageError(`unknown option ${word} for registry`);
    if (!a.action) a.action = word;
    else a.positional.push(word);
  }
  return a;
}

function statusMark(entry: RegistryEntry): string {
  return entry.status === 'active' ? '' : ` [${entry.status.toUpperCase()}${entry.statusMessage ? `: ${entry.statusMessage}` : ''}]`;
}

/** Runs `registry …`; returns the exit code, throws RegistryUsageError (exit 1) or RegistryError/InstallError. */
export async function runRegistry(argv: readonly string[], io: RegistryIo): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) { io.stdout.write(`${REGISTRY_HELP}\n`); return 0; }
  const a = parseRegistryArgs(argv);
  if (!a.action) throw new RegistryUsageError(`registry takes search, show or install\n\n${REGISTRY_HELP}`);
  let client: RegistryClient;
  try {
    client = new RegistryClient(a.registry, { ...(io.interrupt ? { signal: io.interrupt } : {}) });
  } catch (e) {
    throw new RegistryUsageError(`--registry: ${(e as Error).message}`);
  }
  switch (a.action) {
    case 'search': return search(client, a, io);
    case 'show': return show(client, a, io);
    case 'install': return install(client, a, io);
    default: throw new RegistryUsageError(`registry takes search, show or install, not "${a.action}"`);
  }
}

async function search(client: RegistryClient, a: RegistryArgs, io: RegistryIo): Promise<number> {
  if (a.positional.length > 1) throw new RegistryUsageError('registry search takes one TEXT (quote it if it has spaces)');
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
    io.stdout.write(`${terminalLine(s.name)} ${terminalLine(s.version)}${statusMark(e)}  (${installKinds(s).map((k) => terminalLine(k)).join(', ') || 'nothing to install'})\n    ${terminalLine(s.description)}\n`);
  }
  if (entries.length === 0) io.stderr.write('mcp-host: no servers found\n');
  if (!pager.done) io.stderr.write(`mcp-host: more servers match; add --pages ${a.pages + 1} (or narrow the search)\n`);
  return 0;
}

function oneName(a: RegistryArgs, action: string): string {
  if (a.positional.length !== 1) throw new RegistryUsageError(`registry ${action} takes one NAME (as \`registry search\` lists it)`);
  return a.positional[0]!;
}

async function show(client: RegistryClient, a: RegistryArgs, io: RegistryIo): Promise<number> {
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
    lines.push('', `--from ${target.kind === 'unsupported' ? '(cannot install)' : target.kind}: ${target.label}${target.unsupported ? ` — ${target.unsupported}` : ''}`);
    if (target.unsupported) continue;
    try {
      const plan = planInstall(s, target);
      for (const f of plan.fields) {
        const option = f.kind === 'env' ? '--env' : '--arg';
        const i = f.input;
        const notes = [i.isRequired ? 'required' : 'optional', f.secret ? 'secret: asked at the first start' : undefined,
          i.default !== undefined ? `default ${i.default}` : undefined, i.choices ? `one of ${i.choices.join(', ')}` : undefined].filter(Boolean).join(', ');
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
  if (from) throw new RegistryUsageError(`--from ${from}: ${entry.server.name} offers ${offered}`);
  throw new InstallError(`${entry.server.name} has nothing the host can install: ${offered}`);
}

/** `--env K=SOURCE` as the value written: env:NAME -> ${env:NAME}, input -> the default secret input. */
function envSource(value: string): string | undefined {
  if (value === 'input') return undefined;
  const env = /^env:([A-Za-z_][A-Za-z0-9_]*)$/.exec(value);
  return env ? `\${env:${env[1]}}` : value;
}

async function install(client: RegistryClient, a: RegistryArgs, io: RegistryIo): Promise<number> {
  const entry = await client.getServer(oneName(a, 'install'), a.version);
  if (entry.status === 'deleted') throw new InstallError(`${entry.server.name} ${entry.server.version} was deleted from the registry`);
  if (entry.status === 'deprecated') io.stderr.write(`mcp-host: warning: ${terminalLine(entry.server.name)} is deprecated${entry.statusMessage ? `: ${terminalLine(entry.statusMessage)}` : ''}\n`);
  const plan = planInstall(entry.server, chooseTarget(entry, a.from));
  const values: Record<string, string> = {};
  for (const [k, v] of a.args) {
    const field = plan.fields.find((f) => f.key === k);
    if (field?.kind === 'env') throw new RegistryUsageError(`--arg ${k}: ${k} is an environment variable; give it with --env`);
    values[k] = v;
  }
  for (const [k, v] of a.env) {
    const field = plan.fields.find((f) => f.key === k);
    if (field && field.kind !== 'env') throw new RegistryUsageError(`--env ${k}: ${k} is not an environment variable; give it with --arg`);
    const value = envSource(v);
    if (value !== undefined) values[k] = value;
  }
  let built;
  try {
    built = plan.build(values);
  } catch (e) {
    if (e instanceof InstallError) throw new RegistryUsageError(`cannot install ${entry.server.name}: ${e.message}`);
    throw e;
  }
  const file = resolve(io.cwd, a.config ?? resolve('.vscode', 'mcp.json'));
  const text = existsSync(file) ? await readBoundedText(file, FILE_LIMITS.config, 'the config file') : '';
  const taken = serverNamesIn(text);
  if (a.as !== undefined && taken.includes(a.as)) throw new RegistryUsageError(`--as ${a.as}: ${file} already has a server named so`);
  const key = a.as ?? uniqueServerName(plan.suggestedName, taken);
  let updated: string;
  try {
    updated = addServerEntry(text, key, built.entry, built.inputs);
  } catch (e) {
    throw new RegistryUsageError(`${file}: ${(e as Error).message}`);
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, updated, 'utf8');
  if (a.json) {
    io.stdout.write(`${JSON.stringify({ name: entry.server.name, version: entry.server.version, status: entry.status, key, config: file, entry: built.entry, inputs: built.inputs }, null, 2)}\n`);
    return 0;
  }
  io.stdout.write(`${terminalLine(`Installed ${entry.server.name} ${entry.server.version} as "${key}" in ${file}:`)}\n  ${terminalText(describeEntry(built.entry))}\n`);
  for (const input of built.inputs) io.stdout.write(`  \${input:${input.id}} is asked at the first start (a secret)\n`);
  return 0;
}

export { RegistryError, InstallError };
