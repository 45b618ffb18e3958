// `mcp-host`: the connection core, headless. The command line and the exit codes are a contract:
//   0 ok; 1 usage error or input refused locally; 4 server could not start / be reached / died;
//   5 the tool reported isError, its structured content broke its output schema, a URL it required was
//   not visited, or the server answered with a JSON-RPC error.
// In text mode everything a server supplies is printed terminal-safe (control characters shown, not obeyed).
import { existsSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import type { Tool } from '@modelcontextprotocol/client';
import {
  formatConfigError, inferHttpType, loadMcpConfig, resolveServer, UnresolvedInputError,
  type InputDefinition, type ResolvedServer, type ServerDefinition,
} from '../core/config';
import {
  CallCancelledError, CallTimeoutError, NotRunningError, ServerConnection, ServerCrashedError, ServerRequestError,
  ServerStartError, isMcpLogLevel, type ElicitationHandler, type McpLogLevel, type SignInProvider,
} from '../core/connection';
import { offeredToUser, toolAppUri } from '../core/apps';
import { DEFAULT_UPLOAD_MAX_BYTES, URL_COMPLETION_TIMEOUT_MS, UrlElicitationIncompleteError } from '../core/elicitation';
import { errorText, InputRefusedError } from '../core/errors';
import { DEFAULT_MAX_DOWNLOAD_BYTES, formatBytes, redactDataUris } from '../core/files';
import { Logger, type LogLevel } from '../core/log';
import { callsAsTask, needsTasksExtension } from '../core/tasks';
import { RESULT_LIMITS, toResultView, writeNewFile, type ResultView } from '../core/results';
import { authorizeUploads, preparedArguments, resultViewOf, runPrompt, runTool, type RunHooks } from '../core/run';
import {
  applyAuthOption, AUTH_OPTIONS_HELP, cliOAuthProvider, describeSignIn, forgetTokens, isAuthFlagOption, isAuthValueOption, logout,
  newAuthArgs, SecretSourceError, tokenStoreFor, type CliAuthArgs,
} from './auth';
import { createCliElicitationHandler, URL_DONE_WAIT_MS } from './elicit';
import { cliFeatureOptions, completionRef, completionText, parseLogLevel, printServerLog } from './clientFeatures';
import { cliEncodeSettings, cliUploadReporter, describeFileSlots, fileOptionChoices, type FileOptionSettings } from './files';
import { commandHelp, generalHelp, VERSION } from './help';
import { callAsTask, taskCommand, TASK_ACTIONS, type TaskAction } from './tasks';
import { bindProcessLifetime } from './lifetime';
import { InstallError, RegistryError, RegistryUsageError, REGISTRY_USAGE, runRegistry } from './registry';
import { terminalLine, terminalText } from './terminal';
import {
  confirmUploads, digestProgressLines, downloadLimits, fileOutputLine, resourceFiles, resultOfItems, saveFileOutputs, saveResourceFile, TransferFailedError, uploadProgressLine,
} from './transfer';
import { parseJsonBounded } from '../core/io/json';
import { requestSizeProblem } from '../core/io/requestSize';
import { assertNever } from '../shared/assertNever';
import { commandSkills } from './skills';

export const EXIT = { ok: 0, usage: 1, server: 4, toolError: 5, interrupted: 130 } as const;

export const USAGE = `usage:
  mcp-host servers [--config FILE]                        list configured servers
  mcp-host tools [--json] TARGET                          list tools (name, title, description, file inputs, app)
  mcp-host call TOOL [--args JSON] [--file ARG=PATH ...] [--elicit decline|cancel|@answers.json]
                [--url-wait SECONDS] [--no-binary-uploads] [--no-file-transfer] [--inline-max BYTES]
                [--save-files DIR] [--max-download BYTES] [--no-wait] [--no-optional-tasks] [--timeout MS] [--json] [--verbose] TARGET
  mcp-host prompt NAME [--args JSON] [--json] TARGET      get a prompt: its messages, each under its role
  mcp-host resource read URI [--out FILE] [--save-files DIR] [--max-download BYTES] [--no-file-transfer] [--json] TARGET
                                                          read a resource (ui:// apps included): text to stdout,
                                                          or its bytes to a new FILE
  mcp-host login [AUTH OPTIONS] TARGET                    sign in to an HTTP server now (its old tokens are forgotten first)
  mcp-host logout TARGET                                  forget the server's tokens and client registrations
  mcp-host complete (--prompt NAME | --resource-template URI) ARG VALUE [--args JSON] [--json] TARGET
                                                          the server's suggestions for an argument (--args: those filled in)
  mcp-host task get|result|cancel ID [--json] TARGET      a task's status, its result (waits for it), or cancel it
  mcp-host skills [--json] TARGET                         list the server's skills (SEP-2640): name, description, files
  mcp-host skill get|read|ls SKILL [FILE|DIR] [--json] TARGET
                                                          load a skill (its SKILL.md), read one of its files, or list
                                                          a directory of it; each file verified against the listing
${REGISTRY_USAGE}
TARGET := --server NAME [--config FILE] | --url URL | -- COMMAND [ARGS...]   (the stdio form is last)
  --log-level LEVEL (any command with a TARGET): ask the server for its log messages from LEVEL up (debug, info,
    notice, warning, error, critical, alert, emergency) and print them to stderr.
  The current directory is offered to the server as its root.
  --sampling-command CMD (any command with a TARGET): a server's sampling request goes as JSON to CMD's stdin and
    its stdout, {"role":"assistant","content":{...},"model":"..."}, is the answer; without it sampling is declined.
  --config defaults to .vscode/mcp.json in the current directory.
  \${input:ID} in the config comes from the environment variable MCP_INPUT_<ID>, or a prompt on a terminal.
  --verbose prints the connection log (redacted) to stderr; MCP_HOST_LOG_LEVEL=trace adds the JSON-RPC traffic.
  --url-wait: with --elicit @answers.json, how long to wait for the server to report a required URL done
    before calling again anyway (default ${URL_DONE_WAIT_MS / 1000}).
  --no-binary-uploads: do not declare SEP-1306 binary elicitation (declared by default, ${formatBytes(DEFAULT_UPLOAD_MAX_BYTES)} per file).
  --no-file-transfer: do not declare SEP-2631 out-of-band transfer (files over the inline limit are then refused).
  --inline-max BYTES: where a file argument may go either way, files up to this size go inline and larger ones
    are uploaded (default and most: the transport's inline limit, so a server without uploads gets every file that fits).
  --save-files DIR: download the result's file outputs (a resource's files) into DIR (verified; existing files are
    never overwritten).
  --max-download BYTES: the most bytes saved of a file output whose size the server does not state (default
    ${formatBytes(DEFAULT_MAX_DOWNLOAD_BYTES)}); a download ends within --timeout, plus a second per MiB of a stated size.
${AUTH_OPTIONS_HELP}`;

/** An error that ends the command with a given exit code. */
export class CliError extends Error {
  constructor(message: string, readonly exitCode: number) { super(message); }
}

const usageError = (message: string) => new CliError(`${message}\n\n${USAGE}`, EXIT.usage);

export interface ParsedArgs {
  command: string;
  positional: string[];
  config?: string;
  server?: string;
  url?: string;
  stdio?: string[];
  args?: string;
  files: string[];
  elicit?: string;
  timeout?: number;
  /** --url-wait, in milliseconds. */
  urlWaitMs?: number;
  /** --out FILE: where `resource read` writes the resource's bytes. */
  out?: string;
  json: boolean;
  verbose: boolean;
  /** Declare SEP-1306 binary elicitation (off with --no-binary-uploads). */
  binaryUploads: boolean;
  /** Sampling requests go as JSON to this command's stdin; its stdout is the answer (declined without it). */
  samplingCommand?: string;
  /** call: print the task id instead of waiting for the task. */
  noWait: boolean;
  /** call: a tool that may run as a task is called plainly (one that requires a task still runs as one). */
  noOptionalTasks?: boolean;
  /** complete: --prompt NAME or --resource-template URI. */
  prompt?: string;
  resourceTemplate?: string;
  /** Declare SEP-2631 out-of-band transfer (off with --no-file-transfer). */
  fileTransfer: boolean;
  inlineMax?: number;
  saveFiles?: string;
  /** --max-download: the most bytes saved of a file output of no stated size. */
  maxDownload?: number;
  /** --log-level: the server's log messages from this level up are printed to stderr. */
  logLevel?: McpLogLevel;
  /** --help / -h: show the help of the command given (or the whole help) instead of running it. */
  help?: boolean;
  /** --version / -V */
  version?: boolean;
  /** OAuth sign-in options. */
  auth: CliAuthArgs;
}

const VALUE_OPTIONS = new Set([
  '--config', '--server', '--url', '--args', '--file', '--elicit', '--timeout', '--url-wait', '--inline-max', '--save-files', '--max-download', '--log-level', '--out',
  '--prompt', '--resource-template', '--sampling-command',
]);
const FLAG_OPTIONS = new Set(['--json', '--verbose', '--no-binary-uploads', '--no-file-transfer', '--no-wait', '--no-optional-tasks']);

export function parseArgs(argv: string[]): ParsedArgs {
  const dashdash = argv.indexOf('--');
  const head = dashdash === -1 ? argv : argv.slice(0, dashdash);
  const parsed: ParsedArgs = {
    command: '', positional: [], files: [], json: false, verbose: false, binaryUploads: true, fileTransfer: true, noWait: false, auth: newAuthArgs(),
  };
  if (dashdash !== -1) {
    parsed.stdio = argv.slice(dashdash + 1);
    if (parsed.stdio.length === 0) throw usageError('"--" must be followed by the command that starts the server');
  }
  for (let i = 0; i < head.length; i++) {
    const arg = head[i];
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq === -1 ? arg : arg.slice(0, eq);
    if (isAuthFlagOption(name) || isAuthValueOption(name)) {
      if (isAuthFlagOption(name) && eq !== -1) throw usageError(`${name} takes no value`);
      const value = isAuthFlagOption(name) ? undefined : eq !== -1 ? arg.slice(eq + 1) : head[++i];
      if (isAuthValueOption(name) && value === undefined) throw usageError(`${name} needs a value`);
      const problem = applyAuthOption(parsed.auth, name, value);
      if (problem) throw usageError(problem);
    } else if (FLAG_OPTIONS.has(name)) {
      if (eq !== -1) throw usageError(`${name} takes no value`);
      if (name === '--json') parsed.json = true;
      else if (name === '--verbose') parsed.verbose = true;
      else if (name === '--no-file-transfer') parsed.fileTransfer = false;
      else if (name === '--no-wait') parsed.noWait = true;
      else if (name === '--no-optional-tasks') parsed.noOptionalTasks = true;
      else parsed.binaryUploads = false;
    } else if (VALUE_OPTIONS.has(name)) {
      const value = eq !== -1 ? arg.slice(eq + 1) : head[++i];
      if (value === undefined) throw usageError(`${name} needs a value`);
      switch (name) {
        case '--config': parsed.config = value; break;
        case '--server': parsed.server = value; break;
        case '--url': parsed.url = value; break;
        case '--args': parsed.args = value; break;
        case '--file': parsed.files.push(value); break;
        case '--elicit': parsed.elicit = value; break;
        case '--prompt': parsed.prompt = value; break;
        case '--sampling-command': parsed.samplingCommand = value; break;
        case '--resource-template': parsed.resourceTemplate = value; break;
        case '--log-level': {
          const level = parseLogLevel(value);
          if (!isMcpLogLevel(level)) throw usageError(level);
          parsed.logLevel = level;
          break;
        }
        case '--out': parsed.out = value; break;
        case '--timeout': {
          const ms = Number(value);
          if (!Number.isInteger(ms) || ms <= 0) throw usageError(`--timeout must be a positive whole number of milliseconds (got "${value}")`);
          parsed.timeout = ms;
          break;
        }
        case '--save-files': parsed.saveFiles = value; break;
        case '--max-download': {
          const bytes = Number(value);
          if (value.trim() === '' || !Number.isInteger(bytes) || bytes < 1) throw usageError(`--max-download must be a whole number of bytes above 0 (got "${value}")`);
          parsed.maxDownload = bytes;
          break;
        }
        case '--inline-max': {
          const bytes = Number(value);
          if (value.trim() === '' || !Number.isInteger(bytes) || bytes < 1) throw usageError(`--inline-max must be a whole number of bytes above 0 (got "${value}")`);
          parsed.inlineMax = bytes;
          break;
        }
        case '--url-wait': {
          const seconds = Number(value);
          if (value.trim() === '' || !Number.isFinite(seconds) || seconds <= 0 || seconds * 1000 > URL_COMPLETION_TIMEOUT_MS) {
            throw usageError(`--url-wait must be a number of seconds above 0 and at most ${URL_COMPLETION_TIMEOUT_MS / 1000} (got "${value}")`);
          }
          parsed.urlWaitMs = Math.round(seconds * 1000);
          break;
        }
      }
    } else if (arg === '-h' || arg === '--help') {
      parsed.help = true;
    } else if (arg === '-V' || arg === '--version') {
      parsed.version = true;
    } else if (arg.startsWith('-')) {
      throw usageError(`unknown option ${arg}`);
    } else if (!parsed.command) {
      parsed.command = arg;
    } else {
      parsed.positional.push(arg);
    }
  }
  return parsed;
}

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

function defaultConfigPath(io: CliIo): string {
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

  if (a.url !== undefined) {
    let url: URL;
    try { url = new URL(a.url); } catch { throw usageError(`--url is not a valid URL: ${a.url}`); }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw usageError(`--url must be http or https (got ${url.protocol})`);
    return { name: url.host, transport: inferHttpType(a.url), url: a.url, headers: {} };
  }
  if (a.stdio !== undefined) {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(io.env)) if (v !== undefined) env[k] = v;
    return { name: basename(a.stdio[0]), transport: 'stdio', command: a.stdio[0], args: a.stdio.slice(1), env, cwd: io.cwd };
  }

  const file = resolve(io.cwd, a.config ?? defaultConfigPath(io));
  const config = await loadMcpConfig(file);
  for (const e of config.errors) io.stderr.write(`${terminalText(formatConfigError(e))}\n`);
  const def: ServerDefinition | undefined = config.servers.find((s) => s.name === a.server);
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

function makeLogger(a: ParsedArgs, io: CliIo): Logger {
  if (!a.verbose) return new Logger(() => undefined, 'error');
  const level: LogLevel = io.env.MCP_HOST_LOG_LEVEL === 'trace' ? 'trace' : 'debug';
  return new Logger((lvl, message) => io.stderr.write(`[${lvl}] ${terminalText(message)}\n`), level);
}

async function connect(server: ResolvedServer, log: Logger, elicitation: ElicitationHandler | undefined, timeoutMs?: number, binaryUploads = false, files = false,
  features?: { a: ParsedArgs; io: CliIo }, oauth?: SignInProvider) {
  const connection = new ServerConnection(server, {
    log, elicitation, requestTimeoutMs: timeoutMs, clientInfo: { name: 'mcp-host-cli', version: '0.1.0' }, stopGraceMs: 2000, oauth,
    capabilities: { binaryElicitation: binaryUploads ? { maxFileSize: DEFAULT_UPLOAD_MAX_BYTES } : false, files },
    ...(features ? cliFeatureOptions(features.io.cwd, features.a.logLevel, features.a.samplingCommand, features.io.env) : {}),
  });
  if (features) printServerLog(connection, features.a.logLevel, features.io.stderr);
  try {
    await connection.start();
  } catch (e) {
    throw new CliError(`cannot start server "${server.name}": ${(e as Error).message}`, EXIT.server);
  }
  return connection;
}

/** A result for a terminal: text as it is (terminal-safe), other items as one-line summaries. */
export function resultText(view: ResultView): string {
  const lines: string[] = [];
  const mime = (m: string | undefined) => (m ? ` (${m})` : '');
  for (const item of view.items) {
    // A prompt's message says whose it is first.
    if (item.role) lines.push(`${item.role}:`);
    switch (item.kind) {
      case 'text': case 'resourceText': lines.push(item.text); break;
      case 'image': case 'audio': lines.push(`[${item.kind} ${item.mimeType}, ${formatBytes(item.size)}]`); break;
      case 'resourceLink': lines.push(`[resource link ${item.uri}${mime(item.mimeType)}${item.name !== item.uri ? ` "${item.name}"` : ''}]`); break;
      case 'resourceBlob': lines.push(`[resource ${item.uri}${mime(item.mimeType)}, ${formatBytes(item.size)}]`); break;
      case 'fileOutput': lines.push(`[file ${item.name}${mime(item.mimeType)}${item.size !== undefined ? `, ${formatBytes(item.size)}` : ''}]`); break;
      case 'file': lines.push(fileOutputLine(item)); break;
      case 'unknown': lines.push(`[${item.type} content]`); break;
      default: assertNever(item, 'result item');
    }
  }
  if (!view.items.some((i) => i.kind !== 'fileOutput' && i.kind !== 'file') && view.structured?.json !== undefined) lines.push(view.structured.json);
  return terminalText(lines.join('\n'));
}

function toolLine(tool: Tool): string {
  const title = tool.title ?? tool.annotations?.title;
  const parts = [terminalLine(tool.name, 100)];
  if (title && title !== tool.name) parts.push(`(${terminalLine(title, 100)})`);
  if (tool.description) parts.push(`— ${terminalLine(tool.description, 200)}`);
  const app = toolAppUri(tool);
  if (app) parts.push(`[app ${terminalLine(app, 200)}]`);
  return parts.join('  ');
}

async function commandServers(a: ParsedArgs, io: CliIo): Promise<number> {
  if (a.positional.length) throw usageError(`unexpected argument ${a.positional[0]}`);
  const file = resolve(io.cwd, a.config ?? defaultConfigPath(io));
  const config = await loadMcpConfig(file);
  for (const s of config.servers) {
    const where = s.type === 'stdio' ? [s.command, ...s.args].join(' ') : s.url;
    io.stdout.write(`${terminalText(`${s.name}\t${s.type}\t${where}`)}\n`);
  }
  for (const e of config.errors) io.stderr.write(`${terminalText(formatConfigError(e))}\n`);
  if (config.servers.length === 0 && config.errors.length === 0) io.stderr.write(`no servers in ${file}\n`);
  return config.errors.length ? EXIT.usage : EXIT.ok;
}

async function commandTools(a: ParsedArgs, io: CliIo): Promise<number> {
  if (a.positional.length) throw usageError(`unexpected argument ${a.positional[0]}`);
  const server = await resolveTarget(a, io);
  const log = makeLogger(a, io);
  const connection = await connect(server, log, undefined, a.timeout, false, false, { a, io }, await signInFor(a, io, server, log));
  return withConnection(connection, io, async () => {
    if (a.json) {
      io.stdout.write(`${JSON.stringify(connection.tools, null, 2)}\n`);
    } else {
      // Tools only an app may call (visibility ["app"]) are not offered; --json lists everything.
      for (const tool of connection.tools.filter(offeredToUser)) {
        io.stdout.write(`${toolLine(tool)}\n`);
        for (const line of describeFileSlots(tool)) io.stdout.write(`    ${terminalLine(line, 300)}\n`);
      }
    }
    for (const refused of connection.refusedTools) io.stderr.write(`mcp-host: tool "${terminalText(refused.name)}" is not offered: ${refused.reason}\n`);
    return EXIT.ok;
  });
}

/**
 * Runs `work` on a started connection, then stops the server. A failure is reported before the stop, which
 * may take a moment (the server is given time to exit on its own).
 */
async function withConnection(connection: ServerConnection, io: CliIo, work: () => Promise<number>): Promise<number> {
  let code: number;
  try {
    code = await work();
  } catch (e) {
    code = report(e, io);
  }
  await connection.stop();
  return code;
}

/** `--args`: a JSON object (a tool's arguments, or a prompt's). */
function parseArgsOption(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try { value = parseJsonBounded(text); } catch (e) { throw usageError(`--args is not valid JSON: ${(e as Error).message}`); }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw usageError('--args must be a JSON object, e.g. --args \'{"text":"hi"}\'');
  return value as Record<string, unknown>;
}

/** The one name `call` (a tool) and `prompt` (a prompt) take. */
function singleName(a: ParsedArgs, what: 'tool' | 'prompt'): string {
  const [name, ...extra] = a.positional;
  if (!name) throw usageError(`${a.command} needs the name of a ${what}`);
  if (extra.length) throw usageError(`unexpected argument ${extra[0]}`);
  return name;
}

async function commandCall(a: ParsedArgs, io: CliIo): Promise<number> {
  const toolName = singleName(a, 'tool');
  const args = parseArgsOption(a.args);
  const server = await resolveTarget(a, io);
  const log = makeLogger(a, io);
  const transport = server.transport;
  // Refused before the server is even started when --args alone is too large.
  const argsTooLarge = requestSizeProblem(args, transport);
  if (argsTooLarge) throw new InputRefusedError(`--args: ${argsTooLarge}`);
  const transfer = a.fileTransfer ? { inlineUpToBytes: a.inlineMax } : false as const;
  const elicitation = createCliElicitationHandler(a.elicit, {
    interactive: io.interactive, transport, log, output: io.stderr, ...(io.stdin ? { input: io.stdin } : {}), binaryMaxFileSize: DEFAULT_UPLOAD_MAX_BYTES, urlWaitMs: a.urlWaitMs,
    limits: { transfer },
  });
  // Elicitation is declared only when it can be answered: an --elicit choice, or a terminal to ask on.
  const declared = a.elicit !== undefined || io.interactive;
  const connection = await connect(server, log, declared ? elicitation : undefined, a.timeout, declared && a.binaryUploads, a.fileTransfer, { a, io }, await signInFor(a, io, server, log));
  return withConnection(connection, io, async () => {
    // Some servers (server-everything) add tools right after the handshake and announce them with list_changed.
    if (!connection.tools.some((t) => t.name === toolName)) await connection.refreshTools().catch(() => undefined);
    const tool = connection.tools.find((t) => t.name === toolName);
    if (!tool) {
      const refused = connection.refusedTools.find((t) => t.name === toolName);
      if (refused) throw new CliError(`server "${server.name}" lists tool "${terminalText(toolName)}", but it is not offered: ${refused.reason}`, EXIT.usage);
      const names = connection.tools.map((t) => terminalLine(t.name, 100));
      throw new CliError(`server "${server.name}" has no tool "${toolName}"${names.length ? ` (tools: ${names.join(', ')})` : ''}`, EXIT.usage);
    }
    const inUse = connection.transportInUse ?? transport;
    const fileSettings: FileOptionSettings = {
      limits: { transfer },
      uploader: connection.files,
      ...(io.interrupt ? { signal: io.interrupt } : {}),
      uploadProgress: (name, size) => uploadProgressLine(io.stderr, io.interactive, name, size),
    };
    const files = await fileOptionChoices(tool, args, a.files, inUse, log, fileSettings);
    // A tool that runs as a task (required, or optional and the server supports it) is followed to its end.
    const asTask = callsAsTask(connection, tool, !a.noOptionalTasks);
    if (a.noWait && !asTask) throw new CliError(`--no-wait: "${terminalText(toolName)}" does not run as a task on this server`, EXIT.usage);
    const hooks: RunHooks = {
      elicitation: elicitation.ui,
      totalTimeoutMs: a.timeout,
      uploadProgress: () => cliUploadReporter(fileSettings.uploadProgress, io.interrupt),
      checkEncoded: (encoded) => {
        const tooLarge = requestSizeProblem(encoded, inUse);
        if (tooLarge) throw new InputRefusedError(`--args: ${tooLarge}`);
      },
      waitForRetry: elicitation.waitForRetry,
      signal: io.interrupt,
      timeoutMs: a.timeout,
      onProgress: (p) => log.info(`progress ${p.progress}${p.total !== undefined ? `/${p.total}` : ''}${p.message ? ` ${p.message}` : ''}`),
      encode: cliEncodeSettings(inUse, fileSettings),
    };
    // Uploads are authorized first, so where their bytes go is shown (and, on a terminal, asked) before any leave.
    const digesting = digestProgressLines(io.stderr, io.interactive);
    const uploads = await authorizeUploads(files.entries(), files.limits, connection.files, io.interrupt, digesting.onDigestBytes).finally(() => digesting.done());
    if (uploads && !(await confirmUploads(uploads, io, server.name, io.interrupt))) {
      uploads.abandon();
      throw new CliError('not sent: the uploads were not confirmed; nothing of the files left this machine and the tool was not called', EXIT.usage);
    }
    const request = { tool, input: { json: args }, files, ...(uploads ? { uploads } : {}) };
    // A -32042 error names URLs to visit first: they are offered like URL elicitations, then the call is retried.
    // The result is validated against the tool as listed then (a list_changed during the call re-lists first).
    const runAsTask = () => preparedArguments(connection, request, hooks).then(async (encoded) => {
      const taskResult = await callAsTask(connection, toolName, encoded, { noWait: a.noWait, signal: io.interrupt, timeoutMs: a.timeout, stdout: io.stdout, stderr: io.stderr });
      return taskResult && { result: taskResult, view: resultViewOf(connection, tool, taskResult) };
    });
    // A 2026-07-28 server that refuses a plain call without a task (-32021) gets it again as a task.
    const outcome = await (asTask ? runAsTask() : runTool(connection, request, hooks).catch((e: unknown) => {
      if (needsTasksExtension(e) && !elicitation.refusal) return runAsTask();
      throw e;
    })).catch((e: unknown) => { throw elicitation.refusal ?? e; });
    // An elicitation answer refused locally (the server got only `cancel`): exit 1 with the reason.
    if (elicitation.refusal) throw elicitation.refusal;
    if (!outcome) return EXIT.ok;  // --no-wait: the task id is printed
    const { result, view } = outcome;
    if (a.json) {
      io.stdout.write(`${JSON.stringify(withToolUi(result, tool), null, 2)}\n`);
    } else {
      const text = resultText(view);
      (view.isError ? io.stderr : io.stdout).write(text.endsWith('\n') || text === '' ? text : `${text}\n`);
      // Text over the display cap is shown in part (previews do not apply to a terminal).
      const notes = view.warnings.filter((w) => !/preview/.test(w));
      if (notes.length) io.stderr.write(`mcp-host: ${notes.join(' ')} --json prints the whole result.\n`);
    }
    if (a.saveFiles !== undefined) {
      for (const path of await saveFileOutputs(view, result, connection, resolve(io.cwd, a.saveFiles), io.interrupt, downloadLimits(a))) {
        io.stderr.write(`saved ${terminalText(path)}\n`);
      }
    }
    const structured = view.structured;
    for (const note of [...(structured?.status === 'unchecked' ? structured.errors ?? [] : []), ...(structured?.notes ?? [])]) io.stderr.write(`mcp-host: ${terminalText(note)}\n`);
    if (structured?.status === 'invalid' || structured?.status === 'missing') {
      const raw = structured.json ?? JSON.stringify(result, null, 2);
      io.stderr.write(`mcp-host: the result of "${terminalText(toolName)}" does not match its output schema:\n`);
      for (const e of structured.errors ?? []) io.stderr.write(`  ${terminalText(e)}\n`);
      io.stderr.write(`${structured.json !== undefined ? 'structured content' : 'result'}${structured.truncated ? ' (in part)' : ''}:\n${terminalText(redactDataUris(raw).slice(0, RESULT_LIMITS.textChars))}\n`);
      return EXIT.toolError;
    }
    return view.isError ? EXIT.toolError : EXIT.ok;
  });
}

/**
 * The result as received; for a tool with an app, its `_meta` also carries the tool's `ui` (the app's
 * `resourceUri`), so a script can read the app with `mcp-host resource read`. The result's own keys win.
 */
function withToolUi<R extends { _meta?: Record<string, unknown> }>(result: R, tool: Tool): R {
  const uri = toolAppUri(tool);
  if (!uri) return result;
  const ui = tool._meta?.ui && typeof tool._meta.ui === 'object' ? tool._meta.ui : { resourceUri: uri };
  return { ...result, _meta: { ui, ...result._meta } };
}

async function commandResource(a: ParsedArgs, io: CliIo): Promise<number> {
  const [verb, uri, ...extra] = a.positional;
  if (verb !== 'read') throw usageError(verb ? `unknown resource command "${verb}" (only "read")` : 'resource needs a command: read URI');
  if (!uri) throw usageError('resource read needs the URI of a resource');
  if (extra.length) throw usageError(`unexpected argument ${extra[0]}`);
  if (a.out !== undefined && a.json) throw usageError('--out and --json do not go together');
  const outPath = a.out === undefined ? undefined : resolve(io.cwd, a.out);
  if (outPath && existsSync(outPath)) throw new CliError(`--out: ${outPath} exists; give a new file (nothing is overwritten)`, EXIT.usage);
  const server = await resolveTarget(a, io);
  const log = makeLogger(a, io);
  const connection = await connect(server, log, undefined, a.timeout, false, a.fileTransfer, undefined, await signInFor(a, io, server, log));
  return withConnection(connection, io, async () => {
    const read = await connection.readResource(uri, { signal: io.interrupt, timeoutMs: a.timeout });
    if (a.json) { io.stdout.write(`${JSON.stringify(read, null, 2)}\n`); return EXIT.ok; }
    const contents = read.contents ?? [];
    // SEP-2631 FileResourceContents: the bytes are downloaded (verified) only for --out or --save-files.
    const files = resourceFiles(read);
    if (outPath) {
      if (contents.length !== 1) throw new CliError(`--out writes one content; ${terminalText(uri)} has ${contents.length} (use --json)`, EXIT.usage);
      if (files.length === 1) {
        await saveResourceFile(files[0]!, connection, outPath, io.interrupt, downloadLimits(a));
        io.stderr.write(`mcp-host: wrote ${terminalText(files[0]!.name)} to ${outPath}${files[0]!.digest ? ' (sha-256 verified)' : ''}\n`);
        return EXIT.ok;
      }
      const item = contents[0];
      const bytes = 'blob' in item && typeof item.blob === 'string' ? Buffer.from(item.blob, 'base64') : Buffer.from('text' in item ? String(item.text) : '', 'utf8');
      await writeNewFile(outPath, bytes);
      io.stderr.write(`mcp-host: wrote ${formatBytes(bytes.length)} to ${outPath}\n`);
      return EXIT.ok;
    }
    for (const item of contents) {
      if ('text' in item && typeof item.text === 'string') {
        io.stdout.write(item.text.endsWith('\n') ? terminalText(item.text) : `${terminalText(item.text)}\n`);
      } else if ('blob' in item && typeof item.blob === 'string') {
        const size = Math.floor(item.blob.length * 3 / 4);
        io.stdout.write(`${terminalText(`[resource ${item.uri}${item.mimeType ? ` (${item.mimeType})` : ''}, ${formatBytes(size)}]`)}\n`);
        io.stderr.write('mcp-host: binary content is not printed; --out FILE writes it\n');
      }
    }
    for (const file of files) io.stdout.write(`${terminalText(fileOutputLine(file))}\n`);
    if (a.saveFiles !== undefined) {
      for (const path of await saveFileOutputs(resultOfItems(files), {}, connection, resolve(io.cwd, a.saveFiles), io.interrupt, downloadLimits(a))) {
        io.stderr.write(`saved ${terminalText(path)}\n`);
      }
    } else if (files.length > 0) io.stderr.write('mcp-host: files are not downloaded; --save-files DIR or --out FILE saves them (verified)\n');
    return EXIT.ok;
  });
}

async function commandPrompt(a: ParsedArgs, io: CliIo): Promise<number> {
  const promptName = singleName(a, 'prompt');
  const args = parseArgsOption(a.args);
  const server = await resolveTarget(a, io);
  const log = makeLogger(a, io);
  const connection = await connect(server, log, undefined, a.timeout, false, false, { a, io }, await signInFor(a, io, server, log));
  return withConnection(connection, io, async () => {
    const prompt = connection.prompts.find((p) => p.name === promptName);
    if (!prompt) {
      const names = connection.prompts.map((p) => terminalLine(p.name, 100));
      throw new CliError(`server "${server.name}" has no prompt "${terminalText(promptName)}"${names.length ? ` (prompts: ${names.join(', ')})` : ''}`, EXIT.usage);
    }
    // Prompt arguments are strings; a missing required one is refused here rather than by the server.
    for (const [key, value] of Object.entries(args)) {
      if (typeof value !== 'string') throw new CliError(`--args: prompt arguments are strings ("${terminalText(key)}" is ${terminalText(JSON.stringify(value))})`, EXIT.usage);
    }
    const missing = (prompt.arguments ?? []).filter((arg) => arg.required && args[arg.name] === undefined);
    if (missing.length) {
      const named = missing.map((arg) => `"${terminalText(arg.name)}"${arg.description ? ` (${terminalLine(arg.description, 100)})` : ''}`);
      throw new CliError(`--args: the prompt "${terminalText(promptName)}" needs ${named.join(', ')}`, EXIT.usage);
    }
    const { answer, view } = await runPrompt(connection, promptName, { json: args }, { signal: io.interrupt, timeoutMs: a.timeout });
    if (a.json) {
      io.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
    } else {
      const text = resultText(view);
      io.stdout.write(text.endsWith('\n') || text === '' ? text : `${text}\n`);
    }
    return EXIT.ok;
  });
}

/** The OAuth provider for an HTTP server, signing in through the browser when the user can (`login` always). */
async function signInFor(a: ParsedArgs, io: CliIo, server: ResolvedServer, log: Logger) {
  return cliOAuthProvider(server, a.auth, io, log, tokenStoreFor(a.auth, io.env));
}

/** `login`: forgets the server's tokens (not its client registration), connects, and signs in on the way. */
async function commandLogin(a: ParsedArgs, io: CliIo): Promise<number> {
  if (a.positional.length) throw usageError(`unexpected argument ${a.positional[0]}`);
  const server = await resolveTarget(a, io);
  if (server.transport === 'stdio') throw usageError('login needs an HTTP server (--url or an http/sse entry in the config)');
  const store = tokenStoreFor(a.auth, io.env);
  await forgetTokens(store, server.url);
  const log = makeLogger(a, io);
  const connection = await connect(server, log, undefined, a.timeout, false, false, undefined, await cliOAuthProvider(server, a.auth, io, log, store, true));
  await connection.stop();
  io.stdout.write(`${await describeSignIn(store, server)}\n`);
  return EXIT.ok;
}

async function commandLogout(a: ParsedArgs, io: CliIo): Promise<number> {
  if (a.positional.length) throw usageError(`unexpected argument ${a.positional[0]}`);
  await logout(await resolveTarget(a, io), a.auth, io.env, io.stdout);
  return EXIT.ok;
}

async function commandComplete(a: ParsedArgs, io: CliIo): Promise<number> {
  const ref = completionRef(a);
  if (!ref) throw usageError('complete needs --prompt NAME or --resource-template URI (one of them)');
  const [argument, value, ...extra] = a.positional;
  if (argument === undefined || value === undefined) throw usageError('complete needs the argument\'s name and the value typed so far (it may be "")');
  if (extra.length) throw usageError(`unexpected argument ${extra[0]}`);
  const context = parseArgsOption(a.args);
  for (const [key, v] of Object.entries(context)) {
    if (typeof v !== 'string') throw new CliError(`--args: the arguments filled in are strings ("${terminalText(key)}" is ${terminalText(JSON.stringify(v))})`, EXIT.usage);
  }
  const server = await resolveTarget(a, io);
  const connection = await connect(server, makeLogger(a, io), undefined, a.timeout, false, false, { a, io });
  return withConnection(connection, io, async () => {
    if (!connection.supportsCompletions) throw new CliError(`server "${server.name}" offers no completions`, EXIT.toolError);
    const answer = await connection.complete({ ref, argument: { name: argument, value }, context: Object.keys(context).length ? context as Record<string, string> : undefined },
      { signal: io.interrupt, timeoutMs: a.timeout });
    io.stdout.write(completionText(answer, a.json));
    if (!a.json && answer.cut) io.stderr.write(`mcp-host: ${answer.cut}\n`);
    return EXIT.ok;
  });
}

async function commandTask(a: ParsedArgs, io: CliIo): Promise<number> {
  const [action, taskId, ...extra] = a.positional;
  if (!TASK_ACTIONS.includes(action as TaskAction) || !taskId) throw usageError('task needs get, result or cancel, then the task id');
  if (extra.length) throw usageError(`unexpected argument ${extra[0]}`);
  const server = await resolveTarget(a, io);
  const connection = await connect(server, makeLogger(a, io), undefined, a.timeout, false, false, { a, io });
  return withConnection(connection, io, async () => {
    const result = await taskCommand(connection, action as TaskAction, taskId, { json: a.json, signal: io.interrupt, timeoutMs: a.timeout, stdout: io.stdout });
    if (!result) return EXIT.ok;
    const view = toResultView(result);
    const text = a.json ? JSON.stringify(result, null, 2) : resultText(view);
    (view.isError ? io.stderr : io.stdout).write(text.endsWith('\n') || text === '' ? text : `${text}\n`);
    return view.isError ? EXIT.toolError : EXIT.ok;
  });
}

/** Runs one command; returns the exit code. Errors are written to `io.stderr`. */
export async function run(argv: string[], io: CliIo): Promise<number> {
  try {
    if (argv[0] === 'registry' || (argv[0] === 'help' && argv[1] === 'registry')) return await runRegistry(argv[0] === 'help' ? ['--help'] : argv.slice(1), io);
    const a = parseArgs(argv);
    if (a.version) { io.stdout.write(`${VERSION}\n`); return EXIT.ok; }
    if (a.help || a.command === 'help') return showHelp(a.command === 'help' ? a.positional[0] : a.command, io);
    switch (a.command) {
      case 'servers': return await commandServers(a, io);
      case 'tools': return await commandTools(a, io);
      case 'call': return await commandCall(a, io);
      case 'prompt': return await commandPrompt(a, io);
      case 'resource': return await commandResource(a, io);
      case 'complete': return await commandComplete(a, io);
      case 'task': return await commandTask(a, io);
      case 'skills': case 'skill': return await commandSkills(a, io, {
        connect: async () => {
          const server = await resolveTarget(a, io);
          const log = makeLogger(a, io);
          return connect(server, log, undefined, a.timeout, false, false, { a, io }, await signInFor(a, io, server, log));
        },
        withConnection, usageError, exit: EXIT,
      });
      case 'login': return await commandLogin(a, io);
      case 'logout': return await commandLogout(a, io);
      case '': throw usageError('give a command');
      default: throw usageError(`unknown command "${a.command}"`);
    }
  } catch (e) {
    return report(e, io);
  }
}

/** `mcp-host --help`, `mcp-host COMMAND --help`, `mcp-host help [COMMAND]`. */
function showHelp(command: string | undefined, io: CliIo): number {
  if (!command) {
    io.stdout.write(`${generalHelp(USAGE)}\n`);
    return EXIT.ok;
  }
  const help = commandHelp(USAGE, command);
  if (!help) throw usageError(`unknown command "${command}"`);
  io.stdout.write(`${help}\n`);
  return EXIT.ok;
}

/** Writes the error for the user and returns its exit code. */
function report(e: unknown, io: CliIo): number {
  const [message, code] = errorExit(e);
  const redacted = redactDataUris(message);
  const shown = redacted.length > MAX_ERROR_CHARS ? `${redacted.slice(0, MAX_ERROR_CHARS)}… (${redacted.length} characters)` : redacted;
  io.stderr.write(`mcp-host: ${terminalText(shown)}\n`);
  return code;
}

/** Error messages can carry whatever a server put in them: they are cut to this length. */
const MAX_ERROR_CHARS = 4000;

function errorExit(e: unknown): [string, number] {
  if (e instanceof CliError) return [e.message, e.exitCode];
  if (e instanceof RegistryUsageError || e instanceof InstallError) return [e.message, EXIT.usage];
  if (e instanceof RegistryError) return [e.message, EXIT.server];
  if (e instanceof InputRefusedError || e instanceof SecretSourceError) return [e.message, EXIT.usage];
  if (e instanceof ServerStartError || e instanceof ServerCrashedError || e instanceof NotRunningError) return [e.message, EXIT.server];
  if (e instanceof CallTimeoutError) return [e.message, EXIT.server];
  if (e instanceof CallCancelledError) return [e.message, EXIT.interrupted];
  if (e instanceof ServerRequestError || e instanceof UrlElicitationIncompleteError || e instanceof TransferFailedError) return [e.message, EXIT.toolError];
  return [errorText(e), EXIT.server];
}

if (require.main === module) {
  // Output piped into `head` and the like: stop quietly once the reader has gone.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => { if (e.code === 'EPIPE') process.exit(EXIT.ok); });
  // Ctrl-C (or the parent's death) cancels the call in flight (the server is told), stops the servers, exits 130.
  const interrupt = new AbortController();
  bindProcessLifetime(interrupt);
  void run(process.argv.slice(2), {
    stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd(),
    interactive: !!(process.stdin.isTTY && process.stderr.isTTY), interrupt: interrupt.signal,
  }).then((code) => {
    process.exitCode = code;
    // Once what was written has reached stdout and stderr (a pipe takes large output in pieces), leave even
    // if a handle (a lingering socket) is still open.
    const flushed = (stream: NodeJS.WriteStream) => new Promise<void>((resolve) => { stream.write('', () => resolve()); });
    void Promise.all([flushed(process.stdout), flushed(process.stderr)]).then(() => { setTimeout(() => process.exit(code), 50).unref(); });
  });
}
