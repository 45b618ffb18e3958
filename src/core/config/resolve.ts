import { homedir } from 'node:os';
import { isAbsolute, join, resolve as resolvePath } from 'node:path';
import { readBoundedText } from '../io/boundedRead';
import { FILE_LIMITS } from '../io/limits';
import { getOwn, setOwn } from '../io/own';
import { stringsOfSecureArguments, substituteSecureArguments } from '../secureParams/config';
import type { ResolvedServer, ServerDefinition, VariableContext } from './types';
import { sandboxPolicy } from '../sandbox/policy';
import { HostError } from '../errors';

const VARIABLE = /\$\{([^}]+)\}/g;
const INPUT_VARIABLE = /\$\{input:([^}]+)\}/g;

/** A variable that could not be resolved (an `${input:…}` with no value); names the server and the input. */
export class UnresolvedInputError extends HostError {
  static override readonly brand: string = 'UnresolvedInputError';
  constructor(
    readonly server: string,
    readonly inputId: string,
  ) {
    super(`server "${server}" needs the input "${inputId}", and no value was given`);
  }
}

/** Every string a definition holds, in which variables may appear. */
function stringsOf(def: ServerDefinition): string[] {
  const secure = stringsOfSecureArguments(def.secureArguments);
  if (def.type === 'stdio') {
    return [...secure, def.command, ...def.args, ...Object.values(def.env).filter((v): v is string => v !== null), def.envFile ?? '', def.cwd ?? ''];
  }
  return [...secure, def.url, ...Object.values(def.headers), ...Object.values(def.oauth ?? {})];
}

/** The `${input:ID}` ids a server definition refers to, each once, in order of appearance. */
export function inputIdsUsedBy(def: ServerDefinition): string[] {
  const ids: string[] = [];
  for (const s of stringsOf(def)) {
    for (const [, id] of s.matchAll(INPUT_VARIABLE)) if (!ids.includes(id!)) ids.push(id!);
  }
  return ids;
}

/** Parses a dotenv file: `KEY=value`, `export KEY=value`, `#` comments, optional single or double quotes. */
export function parseEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line === '' || line.startsWith('#')) continue;
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/.exec(line);
    if (!m) continue;
    let value = m[2]!;
    const quote = value[0];
    if ((quote === '"' || quote === "'") && value.endsWith(quote) && value.length >= 2) {
      value = value.slice(1, -1);
      if (quote === '"') value = value.replace(/\\n/g, '\n').replace(/\\"/g, '"');
    } else {
      value = value.replace(/\s+#.*$/, '');
    }
    setOwn(out, m[1]!, value);
  }
  return out;
}

function untildify(path: string, home: string): string {
  return path === '~' ? home : path.startsWith('~/') || path.startsWith('~\\') ? join(home, path.slice(2)) : path;
}

/**
 * Substitutes `${workspaceFolder}`, `${userHome}`, `${env:NAME}` and `${input:ID}` in every field, merges the
 * environment of a stdio server (inherited, then envFile, then env; `null` deletes) and defaults its cwd to
 * the workspace folder. Unknown variables are left as written. `secrets` lists the values of `password: true`
 * (and undeclared) inputs, for the connection's log to mask.
 */
export async function resolveServer(def: ServerDefinition, vars: VariableContext): Promise<ResolvedServer> {
  const env = vars.env ?? process.env;
  const home = vars.userHome ?? homedir();
  const inputValues = new Map<string, string>();
  const secrets: string[] = [];
  for (const id of inputIdsUsedBy(def)) {
    const input = vars.inputs?.find((i) => i.id === id);
    const value = await vars.resolveInput?.(id, input);
    if (value === undefined) throw new UnresolvedInputError(def.name, id);
    inputValues.set(id, value);
    // An undeclared input is treated as a secret, as the extension stores it.
    if ((!input || input.password) && value !== '') secrets.push(value);
  }

  const sub = (s: string): string =>
    s.replace(VARIABLE, (whole, name: string) => {
      if (name === 'workspaceFolder') return vars.workspaceFolder ?? whole;
      if (name === 'userHome') return home;
      if (name === 'pathSeparator' || name === '/') return process.platform === 'win32' ? '\\' : '/';
      if (name.startsWith('env:')) return getOwn(env, name.slice(4)) ?? '';
      if (name.startsWith('input:')) return inputValues.get(name.slice(6)) ?? whole;
      return whole;
    });

  const secure = def.secureArguments ? { secureArguments: substituteSecureArguments(def.secureArguments, sub) } : {};
  if (def.type !== 'stdio') {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(def.headers)) setOwn(headers, k, sub(v));
    const oauth = def.oauth ? Object.fromEntries(Object.entries(def.oauth).map(([k, v]) => [k, sub(v)])) : undefined;
    return { name: def.name, transport: def.type, url: sub(def.url), headers, secrets, ...(oauth ? { oauth } : {}), ...secure };
  }

  const merged: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) setOwn(merged, k, v);
  const base = vars.workspaceFolder ?? process.cwd();
  if (def.envFile) {
    const envFile = resolvePath(base, untildify(sub(def.envFile), home));
    let text: string;
    try {
      text = await readBoundedText(envFile, FILE_LIMITS.envFile, 'the envFile');
    } catch (e) {
      throw new Error(`server "${def.name}": ${(e as Error).message}`);
    }
    for (const [k, v] of Object.entries(parseEnvFile(text))) setOwn(merged, k, v);
  }
  for (const [k, v] of Object.entries(def.env)) {
    if (v === null) delete merged[k];
    else setOwn(merged, k, sub(v));
  }
  const cwdRaw = def.cwd ? untildify(sub(def.cwd), home) : vars.workspaceFolder;
  const cwd = cwdRaw === undefined ? undefined : isAbsolute(cwdRaw) ? cwdRaw : resolvePath(base, cwdRaw);
  const command = untildify(sub(def.command), home);
  const sandbox = def.sandboxEnabled
    ? sandboxPolicy(def.sandbox, { command, cwd: cwd ?? process.cwd(), home: getOwn(merged, 'HOME') ?? home, sub })
    : undefined;
  return { name: def.name, transport: 'stdio', command, args: def.args.map(sub), env: merged, cwd, secrets, ...secure, ...(sandbox ? { sandbox } : {}) };
}
