// The command line of `mcp-host`, declared once: the commands and the option table. The parser, the types of
// what it parses, the usage text and each command's help all come from these two tables, so an option added
// here is parsed, typed and documented at once (and the option test of the CLI proves it has an effect).
import { isMcpLogLevel, type McpLogLevel } from '../core/connection';
import { DEFAULT_UPLOAD_MAX_BYTES, URL_COMPLETION_TIMEOUT_MS } from '../core/elicitation';
import { DEFAULT_MAX_DOWNLOAD_BYTES, formatBytes } from '../core/files';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../core/io/limits';
import { OAUTH_GRANTS, SIGN_IN_TIMEOUT_MS, type OAuthGrant } from '../core/auth';
import { DEFAULT_REGISTRY_URL, REGISTRY_LIMITS } from '../core/registry';
import { parseLogLevel } from './clientFeatures';
import { URL_DONE_WAIT_MS } from './elicit';
import { EXIT, CliError } from './errors';
import { HostError } from '../core/errors';

export const COMMAND_NAMES = [
  'servers',
  'tools',
  'call',
  'prompt',
  'resource',
  'login',
  'logout',
  'complete',
  'task',
  'skills',
  'skill',
  'registry',
  'bundle',
  'discover',
  'import',
  'export',
  'run',
] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

/** The commands that talk to a server (TARGET) and connect to it with the connection options. */
export const CONNECTING: readonly CommandName[] = ['tools', 'call', 'prompt', 'resource', 'complete', 'task', 'skills', 'skill', 'login'];
const TARGETED: readonly CommandName[] = [...CONNECTING, 'logout'];
/** The commands that find, install and carry servers: no server to connect to; some read or write an mcp.json. */
export const CARRYING: readonly CommandName[] = ['registry', 'bundle', 'discover', 'import', 'export'];

/**
 * Where an option belongs: `target` names the server, `connection` shapes the connection every connecting
 * command opens the same way (capabilities, time limit, logging), `auth` is the sign-in (part of the
 * connection), `command` is one command's own.
 */
type OptionGroup = 'target' | 'connection' | 'auth' | 'command';

interface OptionSpec<K extends string = string, T = unknown, G extends OptionGroup = OptionGroup> {
  /** `--json`. */
  readonly name: string;
  /** The value's placeholder in the usage (`MS`); absent for a flag. */
  readonly value?: string;
  /** The field of the parsed options. */
  readonly key: K;
  /** A flag's value, or the option's value checked (throws a message for a bad one). */
  readonly parse: (value: string) => T;
  /** Given more than once, every value is kept (in order). */
  readonly repeat?: true;
  readonly group: G;
  /** The commands that take it (they list it in their help). */
  readonly commands: readonly CommandName[];
  /** What it does, for the help: the first line is shown next to the option, the others below it. */
  readonly help: string;
}

const flag = <K extends string, G extends OptionGroup>(
  name: string,
  key: K,
  group: G,
  commands: readonly CommandName[],
  help: string,
): OptionSpec<K, true, G> => ({ name, key, parse: () => true, group, commands, help });
const value = <K extends string, G extends OptionGroup, T = string>(
  name: string,
  placeholder: string,
  key: K,
  group: G,
  commands: readonly CommandName[],
  help: string,
  parse: (value: string) => T = (v) => v as T,
): OptionSpec<K, T, G> => ({ name, value: placeholder, key, parse, group, commands, help });

class OptionValueError extends HostError {
  static override readonly brand: string = 'OptionValueError';
}
const bad = (message: string): never => {
  throw new OptionValueError(message);
};

const positiveMs = (v: string) => {
  const ms = Number(v);
  return Number.isInteger(ms) && ms > 0 ? ms : bad(`--timeout must be a positive whole number of milliseconds (got "${v}")`);
};
const urlWaitMs = (v: string) => {
  const seconds = Number(v);
  if (v.trim() === '' || !Number.isFinite(seconds) || seconds <= 0 || seconds * 1000 > URL_COMPLETION_TIMEOUT_MS) {
    bad(`--url-wait must be a number of seconds above 0 and at most ${URL_COMPLETION_TIMEOUT_MS / 1000} (got "${v}")`);
  }
  return Math.round(seconds * 1000);
};
const inlineMax = (v: string) => {
  const bytes = Number(v);
  return v.trim() !== '' && Number.isInteger(bytes) && bytes >= 1 ? bytes : bad(`--inline-max must be a whole number of bytes above 0 (got "${v}")`);
};
const maxDownload = (v: string) => {
  const bytes = Number(v);
  return v.trim() !== '' && Number.isInteger(bytes) && bytes >= 1 ? bytes : bad(`--max-download must be a whole number of bytes above 0 (got "${v}")`);
};
/** The longest wait --sign-in-timeout allows (an hour). */
const MAX_SIGN_IN_TIMEOUT_S = 3600;
const signInTimeout = (v: string) =>
  /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= MAX_SIGN_IN_TIMEOUT_S
    ? Number(v)
    : bad(`--sign-in-timeout takes whole seconds from 1 to ${MAX_SIGN_IN_TIMEOUT_S} (got "${v}")`);
const logLevel = (v: string): McpLogLevel => {
  const level = parseLogLevel(v);
  return isMcpLogLevel(level) ? level : bad(level);
};
const secretSource = (name: string) => (v: string) =>
  /^(env|file):./.test(v) ? v : bad(`${name} takes env:NAME or file:PATH, not the value itself (a secret on the command line is visible to other users)`);
const httpUrl = (name: string) => (v: string) => {
  let url: URL | undefined;
  try {
    url = new URL(v);
  } catch {
    bad(`${name} is not a valid URL: ${v}`);
  }
  return url!.protocol === 'https:' || url!.protocol === 'http:' ? v : bad(`${name} must be an https URL (got ${url!.protocol})`);
};
const wholeNumber = (name: string, max: number) => (v: string) =>
  /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= max ? Number(v) : bad(`${name} takes a whole number from 1 to ${max} (got "${v}")`);
const keyValue =
  (name: string) =>
  (v: string): [string, string] => {
    const eq = v.indexOf('=');
    return eq > 0 ? [v.slice(0, eq), v.slice(eq + 1)] : bad(`${name} takes K=V (got "${v}")`);
  };
const sha256 = (v: string) => (/^[0-9a-fA-F]{64}$/.test(v) ? v.toLowerCase() : bad(`--sha256 takes 64 hex digits (got "${v.slice(0, 80)}")`));
const parallel = (v: string) =>
  /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= MAX_PARALLEL
    ? Number(v)
    : bad(`--parallel takes a whole number of calls from 1 to ${MAX_PARALLEL} (got "${v}")`);
const MAX_PARALLEL = 16;
const argSource = (name: string) => (v: string) =>
  /^[^=]+=(env|file):./.test(v) ? v : bad(`${name} takes ARG=env:NAME or ARG=file:PATH, not the value itself (got "${v.replace(/=.*/, '=…')}")`);
const grant = (v: string): OAuthGrant =>
  OAUTH_GRANTS.includes(v as OAuthGrant) ? (v as OAuthGrant) : bad(`--grant must be one of ${OAUTH_GRANTS.join(', ')} (got "${v}")`);

const secureArgOption = (v: string) =>
  v.indexOf('=') > 0 ? v : bad(`--secure-arg takes NAME=SOURCE (a value, env:NAME or file:PATH), got "${v.slice(0, 100)}"`);

const SIGN_IN: readonly CommandName[] = CONNECTING;

/** Every option of `mcp-host`, in the order the help shows them. */
export const OPTIONS = [
  value(
    '--config',
    'FILE',
    'config',
    'target',
    ['servers', ...TARGETED, 'registry', 'bundle', 'import', 'export', 'run'],
    'the mcp.json to read (registry, bundle, import: to write; comments are kept)\n(default: .vscode/mcp.json in the current directory; run: the mcp.json beside FILE)',
  ),
  value('--server', 'NAME', 'server', 'target', TARGETED, 'a server of the mcp.json'),
  value('--url', 'URL', 'url', 'target', TARGETED, 'a Streamable HTTP server (a URL ending in /sse: legacy HTTP+SSE)'),
  flag(
    '--sandbox',
    'sandbox',
    'target',
    CONNECTING,
    'run the stdio server (--server or -- COMMAND) in the sandbox, as "sandboxEnabled": true\n' +
      'does in mcp.json; what it is refused is printed to stderr with the entry that allows it',
  ),

  value('--args', 'JSON', 'args', 'command', ['call', 'prompt', 'complete'], "the arguments, a JSON object (a prompt's, and complete's context: strings)"),
  {
    ...value('--file', 'ARG=PATH', 'files', 'command', ['call', 'prompt'], 'read a local file into the file argument ARG (repeat for more)'),
    repeat: true as const,
  },
  value(
    '--secure-args',
    'JSON',
    'secureArgs',
    'command',
    ['call'],
    'the tool\'s secure values (SEP-3221 secureArguments: set by the host, never by a\nmodel), a JSON object; over the server\'s "secureArguments" in mcp.json',
  ),
  {
    ...value(
      '--secure-arg',
      'NAME=SOURCE',
      'secureArg',
      'command',
      ['call'],
      'one secure value: a value, env:NAME or file:PATH (secrets, format password or\nwriteOnly, only from env: or file:); repeat for more',
      secureArgOption,
    ),
    repeat: true as const,
  },
  {
    ...value(
      '--secret',
      'ARG=SOURCE',
      'secrets',
      'command',
      ['call'],
      'set the argument ARG to a secret read from env:NAME or file:PATH (kept out\nof logs and of --record)',
      argSource('--secret'),
    ),
    repeat: true as const,
  },
  value(
    '--record',
    'FILE',
    'record',
    'command',
    ['call'],
    'append the call to the saved-calls FILE (files by path and sha-256,\nsecrets as env: sources), which the run command runs again',
  ),
  flag('--expect-current', 'expectCurrent', 'command', ['call'], 'with --record, expect the result this call got (outcome, structured\ncontent or text)'),
  { ...value('--only', 'NAME', 'only', 'command', ['run'], 'run only the saved call NAME (repeat for more)'), repeat: true as const },
  value('--junit', 'PATH', 'junit', 'command', ['run'], 'also write a JUnit XML report to PATH'),
  value('--parallel', 'N', 'parallel', 'command', ['run'], `run up to N calls at once (default 1, at most ${MAX_PARALLEL})`, parallel),
  value(
    '--inline-max',
    'BYTES',
    'inlineMax',
    'command',
    ['call'],
    'where a file argument may go either way, files up to this size go inline\n' +
      "and larger ones are uploaded (default and most: the transport's inline limit,\nso a server without uploads gets every file that fits)",
    inlineMax,
  ),
  value(
    '--url-wait',
    'SECONDS',
    'urlWaitMs',
    'command',
    ['call'],
    `with --elicit @answers.json, how long to wait for the server to report a\nrequired URL done before calling again anyway (default ${URL_DONE_WAIT_MS / 1000})`,
    urlWaitMs,
  ),
  value(
    '--out',
    'FILE',
    'out',
    'command',
    ['resource', 'export'],
    "write the resource's bytes to FILE, a new file (a named file: downloaded and verified);\nexport: write the servers to FILE (replaced) instead of stdout",
  ),
  value(
    '--save-files',
    'DIR',
    'saveFiles',
    'command',
    ['call', 'resource'],
    "download the result's file outputs (a resource's files) into DIR\n(verified; existing files are never overwritten)",
  ),
  value(
    '--max-download',
    'BYTES',
    'maxDownload',
    'command',
    ['call', 'resource'],
    `the most bytes saved of a file output whose size the server does not state\n(default ${formatBytes(DEFAULT_MAX_DOWNLOAD_BYTES)}); a download ends within --timeout, plus a second\nper MiB of a stated size`,
    maxDownload,
  ),
  flag(
    '--no-wait',
    'noWait',
    'command',
    ['call'],
    'a tool that runs as a task: print the task id instead of following the task\n' +
      "(without it, the task's status goes to stderr until its result is printed)",
  ),
  flag(
    '--no-optional-tasks',
    'noOptionalTasks',
    'command',
    ['call'],
    'call a tool that may run as a task (taskSupport "optional"; any tool of a server\n' +
      'with the Tasks extension) plainly; one that requires a task still runs as one',
  ),
  value('--prompt', 'NAME', 'prompt', 'command', ['complete'], 'the prompt whose argument ARG is completed'),
  value('--resource-template', 'URI', 'resourceTemplate', 'command', ['complete'], 'the resource template whose variable ARG is completed'),
  flag(
    '--json',
    'json',
    'command',
    ['tools', 'call', 'prompt', 'resource', 'complete', 'task', 'skills', 'skill', 'registry', 'bundle', 'discover', 'import', 'run'],
    'print what the server answered (registry, bundle, discover, import: what was found or\nwritten), as JSON',
  ),
  value('--registry', 'URL', 'registry', 'command', ['registry'], `the MCP Registry (default ${DEFAULT_REGISTRY_URL})`),
  value(
    '--limit',
    'N',
    'limit',
    'command',
    ['registry'],
    `servers per page (default ${REGISTRY_LIMITS.pageSize}, most ${REGISTRY_LIMITS.maxPageEntries})`,
    wholeNumber('--limit', REGISTRY_LIMITS.maxPageEntries),
  ),
  value(
    '--pages',
    'N',
    'pages',
    'command',
    ['registry'],
    `pages to read (default 1, most ${REGISTRY_LIMITS.maxPages})`,
    wholeNumber('--pages', REGISTRY_LIMITS.maxPages),
  ),
  value(
    '--server-version',
    'V',
    'serverVersion',
    'command',
    ['registry'],
    "the server's version (default latest); installs pin the package's own exact version",
  ),
  value(
    '--from',
    'KIND',
    'from',
    'command',
    ['registry'],
    "which of the server's packages or remotes to install: npm, pypi, oci, nuget,\n" + 'mcpb, remote, http or sse (default: the first the host can run)',
  ),
  value('--as', 'KEY', 'as', 'command', ['registry', 'bundle', 'import'], "the server's name in the file (default: its own name, made unique)"),
  {
    ...value(
      '--arg',
      'K=V',
      'arg',
      'command',
      ['registry', 'bundle'],
      'a value the server takes: an argument, header or URL variable K (as\n' + "`registry show` names them); a bundle's user_config K",
      keyValue('--arg'),
    ),
    repeat: true as const,
  },
  {
    ...value(
      '--env',
      'K=SOURCE',
      'env',
      'command',
      ['registry'],
      'an environment variable: a value, env:NAME (written as ${env:NAME}), or input\n' +
        '(asked at the first start, kept as a secret); a secret is never written: it\nis an input unless given as env:NAME',
      keyValue('--env'),
    ),
    repeat: true as const,
  },
  value('--sha256', 'HEX', 'sha256', 'command', ['bundle'], "the bundle's expected sha-256: checked before anything is unpacked", sha256),

  value(
    '--timeout',
    'MS',
    'timeoutMs',
    'connection',
    [...CONNECTING, 'run'],
    `give up on the server after this long: starting it, and each request\n(a call; a task: the whole wait, then tasks/cancel; default ${DEFAULT_REQUEST_TIMEOUT_MS / 60_000} min;\nrun: 10 minutes a call when not given)`,
    positiveMs,
  ),
  flag('--verbose', 'verbose', 'connection', CONNECTING, 'print the connection log (redacted) to stderr; MCP_HOST_LOG_LEVEL=trace\nadds the JSON-RPC traffic'),
  value(
    '--log-level',
    'LEVEL',
    'logLevel',
    'connection',
    CONNECTING,
    'ask the server for its log messages from LEVEL up (debug, info, notice, warning,\n' + 'error, critical, alert, emergency) and print them to stderr',
    logLevel,
  ),
  value(
    '--elicit',
    'decline|cancel|@answers.json',
    'elicit',
    'connection',
    CONNECTING,
    "declare elicitation and answer the server's questions so, or from a file:\n" +
      '{"action":"accept","content":{...},"files":{"field":"path"},\n "allowUploadOrigins":[...]}\n' +
      '(without it, elicitation is declared only on a terminal, where each\nquestion is prompted)',
  ),
  value(
    '--sampling-command',
    'CMD',
    'samplingCommand',
    'connection',
    CONNECTING,
    "declare sampling: a server's sampling request goes as JSON to CMD's stdin\n" +
      'and its stdout, {"role":"assistant","content":{...},"model":"..."}, is the\nanswer (without it, sampling is not declared)',
  ),
  flag(
    '--no-binary-uploads',
    'noBinaryUploads',
    'connection',
    CONNECTING,
    `with elicitation declared, do not declare SEP-1306 binary elicitation\n(declared by default, ${formatBytes(DEFAULT_UPLOAD_MAX_BYTES)} per file)`,
  ),
  flag(
    '--no-file-transfer',
    'noFileTransfer',
    'connection',
    CONNECTING,
    'do not declare SEP-2631 out-of-band file transfer (files over the inline\nlimit are then refused, files a server names cannot be downloaded)',
  ),

  value('--client-id', 'ID', 'clientId', 'auth', SIGN_IN, "a client registered in advance with the server's authorization server"),
  value(
    '--client-secret',
    'SOURCE',
    'clientSecret',
    'auth',
    SIGN_IN,
    'its secret; SOURCE is env:NAME or file:PATH (never the value itself)',
    secretSource('--client-secret'),
  ),
  value(
    '--private-key',
    'SOURCE',
    'privateKey',
    'auth',
    SIGN_IN,
    'a PEM private key for private_key_jwt client authentication\n(env:NAME or file:PATH)',
    secretSource('--private-key'),
  ),
  value('--signing-alg', 'ALG', 'signingAlg', 'auth', SIGN_IN, "the private key's JWS algorithm (default ES256)"),
  value(
    '--issuer',
    'URL',
    'issuer',
    'auth',
    SIGN_IN,
    'the authorization server the client id belongs to (its credentials go to no other)',
    httpUrl('--issuer'),
  ),
  value('--scope', '"A B"', 'scope', 'auth', SIGN_IN, 'the scopes to ask for (default: what the server asks for or advertises)'),
  value(
    '--grant',
    'GRANT',
    'grant',
    'auth',
    SIGN_IN,
    'authorization_code (default: browser sign-in), client_credentials (machine\n' +
      'to machine, with a secret or private key), jwt_bearer (workload identity:\n--assertion), enterprise (enterprise-managed authorization: --idp-* options)',
    grant,
  ),
  value('--assertion', 'SOURCE', 'assertion', 'auth', SIGN_IN, "the workload's JWT for jwt_bearer (env:NAME or file:PATH)", secretSource('--assertion')),
  value(
    '--idp-id-token',
    'SOURCE',
    'idpIdToken',
    'auth',
    SIGN_IN,
    "enterprise: the ID token from your organisation's identity provider\n(env:NAME or file:PATH)",
    secretSource('--idp-id-token'),
  ),
  value('--idp-issuer', 'URL', 'idpIssuer', 'auth', SIGN_IN, 'enterprise: the identity provider where the ID token is exchanged', httpUrl('--idp-issuer')),
  value('--idp-token-endpoint', 'URL', 'idpTokenEndpoint', 'auth', SIGN_IN, 'enterprise: or its token endpoint', httpUrl('--idp-token-endpoint')),
  value('--idp-client-id', 'ID', 'idpClientId', 'auth', SIGN_IN, 'enterprise: this client at the identity provider'),
  value(
    '--idp-client-secret',
    'SOURCE',
    'idpClientSecret',
    'auth',
    SIGN_IN,
    'enterprise: its secret (env:NAME or file:PATH)',
    secretSource('--idp-client-secret'),
  ),
  value(
    '--client-metadata-url',
    'URL',
    'clientMetadataUrl',
    'auth',
    SIGN_IN,
    "the HTTPS URL where you publish this client's metadata document (Client ID\nMetadata Documents); used only when it serves that document, otherwise the\nCLI registers",
    httpUrl('--client-metadata-url'),
  ),
  flag('--sign-in', 'signIn', 'auth', SIGN_IN, 'sign in through the browser when a server asks, even without a terminal'),
  value(
    '--sign-in-timeout',
    'SECONDS',
    'signInTimeoutS',
    'auth',
    SIGN_IN,
    `how long a browser sign-in waits for the redirect back (default ${SIGN_IN_TIMEOUT_MS / 1000},\nat most ${MAX_SIGN_IN_TIMEOUT_S})`,
    signInTimeout,
  ),
  flag(
    '--no-token-store',
    'noTokenStore',
    'auth',
    [...SIGN_IN, 'logout'],
    'keep tokens for this run only (default:\n$XDG_CONFIG_HOME/mcp-host/tokens.json, mode 0600)',
  ),
] as const;

type Spec = (typeof OPTIONS)[number];
type KeysOf<G extends OptionGroup> = Extract<Spec, { group: G }>['key'];
type ValueOf<S> = S extends { repeat: true; parse: (v: string) => infer T } ? T[] : S extends { parse: (v: string) => infer T } ? T : never;

/** Every option's value, by its key (absent: not given). */
export type OptionValues = { -readonly [S in Spec as S['key']]?: ValueOf<S> };
/** The sign-in options (`--client-id` … `--no-token-store`). */
export type AuthOptions = Pick<OptionValues, KeysOf<'auth'>>;
/** What every connecting command opens its connection with: the same options give the same capabilities. */
export type ConnectionOptionValues = Pick<OptionValues, KeysOf<'connection'> | KeysOf<'auth'>>;

export interface ParsedArgs extends OptionValues {
  command: string;
  positional: string[];
  /** After `--`: the command that starts a stdio server. */
  stdio?: string[];
  /** The options given, by name (`--json`), to check them against the command. */
  given: string[];
  help?: boolean;
  version?: boolean;
}

/** The commands: what they take besides options, and one line about them. */
export const COMMANDS: Record<CommandName, { operands: string; summary: string }> = {
  servers: { operands: '', summary: 'list configured servers' },
  tools: { operands: '', summary: 'list tools (name, title, description, file inputs, app)' },
  call: { operands: 'TOOL', summary: 'call a tool and print its result' },
  prompt: { operands: 'NAME', summary: 'get a prompt: its messages, each under its role' },
  resource: { operands: 'read URI', summary: 'read a resource (ui:// apps included): text to stdout, or its bytes to a new FILE' },
  login: { operands: '', summary: 'sign in to an HTTP server now (its old tokens are forgotten first)' },
  logout: { operands: '', summary: "forget the server's tokens and client registrations" },
  complete: { operands: '(--prompt NAME | --resource-template URI) ARG VALUE', summary: "the server's suggestions for an argument (--args: those filled in)" },
  task: { operands: 'get|result|cancel ID', summary: "a task's status, its result (waits for it), or cancel it" },
  skills: { operands: '', summary: "list the server's skills (SEP-2640): name, description, files" },
  run: { operands: 'FILE', summary: 'run the saved calls of FILE and check their expectations: a line per call with what differed; exit 5 when one failed' },
  skill: {
    operands: 'get|read|ls SKILL [FILE|DIR]',
    summary: 'load a skill (its SKILL.md), read one of its files, or list a directory of it; each file verified against the listing',
  },
  registry: {
    operands: 'search [TEXT] | show NAME | install NAME',
    summary: 'find servers in an MCP Registry; show one; write one (its version pinned) into an mcp.json',
  },
  bundle: { operands: 'install FILE', summary: 'install an MCP Bundle (.mcpb): checked, unpacked into the data folder, its entry written' },
  discover: { operands: '[SOURCE]', summary: 'list the servers configured for other apps (read only)' },
  import: { operands: 'SOURCE|FILE [NAME...]', summary: 'copy servers of another app (or of a standard mcp.json) into an mcp.json, secrets as inputs' },
  export: { operands: '[NAME...]', summary: 'print the servers as the standard client mcp.json (SEP-2633), inputs as placeholders' },
};

const specOf = (name: string): Spec | undefined => OPTIONS.find((o) => o.name === name);
export const optionsOf = (command: CommandName, group?: OptionGroup): Spec[] =>
  OPTIONS.filter((o) => (o.commands as readonly string[]).includes(command) && (group === undefined || o.group === group));

const usageForm = (o: Spec) => ('value' in o ? `${o.name} ${o.value}` : o.name);

/** `mcp-host call TOOL [--args JSON] ... [OPTIONS] TARGET`: the command's own options in brackets. */
export function synopsis(command: CommandName): string {
  const c = COMMANDS[command];
  const own = optionsOf(command, 'command')
    .filter((o) => !c.operands.includes(o.name))
    .map((o) => `[${usageForm(o)}${'repeat' in o ? ' ...' : ''}]`);
  const tail =
    command === 'servers'
      ? ['[--config FILE]']
      : CARRYING.includes(command)
        ? optionsOf(command, 'target').map((o) => `[${usageForm(o)}]`)
        : command === 'run'
          ? ['[--config FILE]', '[--timeout MS]']
          : command === 'logout'
            ? ['[--no-token-store]', 'TARGET']
            : CONNECTING.includes(command)
              ? ['[OPTIONS]', 'TARGET']
              : ['TARGET'];
  return ['mcp-host', command, ...(c.operands ? [c.operands] : []), ...own, ...tail].join(' ');
}

/** Option lines of the help: the option and its placeholder, then what it does (further lines indented). */
export function optionLines(specs: readonly Spec[]): string {
  const width = Math.min(32, Math.max(...specs.map((o) => usageForm(o).length)) + 2);
  return specs
    .map((o) => {
      const form = usageForm(o);
      const [first, ...more] = o.help.split('\n');
      const head = form.length + 2 > width ? `  ${form}\n  ${' '.repeat(width)}${first}` : `  ${form.padEnd(width)}${first}`;
      return [head, ...more.map((l) => `  ${' '.repeat(width)}${l}`)].join('\n');
    })
    .join('\n');
}

/** The commands, one synopsis each (wrapped), and the options shared by every command that connects. */
export const USAGE = `usage:
${COMMAND_NAMES.map((c) => wrap(`  ${synopsis(c)}`, 116, '                ') + `\n      ${COMMANDS[c].summary}`).join('\n')}
TARGET := --server NAME [--config FILE] | --url URL | -- COMMAND [ARGS...]   (the stdio form is last)
OPTIONS (every command with [OPTIONS]; the same options declare the same capabilities, whatever the command):
${optionLines(OPTIONS.filter((o) => o.group === 'connection'))}
  The current directory is offered to the server as its root.
  --config defaults to .vscode/mcp.json in the current directory.
  \${input:ID} in the config comes from the environment variable MCP_INPUT_<ID>, or a prompt on a terminal.
AUTH OPTIONS (every command with [OPTIONS]), for HTTP servers that ask for an OAuth sign-in:
${optionLines(OPTIONS.filter((o) => o.group === 'auth'))}
  The sign-in page opens with the command in $BROWSER when it is set; otherwise its URL is printed. Only an
  https URL (or http to this machine) is ever opened or printed.`;

export function wrap(line: string, width: number, indent: string): string {
  const out: string[] = [];
  let current = '';
  for (const word of line.match(/\[[^\]]*\]|\([^)]*\)|\S+|^\s+/g) ?? []) {
    if (current.trim() !== '' && current.length + 1 + word.length > width) {
      out.push(current);
      current = indent + word;
    } else current = current === '' || /^\s+$/.test(current) ? current + word : `${current} ${word}`;
  }
  if (current) out.push(current);
  return out.join('\n');
}

export const usageError = (message: string) => new CliError(`${message}\n\n${USAGE}`, EXIT.usage);

/** Parses the command line; a bad option or value is a usage error, so is an option the command does not take. */
export function parseArgs(argv: string[]): ParsedArgs {
  const dashdash = argv.indexOf('--');
  const head = dashdash === -1 ? argv : argv.slice(0, dashdash);
  const parsed: ParsedArgs = { command: '', positional: [], given: [] };
  const values = parsed as unknown as Record<string, unknown>;
  if (dashdash !== -1) {
    parsed.stdio = argv.slice(dashdash + 1);
    if (parsed.stdio.length === 0) throw usageError('"--" must be followed by the command that starts the server');
  }
  for (let i = 0; i < head.length; i++) {
    const arg = head[i]!;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq === -1 ? arg : arg.slice(0, eq);
    const spec = specOf(name);
    if (spec) {
      const isFlag = !('value' in spec);
      if (isFlag && eq !== -1) throw usageError(`${name} takes no value`);
      const text = isFlag ? '' : eq !== -1 ? arg.slice(eq + 1) : head[++i];
      if (text === undefined) throw usageError(`${name} needs a value`);
      let v: unknown;
      try {
        v = spec.parse(text);
      } catch (e) {
        throw e instanceof OptionValueError ? usageError(e.message) : e;
      }
      if ('repeat' in spec) values[spec.key] = [...((values[spec.key] as unknown[] | undefined) ?? []), v];
      else values[spec.key] = v;
      parsed.given.push(name);
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

/** An option the command does not take is refused rather than silently ignored. */
export function checkOptionsOf(command: CommandName, a: ParsedArgs): void {
  for (const name of a.given) {
    if (!(specOf(name)!.commands as readonly string[]).includes(command)) throw usageError(`${command} does not take ${name}`);
  }
  if (a.stdio && !TARGETED.includes(command)) throw usageError(`${command} takes no server command after "--"`);
}

export const isCommand = (name: string): name is CommandName => (COMMAND_NAMES as readonly string[]).includes(name);
