// Reads the registry's JSON into the typed shapes: wrong types are refused with where they were found, unknown
// fields are ignored, and the counts are bounded (a page of a million packages is not a page).
import { isObject } from '../../shared/json';
import type {
  RegistryArgument,
  RegistryEntry,
  RegistryInput,
  RegistryKeyValue,
  RegistryPackage,
  RegistryPage,
  RegistryServer,
  RegistryTransport,
} from './types';
import { HostError } from '../errors';

/** Bounds on what one server.json may hold; past them the entry is refused. */
export const SERVER_JSON_LIMITS = {
  packages: 32,
  remotes: 32,
  /** Arguments, environment variables or headers in one list. */
  inputs: 64,
  variables: 32,
  choices: 256,
  /** Characters of any one string. */
  stringChars: 8192,
};

const OFFICIAL = 'io.modelcontextprotocol.registry/official';

export class ServerJsonError extends HostError {
  static override readonly brand: string = 'ServerJsonError';
}

function fail(where: string, what: string): never {
  throw new ServerJsonError(`${where}: ${what}`);
}

function str(value: unknown, where: string, required: true): string;
function str(value: unknown, where: string, required?: boolean): string | undefined;
function str(value: unknown, where: string, required = false): string | undefined {
  if (value === undefined || value === null) return required ? fail(where, 'is missing') : undefined;
  if (typeof value !== 'string') fail(where, `should be a string, not ${typeof value}`);
  if (value.length > SERVER_JSON_LIMITS.stringChars) fail(where, `is ${value.length} characters long; the limit is ${SERVER_JSON_LIMITS.stringChars}`);
  return value;
}

function bool(value: unknown, where: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') fail(where, `should be true or false, not ${typeof value}`);
  return value;
}

function list(value: unknown, where: string, max: number): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) fail(where, 'should be a list');
  if (value.length > max) fail(where, `has ${value.length} items; the limit is ${max}`);
  return value;
}

function object(value: unknown, where: string): Record<string, unknown> {
  if (!isObject(value)) fail(where, 'should be an object');
  return value;
}

const FORMATS = ['string', 'number', 'boolean', 'filepath'] as const;

function input(raw: unknown, where: string, withVariables = true): RegistryInput {
  const o = object(raw, where);
  const format = str(o.format, `${where}.format`);
  if (format !== undefined && !(FORMATS as readonly string[]).includes(format)) fail(`${where}.format`, `"${format}" is not one of ${FORMATS.join(', ')}`);
  const out: RegistryInput = {};
  const description = str(o.description, `${where}.description`);
  if (description !== undefined) out.description = description;
  const isRequired = bool(o.isRequired, `${where}.isRequired`);
  if (isRequired !== undefined) out.isRequired = isRequired;
  if (format !== undefined) out.format = format as RegistryInput['format'];
  const value = str(o.value, `${where}.value`);
  if (value !== undefined) out.value = value;
  const isSecret = bool(o.isSecret, `${where}.isSecret`);
  if (isSecret !== undefined) out.isSecret = isSecret;
  const dflt = str(o.default, `${where}.default`);
  if (dflt !== undefined) out.default = dflt;
  const placeholder = str(o.placeholder, `${where}.placeholder`);
  if (placeholder !== undefined) out.placeholder = placeholder;
  const choices = list(o.choices, `${where}.choices`, SERVER_JSON_LIMITS.choices).map((c, i) => str(c, `${where}.choices[${i}]`, true));
  if (choices.length > 0) out.choices = choices;
  if (withVariables && o.variables !== undefined) out.variables = variables(o.variables, `${where}.variables`);
  return out;
}

function variables(raw: unknown, where: string): Record<string, RegistryInput> {
  const o = object(raw, where);
  const names = Object.keys(o);
  if (names.length > SERVER_JSON_LIMITS.variables) fail(where, `has ${names.length} variables; the limit is ${SERVER_JSON_LIMITS.variables}`);
  const out: Record<string, RegistryInput> = Object.create(null) as Record<string, RegistryInput>;
  for (const name of names) out[name] = input(o[name], `${where}.${name}`, false);
  return out;
}

function argument(raw: unknown, where: string): RegistryArgument {
  const o = object(raw, where);
  const type = str(o.type, `${where}.type`, true);
  if (type !== 'positional' && type !== 'named') fail(`${where}.type`, `"${type}" is neither positional nor named`);
  const arg: RegistryArgument = { ...input(o, where), type };
  const name = str(o.name, `${where}.name`, type === 'named');
  if (name !== undefined) arg.name = name;
  const valueHint = str(o.valueHint, `${where}.valueHint`);
  if (valueHint !== undefined) arg.valueHint = valueHint;
  if (type === 'positional' && valueHint === undefined && arg.value === undefined) fail(where, 'a positional argument needs a valueHint or a value');
  const isRepeated = bool(o.isRepeated, `${where}.isRepeated`);
  if (isRepeated !== undefined) arg.isRepeated = isRepeated;
  return arg;
}

function keyValue(raw: unknown, where: string): RegistryKeyValue {
  const o = object(raw, where);
  return { ...input(o, where), name: str(o.name, `${where}.name`, true) };
}

function transport(raw: unknown, where: string): RegistryTransport {
  const o = object(raw, where);
  const type = str(o.type, `${where}.type`, true);
  if (type !== 'stdio' && type !== 'streamable-http' && type !== 'sse') fail(`${where}.type`, `"${type}" is not stdio, streamable-http or sse`);
  const out: RegistryTransport = { type };
  const url = str(o.url, `${where}.url`, type !== 'stdio');
  if (url !== undefined) out.url = url;
  const headers = list(o.headers, `${where}.headers`, SERVER_JSON_LIMITS.inputs).map((h, i) => keyValue(h, `${where}.headers[${i}]`));
  if (headers.length > 0) out.headers = headers;
  if (o.variables !== undefined) out.variables = variables(o.variables, `${where}.variables`);
  return out;
}

function pkg(raw: unknown, where: string): RegistryPackage {
  const o = object(raw, where);
  const out: RegistryPackage = {
    registryType: str(o.registryType, `${where}.registryType`, true),
    identifier: str(o.identifier, `${where}.identifier`, true),
    transport: o.transport === undefined ? { type: 'stdio' } : transport(o.transport, `${where}.transport`),
    runtimeArguments: list(o.runtimeArguments, `${where}.runtimeArguments`, SERVER_JSON_LIMITS.inputs).map((a, i) =>
      argument(a, `${where}.runtimeArguments[${i}]`),
    ),
    packageArguments: list(o.packageArguments, `${where}.packageArguments`, SERVER_JSON_LIMITS.inputs).map((a, i) =>
      argument(a, `${where}.packageArguments[${i}]`),
    ),
    environmentVariables: list(o.environmentVariables, `${where}.environmentVariables`, SERVER_JSON_LIMITS.inputs).map((e, i) =>
      keyValue(e, `${where}.environmentVariables[${i}]`),
    ),
  };
  for (const key of ['registryBaseUrl', 'version', 'fileSha256', 'runtimeHint'] as const) {
    const v = str(o[key], `${where}.${key}`);
    if (v !== undefined) out[key] = v;
  }
  return out;
}

/** A `server.json` (the `server` of a registry answer). */
export function parseServerJson(raw: unknown, where = 'server'): RegistryServer {
  const o = object(raw, where);
  const server: RegistryServer = {
    name: str(o.name, `${where}.name`, true),
    description: str(o.description, `${where}.description`) ?? '',
    version: str(o.version, `${where}.version`, true),
    packages: list(o.packages, `${where}.packages`, SERVER_JSON_LIMITS.packages).map((p, i) => pkg(p, `${where}.packages[${i}]`)),
    remotes: list(o.remotes, `${where}.remotes`, SERVER_JSON_LIMITS.remotes).map((r, i) => transport(r, `${where}.remotes[${i}]`)),
  };
  const title = str(o.title, `${where}.title`);
  if (title !== undefined) server.title = title;
  const websiteUrl = str(o.websiteUrl, `${where}.websiteUrl`);
  if (websiteUrl !== undefined) server.websiteUrl = websiteUrl;
  if (o.repository !== undefined && o.repository !== null) {
    const r = object(o.repository, `${where}.repository`);
    const url = str(r.url, `${where}.repository.url`);
    if (url) {
      server.repository = { url };
      const source = str(r.source, `${where}.repository.source`);
      if (source !== undefined) server.repository.source = source;
      const subfolder = str(r.subfolder, `${where}.repository.subfolder`);
      if (subfolder !== undefined) server.repository.subfolder = subfolder;
    }
  }
  return server;
}

/** One `ServerResponse`: `{server, _meta}`. */
export function parseServerResponse(raw: unknown, where = 'answer'): RegistryEntry {
  const o = object(raw, where);
  const entry: RegistryEntry = { server: parseServerJson(o.server, `${where}.server`), status: 'active' };
  const meta = isObject(o._meta) ? o._meta[OFFICIAL] : undefined;
  if (isObject(meta)) {
    const status = str(meta.status, `${where}._meta.status`);
    if (status === 'active' || status === 'deprecated' || status === 'deleted') entry.status = status;
    const statusMessage = str(meta.statusMessage, `${where}._meta.statusMessage`);
    if (statusMessage !== undefined) entry.statusMessage = statusMessage;
    const isLatest = bool(meta.isLatest, `${where}._meta.isLatest`);
    if (isLatest !== undefined) entry.isLatest = isLatest;
    const publishedAt = str(meta.publishedAt, `${where}._meta.publishedAt`);
    if (publishedAt !== undefined) entry.publishedAt = publishedAt;
    const updatedAt = str(meta.updatedAt, `${where}._meta.updatedAt`);
    if (updatedAt !== undefined) entry.updatedAt = updatedAt;
  }
  return entry;
}

/** A `ServerList` page: invalid entries are left out (and named), a page that is not a list is refused. */
export function parseServerList(raw: unknown, maxEntries: number): RegistryPage {
  const o = object(raw, 'the answer');
  const servers = list(o.servers, "the answer's servers", maxEntries);
  const page: RegistryPage = { entries: [], skipped: [] };
  servers.forEach((s, i) => {
    try {
      page.entries.push(parseServerResponse(s, `servers[${i}]`));
    } catch (e) {
      if (!(e instanceof ServerJsonError)) throw e;
      if (page.skipped.length < 5) page.skipped.push(e.message);
    }
  });
  if (isObject(o.metadata)) {
    const next = str(o.metadata.nextCursor, "the answer's metadata.nextCursor");
    if (next) page.nextCursor = next;
  }
  return page;
}
