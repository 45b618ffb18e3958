// SEP-3221 secure parameters (extension `io.modelcontextprotocol/secure-params`, draft): a tool may declare a
// `secureInputSchema` beside its `inputSchema`, values the host binds (a tenant, an instance, a token) that a
// model never sees nor sets. They go in `params.secureArguments`, apart from `arguments`.
// This module is the one home of the rules: which tools are refused, which values are secret-looking, how the
// values are checked (the form engine), what a model may not send, and how a server's refusal reads.
// It loads no SDK: the connection's `Mcp-Param-*` headers for secure properties live in ./headers.ts.

import { isObject } from '../../shared/json';
import { ServerRequestError } from '../errors';
import type { RefusedTool } from '../connection/nesting';

export const SECURE_PARAMS_EXTENSION_ID = 'io.modelcontextprotocol/secure-params';

/** The values a host binds for a tool: `params.secureArguments` (the draft's name). */
export type SecureArguments = Record<string, unknown>;

/** A tool's `secureInputSchema`: a JSON Schema object whose root is `type: "object"`. */
export interface SecureInputSchema {
  type: 'object';
  properties?: Record<string, unknown>;
  required?: string[];
  [key: string]: unknown;
}

/** JSON-RPC code of a refusal of the secure arguments (the draft: never `isError`, always -32602). */
export const INVALID_PARAMS = -32602;

/** The tool's secure schema, when it declares one (a tool the listing refused never gets here). */
export function secureInputSchemaOf(tool: unknown): SecureInputSchema | undefined {
  const schema = isObject(tool) ? tool.secureInputSchema : undefined;
  return isObject(schema) && schema.type === 'object' ? (schema as SecureInputSchema) : undefined;
}

/** The property names of a schema's top level. */
function propertyNames(schema: unknown): string[] {
  return isObject(schema) && isObject(schema.properties) ? Object.keys(schema.properties) : [];
}

/** The secure property names of a tool (none without a secure schema). */
export function securePropertyNames(tool: unknown): string[] {
  return propertyNames(secureInputSchemaOf(tool));
}

/** Whether the tool takes secure values at all. */
export function takesSecureValues(tool: unknown): boolean {
  return securePropertyNames(tool).length > 0;
}

/** A property the UI masks and the host keeps in secret storage: `format: "password"` or `writeOnly`. */
export function isSecretProperty(schema: unknown): boolean {
  return isObject(schema) && (schema.format === 'password' || schema.writeOnly === true);
}

/** The tool's secret-looking secure properties. */
export function secretPropertyNames(tool: unknown): string[] {
  const schema = secureInputSchemaOf(tool);
  return propertyNames(schema).filter((name) => isSecretProperty((schema!.properties as Record<string, unknown>)[name]));
}

const HEADER_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The `x-mcp-header` names declared on a schema's top-level properties (SEP-2243), as written. */
export function headerNamesOf(schema: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (!isObject(schema) || !isObject(schema.properties)) return out;
  for (const [name, property] of Object.entries(schema.properties)) {
    if (isObject(property) && property['x-mcp-header'] !== undefined) out.set(name, String(property['x-mcp-header']));
  }
  return out;
}

/**
 * Why a listed tool is not offered, or undefined. The draft: a client MUST exclude a tool whose secure property
 * names overlap its `inputSchema`; the secure schema's root MUST be an object. An `x-mcp-header` on a secure
 * property follows SEP-2243's rules (a token, unique case-insensitively across both schemas, on a string,
 * integer or boolean property).
 */
export function secureToolProblem(tool: unknown): string | undefined {
  if (!isObject(tool) || tool.secureInputSchema === undefined) return undefined;
  const schema = tool.secureInputSchema;
  if (!isObject(schema) || schema.type !== 'object') return 'its secureInputSchema is not a JSON Schema object with "type": "object" (SEP-3221)';
  if (schema.properties !== undefined && !isObject(schema.properties)) return 'its secureInputSchema "properties" is not an object (SEP-3221)';
  const model = new Set(propertyNames(tool.inputSchema));
  const overlap = propertyNames(schema).filter((name) => model.has(name));
  if (overlap.length > 0) {
    const names = overlap
      .slice(0, 5)
      .map((n) => `"${n.slice(0, 100)}"`)
      .join(', ');
    return `its secureInputSchema and inputSchema both declare ${names}: a value the host binds must not be one a model can set (SEP-3221)`;
  }
  const seen = new Map<string, string>();
  for (const [, header] of headerNamesOf(tool.inputSchema)) seen.set(header.toLowerCase(), header);
  for (const [name, header] of headerNamesOf(schema)) {
    const property = (schema.properties as Record<string, unknown>)[name] as Record<string, unknown>;
    const where = `secure property "${name.slice(0, 100)}"`;
    if (header === '' || !HEADER_TOKEN.test(header)) return `the x-mcp-header of its ${where} is not an HTTP header token (SEP-2243)`;
    if (!['string', 'integer', 'boolean'].includes(String(property.type)))
      return `the x-mcp-header of its ${where} is on a ${String(property.type ?? 'untyped')} property; only string, integer and boolean properties may carry one (SEP-2243)`;
    const prior = seen.get(header.toLowerCase());
    if (prior !== undefined) return `the x-mcp-header "${header.slice(0, 100)}" of its ${where} is declared more than once (SEP-2243)`;
    seen.set(header.toLowerCase(), header);
  }
  return undefined;
}

/** Takes the tools of a `tools/list` answer that `secureToolProblem` refuses out of it, in place; returns them. */
export function refuseSecureTools(tools: unknown[]): RefusedTool[] {
  const refused: RefusedTool[] = [];
  for (let i = tools.length - 1; i >= 0; i--) {
    const problem = secureToolProblem(tools[i]);
    if (!problem) continue;
    const tool = tools[i];
    refused.unshift({ name: isObject(tool) && typeof tool.name === 'string' ? tool.name.slice(0, 200) : '(unnamed)', reason: problem });
    tools.splice(i, 1);
  }
  return refused;
}

/**
 * Each tool's `secureInputSchema` as the server listed it: the SDK's Tool schema drops fields it does not know,
 * so the connection keeps them from the raw answer and puts them back on its tools.
 */
export class SecureSchemas {
  private readonly byTool = new Map<string, unknown>();

  keep(tools: readonly unknown[]): void {
    for (const tool of tools) {
      if (!isObject(tool) || typeof tool.name !== 'string') continue;
      if (tool.secureInputSchema === undefined) this.byTool.delete(tool.name);
      else this.byTool.set(tool.name, tool.secureInputSchema);
    }
  }

  attach<T extends { name: string }>(tool: T): T {
    return this.byTool.has(tool.name) ? { ...tool, secureInputSchema: this.byTool.get(tool.name) } : tool;
  }

  clear(): void {
    this.byTool.clear();
  }
}

/** The JSON Schema types a property names (`type` as a string or a list); empty when it names none. */
function typesOf(property: unknown): string[] {
  const type = isObject(property) ? property.type : undefined;
  return typeof type === 'string' ? [type] : Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : [];
}

/** What `text` spells as a value of a JSON Schema type (numbers read as the form engine reads them), if anything. */
function readAs(text: string, type: string): { value: unknown } | undefined {
  switch (type) {
    case 'integer':
    case 'number': {
      const n = Number(text);
      return Number.isFinite(n) && (type === 'number' || Number.isInteger(n)) ? { value: n } : undefined;
    }
    case 'boolean':
      return text === 'true' || text === 'false' ? { value: text === 'true' } : undefined;
    case 'null':
      return text === 'null' ? { value: null } : undefined;
    case 'object':
    case 'array': {
      let read: unknown;
      try {
        read = JSON.parse(text);
      } catch {
        return undefined;
      }
      return (type === 'array' ? Array.isArray(read) : isObject(read)) ? { value: read } : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * A secure value as its property's schema type. Values often arrive as text whatever their type: a variable in
 * mcp.json, an env: or file: source, a secret kept in SecretStorage (which holds strings). Text for a property that
 * does not take a string (a number, an integer, a boolean, null, an object or a list; or an enum of such values)
 * becomes the value it spells when that value is of the type; anything else is kept as it is, for the checks to name.
 */
export function typedSecureValue(property: unknown, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const types = typesOf(property);
  if (types.includes('string')) return value;
  const text = value.trim();
  if (text === '') return value;
  for (const type of types) {
    const read = readAs(text, type);
    if (read) return read.value;
  }
  // No type, but an enum (or const) of other values: the one the text spells.
  const choices = isObject(property) ? (Array.isArray(property.enum) ? property.enum : 'const' in property ? [property.const] : []) : [];
  if (types.length > 0 || !choices.some((c) => typeof c !== 'string')) return value;
  return choices.find((c) => typeof c !== 'string' && JSON.stringify(c) === text) ?? value;
}

/** The values among `known` (a server's remembered secure values) that this tool declares, each of its schema type. */
export function secureArgumentsFor(tool: unknown, known: SecureArguments): SecureArguments {
  const properties = secureInputSchemaOf(tool)?.properties ?? {};
  const out: SecureArguments = {};
  for (const name of securePropertyNames(tool)) {
    if (Object.hasOwn(known, name) && known[name] !== undefined) out[name] = typedSecureValue(properties[name], known[name]);
  }
  return out;
}

/** The required secure values the tool lacks in `values`. */
export function missingSecureValues(tool: unknown, values: SecureArguments): string[] {
  const schema = secureInputSchemaOf(tool);
  const required = Array.isArray(schema?.required) ? schema.required.filter((n): n is string => typeof n === 'string') : [];
  return required.filter((name) => values[name] === undefined || values[name] === '');
}

/**
 * Why a model's arguments are refused: a model may not set a secure property (the draft's injection defence;
 * a server would refuse it too, after it had been sent). Undefined when none is named.
 */
export function modelArgumentsProblem(tool: unknown, args: unknown): string | undefined {
  if (!isObject(args)) return undefined;
  const named = securePropertyNames(tool).filter((name) => Object.hasOwn(args, name));
  if (named.length === 0) return undefined;
  return `${named.map((n) => `"${n}"`).join(', ')} ${named.length === 1 ? 'is a value' : 'are values'} the host sets for this tool, not arguments; leave ${named.length === 1 ? 'it' : 'them'} out`;
}

/**
 * Every string of the values, for the log to mask; numbers too under the names in `secret` (a PIN is a secret,
 * a port is not; booleans never are).
 */
export function secureValueStrings(values: SecureArguments | undefined, secret: ReadonlySet<string> = new Set()): string[] {
  const out: string[] = [];
  for (const name of secret) {
    const v = values?.[name];
    if (typeof v === 'number' && Number.isFinite(v)) out.push(String(v));
  }
  const walk = (v: unknown, depth: number): void => {
    if (typeof v === 'string') {
      if (v !== '') out.push(v);
      return;
    }
    if (depth > 8) return;
    if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
    else if (isObject(v)) for (const x of Object.values(v)) walk(x, depth + 1);
  };
  walk(values, 0);
  return out;
}

/**
 * A server's -32602 to a call that carried secure values, as the host's configuration problem: the model did
 * not set them and cannot fix them. Other errors are returned as they are.
 */
export function secureArgumentsRefusal(e: unknown, tool: string, server: string): unknown {
  if (!(e instanceof ServerRequestError) || e.code !== INVALID_PARAMS) return e;
  const said = e.message.replace(/^tool "[^"]*" failed: /, '');
  return new ServerRequestError(
    `the server "${server}" refused the secure values the host sends for "${tool}" (${said}). ` +
      'This is the host\'s configuration, not the tool\'s: check them (MCP: Edit Secure Values…, mcp-host --secure-arg, or "secureArguments" in mcp.json)',
    e.code,
    e.data,
  );
}
