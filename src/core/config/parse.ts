import { readFile } from 'node:fs/promises';
import { findNodeAtLocation, getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import type { ConfigError, InputDefinition, ParsedConfig, ServerDefinition } from './types';

/** 1-based line and column of a character offset. */
function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) { line++; lineStart = i + 1; }
  }
  return { line, column: offset - lineStart + 1 };
}

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
  try { path = new URL(url).pathname; } catch { /* keep the raw string */ }
  return /\/sse\/?$/i.test(path) ? 'sse' : 'http';
}

const HTTP_ALIASES: Record<string, 'http' | 'sse'> = {
  http: 'http', 'streamable-http': 'http', streamableHttp: 'http', sse: 'sse',
};

/** Validates one server entry; returns the definition or a message saying what is wrong. */
function toServer(name: string, raw: unknown, file: string): ServerDefinition | string {
  if (!isRecord(raw)) return `server "${name}" must be an object`;
  const declared = raw.type;
  if (declared !== undefined && typeof declared !== 'string') return `server "${name}": "type" must be a string`;
  const type = declared === undefined ? (raw.url !== undefined ? 'url' : 'stdio') : declared;

  if (type === 'stdio' || (declared === undefined && raw.command !== undefined)) {
    if (typeof raw.command !== 'string' || raw.command.trim() === '') return `server "${name}": "command" must be a non-empty string`;
    const args = raw.args ?? [];
    if (!Array.isArray(args) || !args.every((a) => typeof a === 'string' || typeof a === 'number')) {
      return `server "${name}": "args" must be an array of strings`;
    }
    const env: Record<string, string | null> = {};
    if (raw.env !== undefined) {
      if (!isRecord(raw.env)) return `server "${name}": "env" must be an object`;
      for (const [k, v] of Object.entries(raw.env)) {
        if (v === null) env[k] = null;
        else if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') env[k] = String(v);
        else return `server "${name}": env "${k}" must be a string, a number or null`;
      }
    }
    for (const key of ['envFile', 'cwd'] as const) {
      if (raw[key] !== undefined && typeof raw[key] !== 'string') return `server "${name}": "${key}" must be a string`;
    }
    return {
      name, file, type: 'stdio', command: raw.command, args: args.map(String), env,
      envFile: raw.envFile as string | undefined, cwd: raw.cwd as string | undefined,
    };
  }

  const httpType = type === 'url' ? undefined : HTTP_ALIASES[type];
  if (type !== 'url' && !httpType) return `server "${name}": unknown type "${type}" (expected "stdio", "http" or "sse")`;
  if (typeof raw.url !== 'string' || raw.url.trim() === '') return `server "${name}": "url" must be a non-empty string`;
  const headers: Record<string, string> = {};
  if (raw.headers !== undefined) {
    if (!isRecord(raw.headers)) return `server "${name}": "headers" must be an object`;
    for (const [k, v] of Object.entries(raw.headers)) {
      if (typeof v !== 'string' && typeof v !== 'number') return `server "${name}": header "${k}" must be a string`;
      headers[k] = String(v);
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
  return { name, file, type: httpType === 'sse' ? 'sse' : inferHttpType(raw.url), url: raw.url, headers, ...(oauth ? { oauth } : {}) };
}

const INPUT_TYPES = new Set(['promptString', 'pickString', 'command']);
/** The keys of a server's `oauth` object (a pre-registered client). */
const OAUTH_KEYS = new Set(['clientId', 'clientSecret', 'scope', 'clientMetadataUrl']);

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
  const errors: ConfigError[] = [];
  const errorAt = (offset: number, message: string, server?: string) =>
    errors.push({ file, ...position(text, offset), message, server });

  const syntax: ParseError[] = [];
  const root = parseTree(text, syntax, { allowTrailingComma: true, disallowComments: false });
  if (syntax.length > 0) {
    for (const e of syntax) {
      const code = printParseErrorCode(e.error);
      errorAt(e.offset, SYNTAX_MESSAGES[code] ?? code);
    }
    return { servers: [], inputs: [], errors };
  }
  if (!root || root.type !== 'object') {
    if (text.trim() !== '') errorAt(root?.offset ?? 0, 'the file must hold a JSON object');
    return { servers: [], inputs: [], errors };
  }

  const servers: ServerDefinition[] = [];
  for (const key of ['servers', 'mcpServers']) {
    const node = findNodeAtLocation(root, [key]);
    if (!node) continue;
    if (node.type !== 'object') { errorAt(node.offset, `"${key}" must be an object`); continue; }
    for (const prop of node.children ?? []) {
      const [keyNode, valueNode] = prop.children as [Node, Node | undefined];
      const name = String(keyNode.value);
      const parsed = toServer(name, valueNode ? getNodeValue(valueNode) : undefined, file);
      if (typeof parsed === 'string') errorAt(valueNode?.offset ?? keyNode.offset, parsed, name);
      else if (servers.some((s) => s.name === name)) errorAt(keyNode.offset, `server "${name}" is defined twice`, name);
      else servers.push(parsed);
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
  return { servers, inputs, errors };
}

/** Reads and parses one config file; a missing file is an empty config. */
export async function loadMcpConfig(file: string): Promise<ParsedConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { servers: [], inputs: [], errors: [] };
    return { servers: [], inputs: [], errors: [{ file, line: 1, column: 1, message: `cannot read the file: ${(e as Error).message}` }] };
  }
  return parseMcpConfig(text, file);
}

/**
 * Loads several config files (e.g. user, then workspace); a later file's server replaces an earlier one of
 * the same name. A broken file contributes its errors and no servers; the other files keep working.
 */
export async function loadMcpConfigs(files: string[]): Promise<ParsedConfig> {
  const merged: ParsedConfig = { servers: [], inputs: [], errors: [] };
  for (const parsed of await Promise.all(files.map(loadMcpConfig))) {
    for (const s of parsed.servers) {
      merged.servers = merged.servers.filter((o) => o.name !== s.name);
      merged.servers.push(s);
    }
    for (const i of parsed.inputs) {
      merged.inputs = merged.inputs.filter((o) => o.id !== i.id);
      merged.inputs.push(i);
    }
    merged.errors.push(...parsed.errors);
  }
  return merged;
}

/** "file:line:column: message", the form editors and terminals turn into links. */
export function formatConfigError(e: ConfigError): string {
  return `${e.file}:${e.line}:${e.column}: ${e.message}`;
}
