// TARGET: the server a command talks to, from --server NAME [--config FILE], --url URL or -- COMMAND [ARGS...].
import { basename, dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import {
  formatConfigError,
  inferHttpType,
  loadMcpConfig,
  resolveServer,
  UnresolvedInputError,
  type InputDefinition,
  type ResolvedServer,
  type ServerDefinition,
} from '../core/config';
import { sandboxPolicy } from '../core/sandbox';
import { CliError, EXIT } from './errors';
import { usageError, type ParsedArgs } from './options';
import { terminalText } from './terminal';

export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
  interactive: boolean;
  /** Where questions asked on the terminal are answered (default process.stdin). */
  stdin?: NodeJS.ReadableStream;
  /** Fires on Ctrl-C: the call in flight is cancelled. */
  interrupt?: AbortSignal;
}

export function defaultConfigPath(io: CliIo): string {
  return resolve(io.cwd, '.vscode', 'mcp.json');
}

/** The workspace folder a config file belongs to: the parent of `.vscode/`, else the current directory. */
function workspaceFolderFor(configFile: string, io: CliIo): string {
  const dir = dirname(configFile);
  return basename(dir) === '.vscode' ? dirname(dir) : io.cwd;
}

function envInputName(id: string): string {
  return `MCP_INPUT_${id.replace(/[^A-Za-z0-9_]/g, '_')}`;
}

async function promptInput(id: string, input: InputDefinition | undefined, io: CliIo): Promise<string | undefined> {
  const rl = createInterface({ input: process.stdin, output: io.stderr, terminal: true });
  try {
    const label = input?.description ? `${input.description} (${id})` : id;
    if (input?.type === 'pickString' && input.options?.length) {
      io.stderr.write(`${label}:\n${input.options.map((o, i) => `  ${i + 1}) ${o}`).join('\n')}\n`);
      const answer = (await rl.question(`choose 1-${input.options.length}${input.default ? ` [${input.default}]` : ''}: `)).trim();
      if (answer === '' && input.default) return input.default;
      return input.options[Number(answer) - 1] ?? (input.options.includes(answer) ? answer : undefined);
    }
    if (input?.password) {
      const output = rl as unknown as { _writeToOutput?: (s: string) => void };
      io.stderr.write(`${label}: `);
      output._writeToOutput = () => undefined;
      const answer = await rl.question('');
      io.stderr.write('\n');
      return answer === '' ? input.default : answer;
    }
    const answer = await rl.question(`${label}${input?.default ? ` [${input.default}]` : ''}: `);
    return answer === '' ? input?.default : answer;
  } finally {
    rl.close();
  }
}

/** Resolves TARGET into a server, reading the config and its `${input:…}` values when needed. */
export async function resolveTarget(a: ParsedArgs, io: CliIo): Promise<ResolvedServer> {
  const forms = [a.server !== undefined, a.url !== undefined, a.stdio !== undefined].filter(Boolean).length;
  if (forms === 0) throw usageError('give a TARGET: --server NAME, --url URL, or -- COMMAND [ARGS...]');
  if (forms > 1) throw usageError('give only one TARGET: --server, --url or -- COMMAND');
  if (a.config !== undefined && a.server === undefined) throw usageError('--config goes with --server');
  if (a.sandbox && a.url !== undefined) throw usageError('--sandbox runs a stdio server: give --server NAME or -- COMMAND, not --url');

  if (a.url !== undefined) {
    let url: URL;
    try {
      url = new URL(a.url);
    } catch {
      throw usageError(`--url is not a valid URL: ${a.url}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw usageError(`--url must be http or https (got ${url.protocol})`);
    return { name: url.host, transport: inferHttpType(a.url), url: a.url, headers: {} };
  }
  if (a.stdio !== undefined) {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(io.env)) if (v !== undefined) env[k] = v;
    const command = a.stdio[0]!;
    const sandbox = a.sandbox ? sandboxPolicy(undefined, { command, cwd: io.cwd, home: env.HOME }) : undefined;
    return { name: basename(command), transport: 'stdio', command, args: a.stdio.slice(1), env, cwd: io.cwd, ...(sandbox ? { sandbox } : {}) };
  }

  const file = resolve(io.cwd, a.config ?? defaultConfigPath(io));
  const config = await loadMcpConfig(file);
  for (const e of config.errors) io.stderr.write(`${terminalText(formatConfigError(e))}\n`);
  const found: ServerDefinition | undefined = config.servers.find((s) => s.name === a.server);
  if (a.sandbox && found && found.type !== 'stdio') throw usageError(`--sandbox runs a stdio server, and "${found.name}" is an ${found.type} server`);
  const def = a.sandbox && found?.type === 'stdio' ? { ...found, sandboxEnabled: true } : found;
  if (!def) {
    const names = config.servers.map((s) => s.name);
    throw new CliError(`no server named "${a.server}" in ${file}${names.length ? ` (servers: ${names.join(', ')})` : ''}`, EXIT.usage);
  }
  try {
    return await resolveServer(def, {
      workspaceFolder: workspaceFolderFor(file, io),
      env: io.env,
      inputs: config.inputs,
      resolveInput: async (id, input) => io.env[envInputName(id)] ?? (io.interactive ? promptInput(id, input, io) : undefined),
    });
  } catch (e) {
    if (e instanceof UnresolvedInputError) {
      throw new CliError(`server "${def.name}" needs the input "${e.inputId}": set ${envInputName(e.inputId)} or run on a terminal to be asked`, EXIT.usage);
    }
    throw new CliError((e as Error).message, EXIT.usage);
  }
}
