// server.json -> an mcp.json entry. A package becomes the command line its registry's runner takes (npm: npx,
// PyPI: uvx, OCI: docker run, NuGet: dnx), pinned to its version; a remote becomes an http/sse entry. What the
// user chooses (arguments, environment variables, headers, URL variables) becomes fields for the form engine,
// and secrets become `${input:…}` password inputs, so their values go to secret storage and never to the file.
import type { InputDefinition } from '../config';
import type { RegistryArgument, RegistryInput, RegistryKeyValue, RegistryPackage, RegistryServer, RegistryTransport } from './types';
import { HostError } from '../errors';

export type InstallKind = 'npm' | 'pypi' | 'oci' | 'nuget' | 'mcpb' | 'remote';

/** One way to install a server: one of its packages or remotes. */
export interface InstallTarget {
  kind: InstallKind | 'unsupported';
  /** `npm @scope/pkg@1.2.3`, `remote https://…`. */
  label: string;
  /** Index in `packages` or `remotes`. */
  index: number;
  from: 'package' | 'remote';
  /** Why it cannot be installed (a bundle, a package that is an HTTP server, an unknown registry). */
  unsupported?: string;
}

export type McpJsonEntry =
  { type: 'stdio'; command: string; args: string[]; env?: Record<string, string> } | { type: 'http' | 'sse'; url: string; headers?: Record<string, string> };

/** A value the user chooses, named by `key` (the form's property, the CLI's `--arg`/`--env` name). */
export interface InstallField {
  key: string;
  /** Where the value goes: `--arg` covers arguments, headers and URL variables; `--env` environment variables. */
  kind: 'argument' | 'env' | 'header' | 'variable';
  label: string;
  input: RegistryInput;
  /** A secret: never a form field or a literal in the file; written as `${input:<inputId>}`. */
  secret: boolean;
  inputId?: string;
}

export class InstallError extends HostError {
  static override readonly brand: string = 'InstallError';
}

const KNOWN: Record<string, InstallKind> = { npm: 'npm', pypi: 'pypi', oci: 'oci', nuget: 'nuget', mcpb: 'mcpb' };

function packageVersionLabel(p: RegistryPackage): string {
  if (p.registryType === 'pypi') return `${p.identifier}${p.version ? `==${p.version}` : ''}`;
  if (p.registryType === 'oci') return ociImage(p) ?? p.identifier;
  return `${p.identifier}${p.version ? `@${p.version}` : ''}`;
}

/** Every package and remote of the server, the ones the host cannot install marked with why. */
export function installTargets(server: RegistryServer): InstallTarget[] {
  const targets: InstallTarget[] = server.packages.map((p, index) => {
    const kind = KNOWN[p.registryType];
    const label = `${p.registryType} ${packageVersionLabel(p)}`;
    if (!kind)
      return {
        kind: 'unsupported',
        label,
        index,
        from: 'package',
        unsupported: `the package registry "${p.registryType}" is not one the host can run (npm, pypi, oci, nuget, mcpb)`,
      };
    if (kind === 'mcpb') {
      const problem =
        p.fileSha256 === undefined
          ? 'the MCP Bundle has no fileSha256, so it cannot be checked before it is unpacked'
          : !/^https:\/\//.test(p.identifier) && !/^http:\/\/(127\.0\.0\.1|localhost|\[::1\])[:/]/.test(p.identifier)
            ? `the MCP Bundle's identifier is not an https URL: ${p.identifier}`
            : undefined;
      if (problem) return { kind: 'unsupported', label, index, from: 'package', unsupported: problem };
    }
    if (p.transport.type !== 'stdio')
      return {
        kind: 'unsupported',
        label,
        index,
        from: 'package',
        unsupported: `the package runs as a local ${p.transport.type} server, which the host does not start yet`,
      };
    return { kind, label, index, from: 'package' };
  });
  server.remotes.forEach((r, index) => targets.push({ kind: 'remote', label: `remote ${r.type} ${r.url ?? ''}`, index, from: 'remote' }));
  return targets;
}

/** The kinds a server offers, for a list row: `npm, oci, remote`. */
export function installKinds(server: RegistryServer): string[] {
  return [...new Set([...server.packages.map((p) => p.registryType), ...(server.remotes.length ? ['remote'] : [])])];
}

/** A short name for the config from the registry name: `io.github.user/weather-mcp` -> `weather-mcp`. */
export function suggestedServerName(server: RegistryServer): string {
  const last = server.name.split('/').pop() ?? server.name;
  return last.replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '') || 'server';
}

const RANGE = /^\s*$|[\^~<>=*|\s]|^latest$|(^|\.)x(\.|$)/i;

function pinnedVersion(p: RegistryPackage): string {
  const v = p.version;
  if (v === undefined) throw new InstallError(`the package ${p.identifier} names no version, so it cannot be pinned; the host installs pinned versions only`);
  if (RANGE.test(v)) throw new InstallError(`the package ${p.identifier} has the version "${v}", which is not one exact version`);
  return v;
}

/** The OCI image with its tag or digest: the identifier's own, or `:version`. */
function ociImage(p: RegistryPackage): string | undefined {
  const last = p.identifier.split('/').pop() ?? '';
  if (p.identifier.includes('@sha256:') || last.includes(':')) return p.identifier;
  return p.version && !RANGE.test(p.version) ? `${p.identifier}:${p.version}` : undefined;
}

/** One source of text in the entry: a fixed value with `{variables}`, or a field's value. */
type Piece = { field: InstallField } | { template: string; fields: Record<string, InstallField> };

interface Collected {
  fields: InstallField[];
  taken: Set<string>;
  slug: string;
}

function uniqueKey(c: Collected, base: string): string {
  const clean = base.replace(/^-+/, '') || 'value';
  let key = clean;
  for (let n = 2; c.taken.has(key); n++) key = `${clean}-${n}`;
  c.taken.add(key);
  return key;
}

function addField(c: Collected, kind: InstallField['kind'], base: string, label: string, input: RegistryInput): InstallField {
  const key = uniqueKey(c, base);
  const field: InstallField = { key, kind, label, input, secret: input.isSecret === true };
  if (field.secret) field.inputId = `${c.slug}-${key}`.replace(/[^A-Za-z0-9_.-]+/g, '-');
  c.fields.push(field);
  return field;
}

/** The piece an input yields: fixed (with a field per variable), or a field of its own. */
function piece(c: Collected, kind: InstallField['kind'], base: string, label: string, input: RegistryInput): Piece {
  if (input.value === undefined) return { field: addField(c, kind, base, label, input) };
  const fields: Record<string, InstallField> = {};
  for (const [name, variable] of Object.entries(input.variables ?? {})) {
    if (input.value.includes(`{${name}}`)) fields[name] = addField(c, kind === 'env' ? 'env' : 'argument', name, `${label}: ${name}`, variable);
  }
  return { template: input.value, fields };
}

export interface InstallPlan {
  server: RegistryServer;
  target: InstallTarget;
  /** What the user chooses, secrets included (asked at the first start, not in the install form). */
  fields: InstallField[];
  /** The form's JSON schema: the non-secret fields (required, defaults, choices, descriptions). */
  schema: Record<string, unknown>;
  suggestedName: string;
  /** The entry and its inputs for the values (keyed by field key); throws InstallError naming what is missing or wrong. */
  build(values: Readonly<Record<string, unknown>>): { entry: McpJsonEntry; inputs: InputDefinition[] };
}

function argumentLabel(a: RegistryArgument, i: number): { base: string; label: string } {
  if (a.type === 'named') return { base: a.name!, label: a.name! };
  const hint = a.valueHint ?? `argument-${i + 1}`;
  return { base: hint, label: hint };
}

/** The plan to install one target of a server: its fields, form schema and entry builder. */
export function planInstall(server: RegistryServer, target: InstallTarget): InstallPlan {
  if (target.unsupported) throw new InstallError(`cannot install ${target.label}: ${target.unsupported}`);
  if (target.kind === 'mcpb')
    throw new InstallError(`${target.label} is an MCP Bundle: it is downloaded, checked and unpacked (core/bundles), not run as a package`);
  const c: Collected = { fields: [], taken: new Set(), slug: suggestedServerName(server) };
  type ArgPieces = { arg: RegistryArgument; value: Piece }[];
  const args = (list: RegistryArgument[]): ArgPieces =>
    list.map((arg, i) => {
      const { base, label } = argumentLabel(arg, i);
      return { arg, value: piece(c, 'argument', base, label, arg) };
    });
  const keyValues = (kind: 'env' | 'header', list: RegistryKeyValue[]) => list.map((kv) => ({ name: kv.name, value: piece(c, kind, kv.name, kv.name, kv) }));

  let build: (text: (p: Piece) => string | undefined) => McpJsonEntry;
  if (target.from === 'remote') {
    const remote = server.remotes[target.index]!;
    const url = remoteUrl(c, remote);
    const headers = keyValues('header', remote.headers ?? []);
    build = (text) => {
      const entry: McpJsonEntry = { type: remote.type === 'sse' ? 'sse' : 'http', url: text(url)! };
      const h: Record<string, string> = {};
      for (const { name, value } of headers) {
        const t = text(value);
        if (t !== undefined) h[name] = t;
      }
      if (Object.keys(h).length) entry.headers = h;
      return entry;
    };
  } else {
    const p = server.packages[target.index]!;
    const runtime = args(p.runtimeArguments);
    const pkgArgs = args(p.packageArguments);
    const env = keyValues('env', p.environmentVariables);
    const kind = target.kind as Exclude<InstallKind, 'remote' | 'mcpb'>;
    const image = kind === 'oci' ? ociImage(p) : undefined;
    if (kind === 'oci' && !image) throw new InstallError(`the image ${p.identifier} has no tag, digest or exact version, so it cannot be pinned`);
    const version = kind === 'oci' ? '' : pinnedVersion(p);
    build = (text) => {
      const words = (list: ArgPieces): string[] =>
        list.flatMap(({ arg, value }) => {
          const t = text(value);
          if (t === undefined) return [];
          return arg.type === 'named' ? [arg.name!, ...(t === '' ? [] : [t])] : [t];
        });
      const rt = words(runtime);
      const pa = words(pkgArgs);
      const envValues: Record<string, string> = {};
      for (const { name, value } of env) {
        const t = text(value);
        if (t !== undefined) envValues[name] = t;
      }
      let command: string;
      let argv: string[];
      switch (kind) {
        case 'npm':
          command = p.runtimeHint ?? 'npx';
          argv = [...(rt.includes('-y') || rt.includes('--yes') ? [] : ['-y']), ...rt, `${p.identifier}@${version}`, ...pa];
          break;
        case 'pypi':
          command = p.runtimeHint ?? 'uvx';
          argv = [...rt, `${p.identifier}==${version}`, ...pa];
          break;
        case 'oci':
          command = p.runtimeHint ?? 'docker';
          // The container sees only the variables named with -e (their values come from the entry's env).
          argv = ['run', '-i', '--rm', ...rt, ...Object.keys(envValues).flatMap((n) => ['-e', n]), image!, ...pa];
          break;
        case 'nuget':
          command = p.runtimeHint ?? 'dnx';
          argv = [...rt, `${p.identifier}@${version}`, '--yes', ...(pa.length ? ['--', ...pa] : [])];
          break;
      }
      return { type: 'stdio', command, args: argv, ...(Object.keys(envValues).length ? { env: envValues } : {}) };
    };
  }

  const fields = c.fields;
  return {
    server,
    target,
    fields,
    suggestedName: c.slug,
    schema: formSchema(fields),
    build(values) {
      const problems: string[] = [];
      const valueOf = (f: InstallField): string | undefined => {
        const given = values[f.key];
        if (f.secret) {
          if (given !== undefined && given !== '') {
            const s = String(given);
            if (!/^\$\{(env|input):[^}]+\}$/.test(s))
              problems.push(`${f.label} is a secret: give it as \${env:NAME} or \${input:ID} (or leave it to be asked at the first start), never its value`);
            return s;
          }
          // An optional secret gets its input too: the user may leave it empty at the first start.
          return `\${input:${f.inputId}}`;
        }
        const text = given === undefined || given === null || given === '' ? f.input.default : stringValue(given);
        if (text === undefined || text === '') {
          if (f.input.isRequired) problems.push(`${f.label} is required${f.input.description ? ` (${f.input.description})` : ''}`);
          return undefined;
        }
        if (f.input.choices && !f.input.choices.includes(text)) problems.push(`${f.label} must be one of ${f.input.choices.join(', ')}, not "${text}"`);
        if (f.input.format === 'number' && !Number.isFinite(Number(text))) problems.push(`${f.label} must be a number, not "${text}"`);
        if (f.input.format === 'boolean' && text !== 'true' && text !== 'false') problems.push(`${f.label} must be true or false, not "${text}"`);
        return text;
      };
      const unknown = Object.keys(values).filter((k) => !fields.some((f) => f.key === k));
      if (unknown.length) problems.push(`${unknown.join(', ')}: not a value this server takes (it takes ${fields.map((f) => f.key).join(', ') || 'none'})`);
      const resolved = new Map(fields.map((f) => [f, valueOf(f)]));
      const text = (p: Piece): string | undefined => {
        if ('field' in p) return resolved.get(p.field);
        return p.template.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (all, name: string) => {
          const f = p.fields[name];
          return f ? (resolved.get(f) ?? '') : all;
        });
      };
      const entry = build(text);
      if (problems.length) throw new InstallError(problems.join('; '));
      const inputs: InputDefinition[] = fields
        .filter((f) => f.secret && resolved.get(f) === `\${input:${f.inputId}}`)
        .map((f) => ({
          id: f.inputId!,
          type: 'promptString',
          password: true,
          description: `${f.label} of ${server.name}${f.input.description ? `: ${f.input.description}` : ''}`,
        }));
      return { entry, inputs };
    },
  };
}

function remoteUrl(c: Collected, remote: RegistryTransport): Piece {
  const fields: Record<string, InstallField> = {};
  for (const [name, variable] of Object.entries(remote.variables ?? {})) {
    if (remote.url!.includes(`{${name}}`)) fields[name] = addField(c, 'variable', name, `URL: ${name}`, variable);
  }
  return { template: remote.url!, fields };
}

function stringValue(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
}

/** The form's schema: one property per non-secret field. */
function formSchema(fields: InstallField[]): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const f of fields) {
    if (f.secret) continue;
    const i = f.input;
    const type = i.format === 'number' ? 'number' : i.format === 'boolean' ? 'boolean' : 'string';
    const description = [
      i.description,
      i.format === 'filepath' ? 'A path on this computer.' : undefined,
      i.placeholder ? `For example: ${i.placeholder}` : undefined,
      f.kind === 'env' ? 'Environment variable.' : f.kind === 'header' ? 'HTTP header.' : undefined,
    ]
      .filter(Boolean)
      .join(' ');
    const prop: Record<string, unknown> = { type, title: f.label };
    if (description) prop.description = description;
    if (i.choices) prop.enum = i.choices;
    if (i.default !== undefined)
      prop.default = type === 'number' && Number.isFinite(Number(i.default)) ? Number(i.default) : type === 'boolean' ? i.default === 'true' : i.default;
    properties[f.key] = prop;
    if (i.isRequired && i.default === undefined) required.push(f.key);
  }
  return { type: 'object', properties, required };
}

/** The entry as one line to read before installing: the command line, or the URL and header names. */
export function describeEntry(entry: McpJsonEntry): string {
  if (entry.type !== 'stdio') return `${entry.url}${entry.headers ? ` (headers: ${Object.keys(entry.headers).join(', ')})` : ''}`;
  const quote = (w: string) => (/^[A-Za-z0-9_@%+=:,./${}-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`);
  const env = Object.keys(entry.env ?? {}).map((n) => `${n}=…`);
  return [...env, entry.command, ...entry.args].map((w, i) => (i < env.length ? w : quote(w))).join(' ');
}
