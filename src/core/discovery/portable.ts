// Carrying servers in and out. Export writes the standard client mcp.json proposed by SEP-2633 (`mcpServers`,
// `type` stdio / sse / streamable-http, secrets as `${env:X}` or `${input:X}` placeholders, never values). Import
// turns a server (discovered in another app, or read from such a file) into an entry of this host's mcp.json, with
// the values that look secret (environment variables and headers) replaced by `${input:…}` password inputs, so they
// are asked once and kept in secret storage instead of being copied in clear.
import type { InputDefinition, ServerDefinition } from '../config';

/** SEP-2633: a server's name matches this. */
const STANDARD_NAME = /^[A-Za-z0-9_[\]-]+$/;

export interface StandardEntry {
  type: 'stdio' | 'sse' | 'streamable-http';
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  headers?: Record<string, string>;
  oauth?: { clientId?: string; scopes?: string[] };
}

export interface StandardDocument {
  mcpServers: Record<string, StandardEntry>;
}

export interface ExportResult {
  document: StandardDocument;
  /** What the standard format cannot carry, and was left out (a name, a field), one line each. */
  notes: string[];
}

/** The servers in SEP-2633's format; values of inputs are never looked up, their placeholders stay. */
export function exportStandard(servers: readonly ServerDefinition[]): ExportResult {
  const notes: string[] = [];
  const mcpServers: Record<string, StandardEntry> = {};
  for (const def of servers) {
    let name = def.name;
    if (!STANDARD_NAME.test(name)) {
      name = name.replace(/[^A-Za-z0-9_[\]-]+/g, '-') || 'server';
      notes.push(`"${def.name}" is exported as "${name}" (a standard name has only letters, digits, -, _, [ and ])`);
    }
    for (let n = 2; Object.hasOwn(mcpServers, name); n++) name = `${name.replace(/-\d+$/, '')}-${n}`;
    if (def.type === 'stdio') {
      const env: Record<string, string> = {};
      for (const [k, v] of Object.entries(def.env)) {
        if (v === null) notes.push(`${def.name}: env ${k} is null (removed from the environment), which the standard format cannot say; left out`);
        else env[k] = v;
      }
      if (def.envFile) notes.push(`${def.name}: envFile ${def.envFile} is not part of the standard format; left out`);
      if (def.cwd) notes.push(`${def.name}: cwd ${def.cwd} is not part of the standard format; left out`);
      mcpServers[name] = {
        type: 'stdio',
        command: def.command,
        ...(def.args.length ? { args: [...def.args] } : {}),
        ...(Object.keys(env).length ? { env } : {}),
      };
    } else {
      const entry: StandardEntry = { type: def.type === 'sse' ? 'sse' : 'streamable-http', url: def.url };
      if (Object.keys(def.headers).length) entry.headers = { ...def.headers };
      if (def.oauth) {
        const oauth: StandardEntry['oauth'] = {};
        if (def.oauth.clientId) oauth.clientId = def.oauth.clientId;
        if (def.oauth.scope) oauth.scopes = def.oauth.scope.split(/\s+/).filter(Boolean);
        if (Object.keys(oauth).length) entry.oauth = oauth;
        const dropped = (['clientSecret', 'clientMetadataUrl', 'issuer'] as const).filter((k) => def.oauth![k] !== undefined);
        if (dropped.length)
          notes.push(`${def.name}: oauth ${dropped.join(', ')} ${dropped.length > 1 ? 'are' : 'is'} not part of the standard format; left out`);
      }
      mcpServers[name] = entry;
    }
    const text = JSON.stringify(mcpServers[name]);
    const hostOnly = [...new Set([...text.matchAll(/\$\{(workspaceFolder|userHome|pathSeparator|\/)\}/g)].map((m) => m[0]))];
    if (hostOnly.length)
      notes.push(`${def.name}: ${hostOnly.join(', ')} ${hostOnly.length > 1 ? 'are' : 'is'} a variable of this host that other clients may not resolve`);
  }
  return { document: { mcpServers }, notes };
}

/** The exported document as the file's text (plain JSON, as the standard asks). */
export function standardText(result: ExportResult): string {
  return `${JSON.stringify(result.document, null, 2)}\n`;
}

const SECRET_NAME =
  /(token|secret|passw(or)?d|passwd|pwd|api[-_]?key|apikey|access[-_]?key|private[-_]?key|credential|auth|cookie|session|bearer|signature|^key$|_key$|-key$)/i;
const SECRET_VALUE =
  /^(bearer|basic|token)\s+\S{8,}|^(sk|pk|rk)-[A-Za-z0-9_-]{16,}|^gh[pousr]_[A-Za-z0-9]{20,}|^github_pat_|^xox[abpr]-|^AKIA[0-9A-Z]{16}$|^eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\./i;

/** A value kept as a placeholder: it names where the value comes from, it is not the value. */
const PLACEHOLDER_ONLY = /^(?:[^$]*\$\{(?:env|input):[^}]+\}[^$]*)+$/;

function looksSecret(name: string, value: string): boolean {
  if (value === '' || PLACEHOLDER_ONLY.test(value)) return false;
  return SECRET_NAME.test(name) || SECRET_VALUE.test(value.trim());
}

export interface ImportedEntry {
  /** The mcp.json entry (type, command/args/env or url/headers/oauth). */
  entry: Record<string, unknown>;
  /** Password inputs for the secrets taken out, and for every `${input:…}` the entry uses that was not declared. */
  inputs: InputDefinition[];
  /** The names of the values turned into inputs (`env API_KEY`, `header Authorization`). */
  secrets: string[];
}

/** The input id for one secret of a server: `<server>-<name>`, letters, digits, `.`, `_` and `-` only. */
function inputId(server: string, name: string): string {
  return `${server}-${name}`.replace(/[^A-Za-z0-9_.-]+/g, '-').toLowerCase();
}

/**
 * A server as an entry of this host's mcp.json: values that look secret become `${input:…}` password inputs
 * (a header's scheme, `Bearer `, is kept in front of its input); `${env:X}` and `${input:X}` stay as written.
 */
export function importEntry(def: ServerDefinition, declared: readonly InputDefinition[] = []): ImportedEntry {
  const inputs: InputDefinition[] = [];
  const secrets: string[] = [];
  const secretInput = (kind: 'env' | 'header', name: string, value: string): string => {
    if (!looksSecret(name, value)) return value;
    const id = inputId(def.name, name);
    inputs.push({ id, type: 'promptString', password: true, description: `${kind === 'env' ? 'Environment variable' : 'Header'} ${name} of ${def.name}` });
    secrets.push(`${kind} ${name}`);
    const scheme = kind === 'header' ? (/^(Bearer|Basic|Token)\s+/i.exec(value)?.[0] ?? '') : '';
    return `${scheme}\${input:${id}}`;
  };
  let entry: Record<string, unknown>;
  if (def.type === 'stdio') {
    const env: Record<string, string | null> = {};
    for (const [k, v] of Object.entries(def.env)) env[k] = v === null ? null : secretInput('env', k, v);
    entry = {
      type: 'stdio',
      command: def.command,
      args: [...def.args],
      ...(Object.keys(env).length ? { env } : {}),
      ...(def.envFile ? { envFile: def.envFile } : {}),
      ...(def.cwd ? { cwd: def.cwd } : {}),
    };
  } else {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(def.headers)) headers[k] = secretInput('header', k, v);
    entry = { type: def.type, url: def.url, ...(Object.keys(headers).length ? { headers } : {}), ...(def.oauth ? { oauth: { ...def.oauth } } : {}) };
    if (def.oauth?.clientSecret && !PLACEHOLDER_ONLY.test(def.oauth.clientSecret)) {
      const id = inputId(def.name, 'client-secret');
      inputs.push({ id, type: 'promptString', password: true, description: `OAuth client secret of ${def.name}` });
      secrets.push('oauth clientSecret');
      (entry.oauth as Record<string, string>).clientSecret = `\${input:${id}}`;
    }
  }
  // Inputs the entry names without a declaration (an exported file carries none): password prompts.
  const have = new Set([...inputs.map((i) => i.id)]);
  for (const m of JSON.stringify(entry).matchAll(/\$\{input:([^}]+)\}/g)) {
    const id = m[1]!;
    if (have.has(id)) continue;
    have.add(id);
    inputs.push(declared.find((i) => i.id === id) ?? { id, type: 'promptString', password: true, description: `${id} (for ${def.name})` });
  }
  return { entry, inputs, secrets };
}
