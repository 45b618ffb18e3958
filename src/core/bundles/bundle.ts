// Installing an MCP Bundle (.mcpb): the archive checked and read (archive.ts), its manifest.json read with the
// bundle format's own schema (@anthropic-ai/mcpb), its `user_config` turned into a form (sensitive values become
// `${input:…}` password inputs, so they go to secret storage), and `server.mcp_config` turned into an mcp.json
// entry with the format's substitutions: `${__dirname}`, `${user_config.KEY}`, `${HOME}`, `${DESKTOP}`,
// `${DOCUMENTS}`, `${DOWNLOADS}`, `${pathSeparator}` and `${/}`.
import type { McpbManifestAny } from '@anthropic-ai/mcpb' with { 'resolution-mode': 'import' };
import { cp, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, sep } from 'node:path';
import type { InputDefinition } from '../config';
import { boundedFetch } from '../io/boundedFetch';
import { readBoundedFile } from '../io/boundedRead';
import { parseJsonBounded } from '../io/json';
import type { McpJsonEntry } from '../registry/install';
import { BUNDLE_LIMITS, BundleError, checkSha256, readArchive, sha256Hex, writeToTemporaryFolder, type ArchiveEntry, type BundleLimits } from './archive';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (src/core/libraries.ts)
const libraries = () => require('../libraries') as typeof import('../libraries');

export type BundleManifest = McpbManifestAny;
type UserConfigOption = NonNullable<BundleManifest['user_config']>[string];

export interface OpenedBundle {
  manifest: BundleManifest;
  sha256: string;
  /** The checked files, in memory; written only by `installBundle`. */
  files: Map<string, { entry: ArchiveEntry; data: Buffer }>;
}

const MANIFEST_MAX_BYTES = 1024 * 1024;

/** The bundle's bytes checked (sha-256 when given, the archive's limits) and its manifest read; nothing written. */
export function openBundleBytes(bytes: Buffer, what: string, options: { sha256?: string; limits?: BundleLimits } = {}): OpenedBundle {
  if (options.sha256 !== undefined) checkSha256(bytes, options.sha256, what);
  let files;
  try {
    files = readArchive(bytes, options.limits ?? BUNDLE_LIMITS);
  } catch (e) {
    if (e instanceof BundleError) throw new BundleError(`${what}: ${e.message}`);
    throw e;
  }
  const manifestFile = files.get('manifest.json');
  if (!manifestFile) throw new BundleError(`${what} has no manifest.json at its top`);
  if (manifestFile.data.length > MANIFEST_MAX_BYTES) throw new BundleError(`${what}: manifest.json is over 1 MiB, the limit`);
  let raw: unknown;
  try {
    raw = parseJsonBounded(manifestFile.data.toString('utf8').replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new BundleError(`${what}: manifest.json is not valid JSON: ${(e as Error).message}`);
  }
  // The schema of the manifest's own version, so a refusal names the field (the union of all versions would not).
  const { VERSIONED_MANIFEST_SCHEMAS } = libraries().mcpbSchemas;
  const declared = typeof raw === 'object' && raw !== null ? (raw as { manifest_version?: unknown; dxt_version?: unknown }) : {};
  const version = declared.manifest_version ?? declared.dxt_version;
  if (typeof version !== 'string' || !Object.hasOwn(VERSIONED_MANIFEST_SCHEMAS, version)) {
    throw new BundleError(
      `${what}: manifest.json has the manifest_version ${JSON.stringify(version) ?? '(none)'}, not one of ${Object.keys(VERSIONED_MANIFEST_SCHEMAS).join(', ')}`,
    );
  }
  const parsed = VERSIONED_MANIFEST_SCHEMAS[version as keyof typeof VERSIONED_MANIFEST_SCHEMAS].safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`)
      .join('; ');
    throw new BundleError(`${what}: manifest.json is not a valid MCP Bundle manifest: ${issues}`);
  }
  return { manifest: parsed.data, sha256: sha256Hex(bytes), files };
}

/** A .mcpb file read (bounded) and opened. */
export async function openBundleFile(file: string, options: { sha256?: string; limits?: BundleLimits } = {}): Promise<OpenedBundle> {
  const limits = options.limits ?? BUNDLE_LIMITS;
  let bytes: Buffer;
  try {
    bytes = await readBoundedFile(file, limits.maxArchiveBytes, 'the bundle');
  } catch (e) {
    throw new BundleError(`${file}: ${(e as Error).message}`);
  }
  return openBundleBytes(bytes, file, options);
}

/** How long a bundle's download may take, whole. */
export const BUNDLE_DOWNLOAD_TIMEOUT_MS = 120_000;

/**
 * A bundle the registry names, downloaded (bounded in size and time) and opened: its sha-256 is checked against
 * the registry's `fileSha256` before anything is read from it.
 */
export async function downloadBundle(
  url: string,
  sha256: string,
  options: { signal?: AbortSignal; limits?: BundleLimits; timeoutMs?: number } = {},
): Promise<OpenedBundle> {
  const limits = options.limits ?? BUNDLE_LIMITS;
  const timeout = AbortSignal.timeout(options.timeoutMs ?? BUNDLE_DOWNLOAD_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  let bytes: Buffer;
  try {
    const response = await boundedFetch({ maxMessageBytes: limits.maxArchiveBytes, signal })(url, { redirect: 'follow' });
    if (!response.ok) throw new BundleError(`${url} answered ${response.status}`);
    bytes = Buffer.from(await response.arrayBuffer());
  } catch (e) {
    if (e instanceof BundleError) throw e;
    if (timeout.aborted) throw new BundleError(`the bundle ${url} did not download within ${(options.timeoutMs ?? BUNDLE_DOWNLOAD_TIMEOUT_MS) / 1000} s`);
    const cause = e instanceof Error && e.cause instanceof Error ? e.cause.message : (e as Error).message;
    throw new BundleError(`cannot download the bundle ${url}: ${cause}`);
  }
  return openBundleBytes(bytes, url, { sha256, limits });
}

/** A name for the config and the storage folder: the manifest's name, made safe. */
export function bundleSlug(manifest: BundleManifest): string {
  return (
    manifest.name
      .toLowerCase()
      .replace(/[^a-z0-9_.-]+/g, '-')
      .replace(/^[-.]+|[-.]+$/g, '')
      .slice(0, 80) || 'bundle'
  );
}

/**
 * Writes the bundle into `storageRoot/<name>-<version>`: first into a new temporary folder, then moved there (a
 * previous install of the same version is replaced only once the new one is complete). Returns the folder.
 */
export async function installBundle(opened: OpenedBundle, storageRoot: string): Promise<string> {
  const temporary = await writeToTemporaryFolder(opened.files);
  const target = join(storageRoot, `${bundleSlug(opened.manifest)}-${opened.manifest.version.replace(/[^A-Za-z0-9_.+-]+/g, '-')}`);
  try {
    await mkdir(storageRoot, { recursive: true });
    const previous = `${target}.previous-${process.pid}`;
    const had = await readdir(target).then(
      () => true,
      () => false,
    );
    if (had) await rename(target, previous);
    try {
      await rename(temporary, target);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
      // Another file system (tmp on tmpfs): copy, then the temporary folder goes below.
      await cp(temporary, target, { recursive: true, errorOnExist: true, force: false });
    }
    if (had) await rm(previous, { recursive: true, force: true });
    return target;
  } finally {
    await rm(temporary, { recursive: true, force: true });
  }
}

/** A `user_config` option the user fills in. */
export interface BundleField {
  key: string;
  option: UserConfigOption;
  /** Sensitive: never in the form or the file; written as `${input:<inputId>}`. */
  secret: boolean;
  inputId?: string;
}

export interface BundlePlan {
  manifest: BundleManifest;
  suggestedName: string;
  fields: BundleField[];
  /** The form's JSON schema: the options that are not sensitive. */
  schema: Record<string, unknown>;
  /** The entry that runs the bundle unpacked in `dir`, for the values (by key); throws naming what is wrong. */
  build(values: Record<string, unknown>, dir: string): { entry: McpJsonEntry; inputs: InputDefinition[] };
}

/** The folders the manifest's `${HOME}`, `${DESKTOP}`, `${DOCUMENTS}`, `${DOWNLOADS}` name. */
function systemDirs(): Record<string, string> {
  const home = homedir();
  return { HOME: home, DESKTOP: join(home, 'Desktop'), DOCUMENTS: join(home, 'Documents'), DOWNLOADS: join(home, 'Downloads') };
}

function substitute(text: string, vars: Record<string, string>): string {
  return text.replace(/\$\{([^}]+)\}/g, (all, name: string) => (Object.hasOwn(vars, name) ? vars[name]! : all));
}

export function planBundle(manifest: BundleManifest): BundlePlan {
  const slug = bundleSlug(manifest);
  const fields: BundleField[] = Object.entries(manifest.user_config ?? {}).map(([key, option]) => ({
    key,
    option,
    secret: option.sensitive === true,
    ...(option.sensitive ? { inputId: `${slug}-${key}`.replace(/[^A-Za-z0-9_.-]+/g, '-') } : {}),
  }));
  const dirs = systemDirs();
  const defaultOf = (o: UserConfigOption): unknown => {
    const d = o.default;
    return typeof d === 'string' ? substitute(d, dirs) : Array.isArray(d) ? d.map((v) => substitute(v, dirs)) : d;
  };
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const f of fields) {
    if (f.secret) continue;
    const o = f.option;
    const scalar = o.type === 'number' ? 'number' : o.type === 'boolean' ? 'boolean' : 'string';
    const description = [o.description, o.type === 'directory' ? 'A folder on this computer.' : o.type === 'file' ? 'A file on this computer.' : undefined]
      .filter(Boolean)
      .join(' ');
    const prop: Record<string, unknown> = o.multiple ? { type: 'array', items: { type: scalar } } : { type: scalar };
    prop.title = o.title;
    if (description) prop.description = description;
    if (o.type === 'number' && o.min !== undefined) prop.minimum = o.min;
    if (o.type === 'number' && o.max !== undefined) prop.maximum = o.max;
    if (o.default !== undefined) prop.default = defaultOf(o);
    properties[f.key] = prop;
    if (o.required && o.default === undefined) required.push(f.key);
  }

  return {
    manifest,
    suggestedName: slug,
    fields,
    schema: { type: 'object', properties, required },
    build(values, dir) {
      const problems: string[] = [];
      const unknown = Object.keys(values).filter((k) => !fields.some((f) => f.key === k));
      if (unknown.length) problems.push(`${unknown.join(', ')}: not a setting of this bundle (it has ${fields.map((f) => f.key).join(', ') || 'none'})`);
      /** Each option's value: a string, a list (multiple), or undefined (not set). */
      const resolved = new Map<string, string | string[] | undefined>();
      for (const f of fields) {
        const o = f.option;
        const given = values[f.key];
        const empty = given === undefined || given === null || given === '' || (Array.isArray(given) && given.length === 0);
        if (f.secret) {
          if (!empty) {
            const s = String(given);
            if (!/^\$\{(env|input):[^}]+\}$/.test(s))
              problems.push(`${f.key} is sensitive: give it as \${env:NAME} or \${input:ID} (or leave it to be asked at the first start), never its value`);
            resolved.set(f.key, s);
          } else resolved.set(f.key, `\${input:${f.inputId}}`);
          continue;
        }
        const value = empty ? defaultOf(o) : given;
        if (value === undefined) {
          if (o.required) problems.push(`${f.key} (${o.title}) is required`);
          resolved.set(f.key, undefined);
          continue;
        }
        const list = Array.isArray(value) ? value.map(String) : [typeof value === 'string' ? value : String(value)];
        for (const item of list) {
          if (o.type === 'number') {
            const n = Number(item);
            if (item.trim() === '' || !Number.isFinite(n)) problems.push(`${f.key} must be a number, not "${item}"`);
            else if ((o.min !== undefined && n < o.min) || (o.max !== undefined && n > o.max))
              problems.push(`${f.key} must be from ${o.min ?? '-∞'} to ${o.max ?? '∞'}, not ${n}`);
          }
          if (o.type === 'boolean' && item !== 'true' && item !== 'false') problems.push(`${f.key} must be true or false, not "${item}"`);
        }
        resolved.set(f.key, o.multiple ? list : list.join(','));
      }
      if (problems.length) throw new BundleError(problems.join('; '));

      const vars: Record<string, string> = { ...dirs, __dirname: dir, pathSeparator: sep, '/': sep };
      for (const [key, value] of resolved) if (value !== undefined) vars[`user_config.${key}`] = Array.isArray(value) ? value.join(' ') : value;
      const undeclared = (text: string) => {
        for (const m of text.matchAll(/\$\{user_config\.([^}]+)\}/g))
          if (!resolved.has(m[1]!)) throw new BundleError(`the manifest uses \${user_config.${m[1]}}, which its user_config does not declare`);
      };
      const config = manifest.server.mcp_config;
      const override = config.platform_overrides?.[process.platform];
      const command = override?.command ?? config.command;
      const args = override?.args ?? config.args ?? [];
      const env = override?.env ?? config.env ?? {};
      const argv: string[] = [];
      for (const arg of args) {
        undeclared(arg);
        const whole = /^\$\{user_config\.([^}]+)\}$/.exec(arg);
        if (whole) {
          const value = resolved.get(whole[1]!);
          if (value === undefined) continue;
          argv.push(...(Array.isArray(value) ? value : [value]));
        } else argv.push(substitute(arg, vars));
      }
      const envValues: Record<string, string> = {};
      for (const [name, value] of Object.entries(env)) {
        undeclared(value);
        const whole = /^\$\{user_config\.([^}]+)\}$/.exec(value);
        if (whole && resolved.get(whole[1]!) === undefined) continue;
        envValues[name] = substitute(value, vars);
      }
      undeclared(command);
      const entry: McpJsonEntry = {
        type: 'stdio',
        command: substitute(command, vars),
        args: argv,
        ...(Object.keys(envValues).length ? { env: envValues } : {}),
      };
      const used = JSON.stringify(entry);
      const inputs: InputDefinition[] = fields
        .filter((f) => f.secret && used.includes(`\${input:${f.inputId}}`))
        .map((f) => ({
          id: f.inputId!,
          type: 'promptString',
          password: true,
          description: `${f.option.title} of ${manifest.display_name ?? manifest.name}${f.option.description ? `: ${f.option.description}` : ''}`,
        }));
      return { entry, inputs };
    },
  };
}

/** Where the CLI keeps installed bundles: `$XDG_DATA_HOME/mcp-host/bundles` (per-OS equivalents elsewhere). */
export function cliBundlesFolder(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  if (env.MCP_HOST_BUNDLES) return env.MCP_HOST_BUNDLES;
  const home = env.HOME ?? env.USERPROFILE ?? homedir();
  if (platform === 'win32') return join(env.LOCALAPPDATA ?? join(home, 'AppData', 'Local'), 'mcp-host', 'bundles');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'mcp-host', 'bundles');
  return join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'mcp-host', 'bundles');
}
