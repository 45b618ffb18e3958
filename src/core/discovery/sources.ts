// Servers configured for other apps, found where each app keeps them and read only: Claude Desktop, Claude Code,
// Cursor, Windsurf, GitHub Copilot CLI and Codex. Each app's own shape (Windsurf's `serverUrl`, Copilot's
// `"type": "local"`, Codex's TOML tables, Claude Code's `${VAR}`) is brought to an mcp.json entry, then read by the
// one mcp.json parser, so a discovered server is a ServerDefinition like any other. Every file is read bounded; a
// missing file is no servers, a broken one is a message for its source alone.
import { join } from 'node:path';
import { parseMcpConfig, type ServerDefinition } from '../config';
import { FileReadError, readBoundedText } from '../io/boundedRead';
import { parseJsonBounded } from '../io/json';
import { MiB } from '../io/limits';
import { DISCOVERY_SOURCES, SOURCE_LABELS, type DiscoverySourceId } from './sourceIds';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (src/core/libraries.ts)
const libraries = () => require('../libraries') as typeof import('../libraries');

/** The most bytes read of one app's config (`~/.claude.json` also holds Claude Code's history, so it is larger). */
export const DISCOVERY_MAX_BYTES = 16 * MiB;

export interface DiscoveryContext {
  home: string;
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  /** The open folders (the CLI: the current directory): their project files are read too. */
  workspaceFolders: readonly string[];
}

type Format = 'json' | 'claudeJson' | 'toml';

interface SourceFile {
  path: string;
  format: Format;
}

/** Where each app keeps its servers, for this OS and these folders. */
export function sourceFiles(id: DiscoverySourceId, ctx: DiscoveryContext): SourceFile[] {
  const { home, platform, env } = ctx;
  const project = (relative: string, format: Format = 'json') => ctx.workspaceFolders.map((f) => ({ path: join(f, relative), format }));
  switch (id) {
    case 'claudeDesktop': {
      const dir =
        platform === 'darwin'
          ? join(home, 'Library', 'Application Support', 'Claude')
          : platform === 'win32'
            ? join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Claude')
            : join(env.XDG_CONFIG_HOME || join(home, '.config'), 'Claude');
      return [{ path: join(dir, 'claude_desktop_config.json'), format: 'json' }];
    }
    case 'claudeCode':
      return [{ path: join(home, '.claude.json'), format: 'claudeJson' }, ...project('.mcp.json')];
    case 'cursor':
      return [{ path: join(home, '.cursor', 'mcp.json'), format: 'json' }, ...project(join('.cursor', 'mcp.json'))];
    case 'windsurf':
      return [{ path: join(home, '.codeium', 'windsurf', 'mcp_config.json'), format: 'json' }];
    case 'copilotCli':
      return [{ path: join(home, '.copilot', 'mcp-config.json'), format: 'json' }];
    case 'codex':
      return [{ path: join(env.CODEX_HOME || join(home, '.codex'), 'config.toml'), format: 'toml' }];
  }
}

export interface DiscoveredServer {
  source: DiscoverySourceId;
  /** The definition, its `file` the app's config file. */
  definition: ServerDefinition;
}

export interface SourceResult {
  source: DiscoverySourceId;
  label: string;
  servers: DiscoveredServer[];
  /** The files looked at that exist. */
  files: string[];
  /** What could not be read, one message each (the source's other files are still read). */
  problems: string[];
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Claude Code's `${VAR}` and `${VAR:-default}` as this host's `${env:VAR}` (the default is not kept). */
function claudeVariables(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(:-[^}]*)?\}/g, (_all, name: string) => `\${env:${name}}`);
  if (Array.isArray(value)) return value.map(claudeVariables);
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, claudeVariables(v)]));
  return value;
}

/** One app's entry as an mcp.json entry. */
function normalizeEntry(source: DiscoverySourceId, raw: unknown): unknown {
  if (!isRecord(raw)) return raw;
  const entry: Record<string, unknown> = { ...raw };
  // Keys other apps add that this host does not read (Copilot's tools, Claude's per-server flags).
  for (const key of ['tools', 'disabled', 'autoApprove', 'alwaysAllow', 'timeout', 'disabledTools', 'trust', 'description', 'title']) delete entry[key];
  if (source === 'windsurf' && entry.serverUrl !== undefined && entry.url === undefined) {
    entry.url = entry.serverUrl;
    delete entry.serverUrl;
  }
  if (source === 'copilotCli' && entry.type === 'local') entry.type = 'stdio';
  if (source === 'claudeCode') return claudeVariables(entry);
  return entry;
}

/** Codex's `[mcp_servers.NAME]` table as an mcp.json entry. */
function codexEntry(raw: unknown): unknown {
  if (!isRecord(raw)) return raw;
  if (raw.url !== undefined) {
    const headers: Record<string, unknown> = isRecord(raw.http_headers) ? { ...raw.http_headers } : {};
    if (isRecord(raw.env_http_headers)) for (const [h, variable] of Object.entries(raw.env_http_headers)) headers[h] = `\${env:${String(variable)}}`;
    if (typeof raw.bearer_token_env_var === 'string') headers.Authorization = `Bearer \${env:${raw.bearer_token_env_var}}`;
    return { type: 'http', url: raw.url, ...(Object.keys(headers).length ? { headers } : {}) };
  }
  const env: Record<string, unknown> = isRecord(raw.env) ? { ...raw.env } : {};
  // `env_vars`: variables passed through from Codex's own environment.
  if (Array.isArray(raw.env_vars)) for (const name of raw.env_vars) if (typeof name === 'string') env[name] = `\${env:${name}}`;
  return {
    type: 'stdio',
    command: raw.command,
    ...(raw.args !== undefined ? { args: raw.args } : {}),
    ...(Object.keys(env).length ? { env } : {}),
    ...(raw.cwd !== undefined ? { cwd: raw.cwd } : {}),
  };
}

/** The `{ name: entry }` servers of one file's parsed content. */
function serversOf(
  source: DiscoverySourceId,
  format: Format,
  content: unknown,
  ctx: DiscoveryContext,
  problems: string[],
  file: string,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!isRecord(content)) {
    problems.push(`${file}: not an object at its top`);
    return out;
  }
  const add = (section: unknown, where: string) => {
    if (section === undefined) return;
    if (!isRecord(section)) {
      problems.push(`${file}: ${where} is not an object`);
      return;
    }
    for (const [name, raw] of Object.entries(section)) {
      if (format === 'toml' && isRecord(raw) && raw.enabled === false) continue;
      out[name] = format === 'toml' ? codexEntry(raw) : normalizeEntry(source, raw);
    }
  };
  if (format === 'toml') add(content.mcp_servers, '[mcp_servers]');
  else {
    add(content.mcpServers, '"mcpServers"');
    // ~/.claude.json: servers of the user scope, then the local scope of each open folder.
    if (format === 'claudeJson' && isRecord(content.projects)) {
      for (const folder of ctx.workspaceFolders) {
        const projectEntry = content.projects[folder];
        if (isRecord(projectEntry)) add(projectEntry.mcpServers, `projects["${folder}"].mcpServers`);
      }
    }
  }
  return out;
}

async function readSource(id: DiscoverySourceId, ctx: DiscoveryContext): Promise<SourceResult> {
  const result: SourceResult = { source: id, label: SOURCE_LABELS[id], servers: [], files: [], problems: [] };
  for (const { path, format } of sourceFiles(id, ctx)) {
    let text: string;
    try {
      text = await readBoundedText(path, DISCOVERY_MAX_BYTES, `the ${SOURCE_LABELS[id]} config`);
    } catch (e) {
      if (e instanceof FileReadError && (e.code === 'ENOENT' || e.code === 'ENOTDIR')) continue;
      result.problems.push(`${path}: ${(e as Error).message}`);
      continue;
    }
    result.files.push(path);
    let content: unknown;
    try {
      content = format === 'toml' ? libraries().toml.parse(text) : parseJsonBounded(text.replace(/^\uFEFF/, ''));
    } catch (e) {
      result.problems.push(`${path}: not valid ${format === 'toml' ? 'TOML' : 'JSON'}: ${(e as Error).message.split('\n')[0]}`);
      continue;
    }
    const servers = serversOf(id, format, content, ctx, result.problems, path);
    // The mcp.json parser checks each entry (a bad one is skipped with its message, the others kept).
    const parsed = parseMcpConfig(JSON.stringify({ mcpServers: servers }), path);
    for (const e of parsed.errors) result.problems.push(`${path}: ${e.message}`);
    const taken = new Set(result.servers.map((s) => s.definition.name));
    for (const definition of parsed.servers) {
      // A project's server of the same name overrides the user's, as in the app itself.
      if (taken.has(definition.name)) result.servers = result.servers.filter((s) => s.definition.name !== definition.name);
      result.servers.push({ source: id, definition });
    }
  }
  return result;
}

/** The servers of each source asked for, in the order given. */
export function discoverServers(ctx: DiscoveryContext, sources: readonly DiscoverySourceId[] = DISCOVERY_SOURCES): Promise<SourceResult[]> {
  return Promise.all(sources.map((id) => readSource(id, ctx)));
}
