// A run as it is kept (the MCP view's History) and turned into a saved call or an `mcp-host` command: who asked,
// the arguments, the outcome and how long it took. Never a file's bytes (a file is its path, size, type and
// sha-256) nor a secret (a secret field's value, or one of the host's secrets, is left out and named).
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import { isObject } from '../../shared/json';
import type { FormField, FormModel } from '../../shared/formModel';
import { redactValue, type FileSlot } from '../files';
import { fileSha256 } from '../files/transfer/http';
import { buildForm } from '../forms/build';
import { KiB } from '../io/limits';
import type { SlotFiles } from '../run/fileChoices';
import { toSavedPath } from './paths';
import type { SavedCall, SavedFile } from './savedCalls';

export type RunCaller = 'person' | 'agent';
export type RunOutcomeKind = 'success' | 'toolError' | 'failed' | 'cancelled';

export interface RecordedFile {
  /** The argument's label (`image`, `doc.attachment`). */
  argument: string;
  path: string;
  size: number;
  mediaType: string;
  /** base64url, as SEP-2631 writes it. */
  sha256: string;
}

export interface RunRecord {
  id: string;
  /** When the run started (ms since the epoch). */
  at: number;
  server: string;
  tool: string;
  by: RunCaller;
  /** Without files and secrets; absent when larger than RECORD_LIMITS.argumentsBytes (argumentsNote says so). */
  arguments?: Record<string, unknown>;
  argumentsNote?: string;
  files: RecordedFile[];
  /** Labels of the secret arguments left out. */
  secrets: string[];
  outcome: RunOutcomeKind;
  error?: string;
  durationMs: number;
}

export const RECORD_LIMITS = {
  /** The most a run's kept arguments may hold (JSON); larger ones are not kept. */
  argumentsBytes: 32 * KiB,
  errorChars: 1000,
  /** The most a whole record may hold (UTF-8 bytes of its JSON); past it only a summary is kept (newRecord). */
  recordBytes: 48 * KiB,
  /** In a summary: the characters kept of the server's and the tool's names and of each secret's label, and how many labels. */
  nameChars: 256,
  secretLabels: 20,
} as const;

/** Where `deleteAtPath` took a value out of. */
function deleteAtPath(value: unknown, path: readonly string[]): boolean {
  let at = value;
  for (const key of path.slice(0, -1)) {
    if (!isObject(at)) return false;
    at = at[key];
  }
  const last = path[path.length - 1];
  if (!isObject(at) || last === undefined || !(last in at)) return false;
  delete at[last];
  return true;
}

/** The paths of a form's secret fields (format password, writeOnly), outside lists. */
function secretPaths(fields: readonly FormField[]): string[][] {
  return fields.flatMap((f) => (f.kind === 'string' && f.secret ? [f.path] : f.kind === 'object' ? secretPaths(f.fields) : []));
}

/** Every string of a value replaced by `mask(string)` (a deep copy). */
function mapStrings(value: unknown, mask: (s: string) => string): unknown {
  if (typeof value === 'string') return mask(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, mask));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, mask)]));
  return value;
}

/**
 * The arguments as kept: file slots and secret fields taken out (their labels in `secrets`), data: URIs
 * redacted, a value holding one of the host's secrets (`maskSecretsIn` changes it) shown masked.
 */
export function keptArguments(
  tool: Tool,
  payload: Record<string, unknown>,
  slots: readonly FileSlot[],
  form: FormModel | undefined,
  maskSecretsIn: (text: string) => string,
): Pick<RunRecord, 'arguments' | 'argumentsNote' | 'secrets'> {
  const copy = structuredClone(payload);
  for (const slot of slots) deleteAtPath(copy, slot.path);
  const secrets: string[] = [];
  for (const path of secretPaths((form ?? buildForm(tool.inputSchema)).fields)) if (deleteAtPath(copy, path)) secrets.push(path.join('.'));
  const kept = redactValue(mapStrings(copy, maskSecretsIn)) as Record<string, unknown>;
  const size = Buffer.byteLength(JSON.stringify(kept), 'utf8');
  if (size > RECORD_LIMITS.argumentsBytes)
    return { argumentsNote: `the arguments (${size} bytes of JSON) are over the ${RECORD_LIMITS.argumentsBytes / KiB} KiB kept`, secrets };
  return { arguments: kept, secrets };
}

/** The record with these arguments (given as secrets: `--secret`, a saved call's `secrets`) taken out and named. */
export function withSecretsLeftOut<R extends Pick<RunRecord, 'arguments' | 'secrets'>>(record: R, labels: readonly string[]): R {
  if (labels.length === 0) return record;
  const args = record.arguments && structuredClone(record.arguments);
  for (const label of labels) if (args) deleteAtPath(args, label.split('.'));
  return { ...record, ...(args ? { arguments: args } : {}), secrets: [...new Set([...record.secrets, ...labels])] };
}

/** Why a file is not the one recorded (gone, another size, other bytes), or undefined when it is the same. */
export async function fileChangedSince(
  path: string,
  recorded: { size?: number; sha256?: string },
  label: string,
  signal?: AbortSignal,
): Promise<string | undefined> {
  const name = basename(path);
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (e) {
    return `${label}: ${path} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
  }
  if (recorded.size !== undefined && size !== recorded.size) return `${label}: ${name} changed since it was recorded: ${recorded.size} bytes then, ${size} now`;
  if (recorded.sha256 === undefined) return undefined;
  const now = await fileSha256({ path, name, size }, signal);
  return now === recorded.sha256
    ? undefined
    : `${label}: ${name} changed since it was recorded: sha-256 ${recorded.sha256.slice(0, 12)}… then, ${now.slice(0, 12)}… now`;
}

/** The chosen files as recorded: path, size, type and sha-256 (read once, streamed; never kept). */
export async function recordedFiles(slots: readonly SlotFiles[], signal?: AbortSignal): Promise<RecordedFile[]> {
  const out: RecordedFile[] = [];
  for (const { slot, files } of slots) {
    for (const file of files) {
      out.push({ argument: slot.label, path: file.path, size: file.size, mediaType: file.mediaType, sha256: await fileSha256(file, signal) });
    }
  }
  return out;
}

const recordBytesOf = (record: RunRecord) => Buffer.byteLength(JSON.stringify(record), 'utf8');

/**
 * A run's record, at most RECORD_LIMITS.recordBytes: one larger (many files, long names) is kept as a summary
 * without its arguments and files, which cannot be run again (argumentsNote says why).
 */
export function newRecord(fields: Omit<RunRecord, 'id'>): RunRecord {
  const record: RunRecord = { id: randomUUID(), ...fields, ...(fields.error ? { error: fields.error.slice(0, RECORD_LIMITS.errorChars) } : {}) };
  const bytes = recordBytesOf(record);
  if (bytes <= RECORD_LIMITS.recordBytes) return record;
  const { arguments: _arguments, ...rest } = record;
  const cut = (name: string) => name.slice(0, RECORD_LIMITS.nameChars);
  return {
    ...rest,
    server: cut(rest.server),
    tool: cut(rest.tool),
    files: [],
    secrets: rest.secrets.slice(0, RECORD_LIMITS.secretLabels).map(cut),
    argumentsNote: `the run's record (${bytes} bytes of JSON${record.files.length ? `, ${record.files.length} files` : ''}) is over the ${RECORD_LIMITS.recordBytes / KiB} KiB kept of a run; its arguments and files are not kept`,
  };
}

/** The name of the environment variable a secret argument is read from in a copied command or a saved call. */
export function secretEnvName(label: string): string {
  return `MCP_SECRET_${label.replace(/[^A-Za-z0-9]+/g, '_').toUpperCase()}`;
}

/** A run as a saved call (files relative to `base`, the workspace folder; secrets as `env:` sources). */
export function savedCallOf(record: Pick<RunRecord, 'server' | 'tool' | 'arguments' | 'files' | 'secrets'>, base: string, name = record.tool): SavedCall {
  const files: Record<string, SavedFile[]> = {};
  for (const f of record.files) {
    (files[f.argument] ??= []).push({ path: toSavedPath(base, f.path), sha256: f.sha256, size: f.size, mediaType: f.mediaType });
  }
  return {
    name,
    server: record.server,
    tool: record.tool,
    ...(record.arguments && Object.keys(record.arguments).length ? { arguments: record.arguments } : {}),
    ...(record.files.length ? { files: Object.fromEntries(Object.entries(files).map(([k, v]) => [k, v.length === 1 ? v[0]! : v])) } : {}),
    ...(record.secrets.length ? { secrets: Object.fromEntries(record.secrets.map((s) => [s, `env:${secretEnvName(s)}`])) } : {}),
  };
}

/** A word for a POSIX shell: single-quoted unless plain. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/**
 * The `mcp-host call` command that makes the same call (files as --file, secrets as --secret ARG=env:NAME).
 * Throws when the run's arguments were not kept (a command without them would make another call).
 */
export function mcpHostCommand(
  record: Pick<RunRecord, 'server' | 'tool' | 'arguments' | 'argumentsNote' | 'files' | 'secrets'>,
  opts: { config?: string; base?: string } = {},
): string {
  if (!record.arguments) throw new Error(`This run cannot be copied as a command: ${record.argumentsNote ?? 'its arguments were not kept'}.`);
  const words = ['mcp-host', 'call', record.tool, '--server', record.server];
  if (opts.config) words.push('--config', opts.config);
  if (record.arguments && Object.keys(record.arguments).length) words.push('--args', JSON.stringify(record.arguments));
  for (const f of record.files) words.push('--file', `${f.argument}=${opts.base ? toSavedPath(opts.base, f.path) : f.path}`);
  for (const s of record.secrets) words.push('--secret', `${s}=env:${secretEnvName(s)}`);
  return words.map(shellWord).join(' ');
}
