import { findNodeAtLocation, getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { FileReadError, readBoundedText, readBoundedTextSync } from '../io/boundedRead';
import { lineColumns, tooDeepAt } from '../io/json';
import { setOwn } from '../io/own';
import { FILE_LIMITS, MAX_JSON_DEPTH, MAX_REPORTED_CONFIG_ERRORS } from '../io/limits';
import { withSecureArguments } from '../secureParams/config';
import type { ConfigError, InputDefinition, ParsedConfig, ServerDefinition } from './types';
import { parseDevMode } from '../dev';
import { mergeSandboxBlocks, parseSandboxBlock, type SandboxConfig } from './sandbox';

const SYNTAX_MESSAGES: Partial<Record<string, string>> = {
  InvalidSymbol: 'invalid symbol',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'property name expected',
  ValueExpected: 'value expected',
  ColonExpected: 'colon expected',
  CommaExpected: 'comma expected',
  CloseBraceExpected: 'closing brace expected',
  CloseBracketExpected: 'closing bracket expected',
  EndOfFileExpected: 'end of file expected',
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfComment: 'unterminated comment',
};

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `http` unless the URL's path ends in `/sse` (the legacy HTTP+SSE endpoint convention). */
export function inferHttpType(url: string): 'http' | 'sse' {
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    /* keep the raw string */
  }
  return /\/sse\/?$/i.test(path) ? 'sse' : 'http';
}

const HTTP_ALIASES: Record<string, 'http' | 'sse'> = {
  http: 'http',
  'streamable-http': 'http',
  streamableHttp: 'http',
  sse: 'sse',
};

/** Validates one server entry; returns the definition or a message saying what is wrong. */
function toServer(name: string, raw: unknown, file: string, topSandbox?: SandboxConfig | string): ServerDefinition | string {
  if (!isRecord(raw)) return `server "${name}" must be an object`;
  const declared = raw.type;
  if (declared !== undefined && typeof declared !== 'string') return `server "${name}": "type" must be a string`;
  const type = declared === undefined ? (raw.url !== undefined ? 'url' : 'stdio') : declared;
  const stdio = type === 'stdio' || (declared === undefined && raw.command !== undefined);
  const dev = raw.dev === undefined ? undefined : parseDevMode(name, raw.dev, stdio);
  if (typeof dev === 'string') return dev;

  if (stdio) {
    if (typeof raw.command !== 'string' || raw.command.trim() === '') return `server "${name}": "command" must be a non-empty string`;
    const args = raw.args ?? [];
    if (!Array.isArray(args) || !args.every((a) => typeof a === 'string' || typeof a === 'number')) {
      return `server "${name}": "args" must be an array of strings`;
    }
    const env: Record<string, string | null> = {};
    if (raw.env !== undefined) {
      if (!isRecord(raw.env)) return `server "${name}": "env" must be an object`;
      for (const [k, v] of Object.entries(raw.env)) {
        if (v === null) setOwn(env, k, null);
        else if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') setOwn(env, k, String(v));
        else return `server "${name}": env "${k}" must be a string, a number or null`;
      }
    }
    for (const key of ['envFile', 'cwd'] as const) {
      if (raw[key] !== undefined && typeof raw[key] !== 'string') return `server "${name}": "${key}" must be a string`;
    }
    if (raw.sandboxEnabled !== undefined && typeof raw.sandboxEnabled !== 'boolean') return `server "${name}": "sandboxEnabled" must be true or false`;
    const own = raw.sandbox === undefined ? undefined : parseSandboxBlock(raw.sandbox, `server "${name}": `);
    if (typeof own === 'string') return own;
    // A sandboxed server does not start with less than the file asked for.
    if (typeof topSandbox === 'string') {
      if (raw.sandboxEnabled === true) return `server "${name}" is sandboxed and the file's ${topSandbox}`;
      topSandbox = undefined;
    }
    const sandbox = mergeSandboxBlocks(topSandbox, own);
    return {
      name,
      file,
      type: 'stdio',
      command: raw.command,
      args: args.map(String),
      env,
      envFile: raw.envFile as string | undefined,
      cwd: raw.cwd as string | undefined,
      ...(dev ? { dev } : {}),
      ...(raw.sandboxEnabled === true ? { sandboxEnabled: true } : {}),
      ...(sandbox ? { sandbox } : {}),
    };
  }

  const httpType = type === 'url' || !Object.hasOwn(HTTP_ALIASES, type) ? undefined : HTTP_ALIASES[type];
  if (type !== 'url' && !httpType) return `server "${name}": unknown type "${type}" (expected "stdio", "http" or "sse")`;
  if (typeof raw.url !== 'string' || raw.url.trim() === '') return `server "${name}": "url" must be a non-empty string`;
  const headers: Record<string, string> = {};
  if (raw.headers !== undefined) {
    if (!isRecord(raw.headers)) return `server "${name}": "headers" must be an object`;
    for (const [k, v] of Object.entries(raw.headers)) {
      if (typeof v !== 'string' && typeof v !== 'number') return `server "${name}": header "${k}" must be a string`;
      setOwn(headers, k, String(v));
    }
  }
  let oauth: Record<string, string> | undefined;
  if (raw.oauth !== undefined) {
    if (!isRecord(raw.oauth)) return `server "${name}": "oauth" must be an object`;
    oauth = {};
    for (const [k, v] of Object.entries(raw.oauth)) {
      if (!OAUTH_KEYS.has(k)) return `server "${name}": unknown "oauth" key "${k}" (expected ${[...OAUTH_KEYS].join(', ')})`;
      if (typeof v !== 'string') return `server "${name}": oauth "${k}" must be a string`;
      oauth[k] = v;
    }
  }
  // A url ending in /sse is the legacy endpoint even when declared "http": Streamable HTTP is not tried there.
  return { name, file, type: httpType === 'sse' ? 'sse' : inferHttpType(raw.url), url: raw.url, headers, ...(oauth ? { oauth } : {}), ...(dev ? { dev } : {}) };
}

const INPUT_TYPES = new Set(['promptString', 'pickString', 'command']);
/** The keys of a server's `oauth` object (a pre-registered client). */
const OAUTH_KEYS = new Set(['clientId', 'clientSecret', 'scope', 'clientMetadataUrl', 'issuer']);

function toInput(raw: unknown): InputDefinition | string {
  if (!isRecord(raw)) return 'each input must be an object';
  if (typeof raw.id !== 'string' || raw.id === '') return 'input "id" must be a non-empty string';
  const type = raw.type ?? 'promptString';
  if (typeof type !== 'string' || !INPUT_TYPES.has(type)) return `input "${raw.id}": unknown type "${String(type)}"`;
  if (type === 'pickString' && (!Array.isArray(raw.options) || !raw.options.every((o) => typeof o === 'string'))) {
    return `input "${raw.id}": pickString needs "options", an array of strings`;
  }
  return {
    id: raw.id,
    type: type as InputDefinition['type'],
    description: typeof raw.description === 'string' ? raw.description : undefined,
    default: typeof raw.default === 'string' ? raw.default : undefined,
    password: raw.password === true,
    options: Array.isArray(raw.options) ? (raw.options as string[]) : undefined,
    command: typeof raw.command === 'string' ? raw.command : undefined,
    args: raw.args,
  };
}

/**
 * Parses an mcp.json text (JSONC): VS Code's `servers` + `inputs`, or Claude-style `mcpServers`.
 * A syntax error loads no server from this file; a bad server entry skips only that server.
 */
export function parseMcpConfig(text: string, file: string): ParsedConfig {
  // A leading byte order mark is not content (VS Code reads such files too).
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const found: Array<{ offset: number; message: string; server?: string }> = [];
  const errorAt = (offset: number, message: string, server?: string) => {
    found.push({ offset, message, server });
  };
  // Line and column of every error in one pass; past the first few, only how many more there are.
  const result = (servers: ServerDefinition[], inputs: InputDefinition[]): ParsedConfig => {
    const shown = found.slice(0, MAX_REPORTED_CONFIG_ERRORS);
    const positions = lineColumns(
      text,
      shown.map((e) => e.offset),
    );
    const errors: ConfigError[] = shown.map((e, i) => ({ file, ...positions[i]!, message: e.message, server: e.server }));
    if (found.length > shown.length) {
      const last = errors[errors.length - 1]!;
      errors.push({ file, line: last.line, column: last.column, message: `and ${found.length - shown.length} more errors` });
    }
    return { servers, inputs, errors };
  };

  // jsonc-parser's parser recurses: deep nesting would overflow the stack.
  const tooDeep = tooDeepAt(text, MAX_JSON_DEPTH, true);
  if (tooDeep !== undefined) {
    errorAt(tooDeep, `nested too deeply (more than ${MAX_JSON_DEPTH} levels)`);
    return result([], []);
  }
  const syntax: ParseError[] = [];
  const root = parseTree(text, syntax, { allowTrailingComma: true, disallowComments: false });
  if (syntax.length > 0) {
    for (const e of syntax) {
      const code = printParseErrorCode(e.error);
      errorAt(e.offset, Object.hasOwn(SYNTAX_MESSAGES, code) ? SYNTAX_MESSAGES[code]! : code);
    }
    return result([], []);
  }
  if (!root || root.type !== 'object') {
    if (text.trim() !== '') errorAt(root?.offset ?? 0, 'the file must hold a JSON object');
    return result([], []);
  }

  const sandboxNode = findNodeAtLocation(root, ['sandbox']);
  const topSandbox = sandboxNode ? parseSandboxBlock(getNodeValue(sandboxNode), '') : undefined;
  if (sandboxNode && typeof topSandbox === 'string') errorAt(sandboxNode.offset, topSandbox);
  const servers: ServerDefinition[] = [];
  const names = new Set<string>();
  for (const key of ['servers', 'mcpServers']) {
    const node = findNodeAtLocation(root, [key]);
    if (!node) continue;
    if (node.type !== 'object') {
      errorAt(node.offset, `"${key}" must be an object`);
      continue;
    }
    for (const prop of node.children ?? []) {
      const [keyNode, valueNode] = prop.children as [Node, Node | undefined];
      const name = String(keyNode.value);
      const raw = valueNode ? getNodeValue(valueNode) : undefined;
      const parsed = withSecureArguments(toServer(name, raw, file, topSandbox), raw, name);
      if (typeof parsed === 'string') errorAt(valueNode?.offset ?? keyNode.offset, parsed, name);
      else if (names.has(name)) errorAt(keyNode.offset, `server "${name}" is defined twice`, name);
      else {
        names.add(name);
        servers.push(parsed);
      }
    }
  }

  const inputs: InputDefinition[] = [];
  const inputsNode = findNodeAtLocation(root, ['inputs']);
  if (inputsNode) {
    if (inputsNode.type !== 'array') errorAt(inputsNode.offset, '"inputs" must be an array');
    else {
      for (const item of inputsNode.children ?? []) {
        const parsed = toInput(getNodeValue(item));
        if (typeof parsed === 'string') errorAt(item.offset, parsed);
        else inputs.push(parsed);
      }
    }
  }
  return result(servers, inputs);
}

/**
 * Reads and parses one config file; a missing file is an empty config. Anything but a regular file, or a
 * file over FILE_LIMITS.config, is an error and is not read.
 */
export async function loadMcpConfig(file: string): Promise<ParsedConfig> {
  let text: string;
  try {
    text = await readBoundedText(file, FILE_LIMITS.config, 'the config file');
  } catch (e) {
    return unreadConfig(file, e);
  }
  return parseMcpConfig(text, file);
}

/**
 * `loadMcpConfig` without yielding: the extension reads its few small config files this way, so that its activation
 * does not wait behind the extension host's other work between one file's open, stat and read.
 */
export function loadMcpConfigSync(file: string): ParsedConfig {
  let text: string;
  try {
    text = readBoundedTextSync(file, FILE_LIMITS.config, 'the config file');
  } catch (e) {
    return unreadConfig(file, e);
  }
  return parseMcpConfig(text, file);
}

/** A missing file is an empty configuration; any other failure to read it is the file's one error. */
function unreadConfig(file: string, e: unknown): ParsedConfig {
  if (e instanceof FileReadError && e.code === 'ENOENT') return { servers: [], inputs: [], errors: [] };
  return { servers: [], inputs: [], errors: [{ file, line: 1, column: 1, message: (e as Error).message }] };
}

/**
 * Loads several config files (e.g. user, then workspace); a later file's server replaces an earlier one of
 * the same name. A broken file contributes its errors and no servers; the other files keep working.
 */
export async function loadMcpConfigs(files: string[]): Promise<ParsedConfig> {
  const servers = new Map<string, ServerDefinition>();
  const inputs = new Map<string, InputDefinition>();
  const errors: ConfigError[] = [];
  for (const parsed of await Promise.all(files.map(loadMcpConfig))) {
    // A replaced entry moves to the end, where the later file put it.
    for (const s of parsed.servers) {
      servers.delete(s.name);
      servers.set(s.name, s);
    }
    for (const i of parsed.inputs) {
      inputs.delete(i.id);
      inputs.set(i.id, i);
    }
    errors.push(...parsed.errors);
  }
  return { servers: [...servers.values()], inputs: [...inputs.values()], errors };
}

/** "file:line:column: message", the form editors and terminals turn into links. */
export function formatConfigError(e: ConfigError): string {
  return `${e.file}:${e.line}:${e.column}: ${e.message}`;
}
