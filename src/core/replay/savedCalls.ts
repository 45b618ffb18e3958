// The workspace's saved calls: a JSON file (`.vscode/mcp-calls.json` by default) of tool calls with what their
// results are expected to be. Its format is the JSON Schema schemas/mcp-calls.schema.json (the editor completes
// and checks the file with it; this module checks it with the same schema); documented in the README.
// Read by the MCP view and `mcp-host run`, written by Save Call… and `mcp-host call --record`, comments kept.
import { writeFile, rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { applyEdits, modify, parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { readBoundedText } from '../io/boundedRead';
import { KiB, MiB } from '../io/limits';
import { lineColumns, nestingProblem } from '../io/json';
import { ajvMessages, checkValue, compileSchema } from '../forms/validate';
import savedCallsSchema from '../../../schemas/mcp-calls.schema.json';
import { HostError } from '../errors';

export { savedCallsSchema };
export { SAVED_CALLS_FILE, resolveSavedPath, savedCallsBase, toSavedPath } from './paths';

export const SAVED_CALLS_LIMITS = {
  /** The most a saved-calls file may hold. */
  fileBytes: 4 * MiB,
  /** The most one call's arguments may hold (JSON). */
  argumentsBytes: 256 * KiB,
} as const;

/** A file argument as saved: its workspace path, and what it was when saved (a changed file is refused). */
export interface SavedFile {
  path: string;
  sha256?: string;
  size?: number;
  mediaType?: string;
}

export interface Expectations {
  outcome?: 'success' | 'toolError';
  structuredContent?: { equals?: unknown; contains?: unknown; matchesSchema?: object | boolean };
  text?: { contains?: string; matches?: string };
  maxDurationMs?: number;
}

export interface SavedCall {
  name: string;
  server: string;
  tool: string;
  arguments?: Record<string, unknown>;
  /** By argument label (`image`, `doc.attachment`): one file, or several for a list of files. */
  files?: Record<string, string | SavedFile | Array<string | SavedFile>>;
  /** By argument label: `env:NAME` or `file:PATH`, read when the call runs. */
  secrets?: Record<string, string>;
  expect?: Expectations;
}

export interface SavedCallsFile {
  $schema?: string;
  version?: 1;
  calls: SavedCall[];
}

/** A saved-calls file that is not valid: the file, and each problem with its place. */
export class SavedCallsError extends HostError {
  static override readonly brand: string = 'SavedCallsError';
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super(`${file} is not a valid saved-calls file:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
}

/** Every file argument of a call as SavedFile entries, by label, in order. */
export function savedFilesOf(call: SavedCall): Array<{ label: string; files: SavedFile[] }> {
  return Object.entries(call.files ?? {}).map(([label, given]) => ({
    label,
    files: [given].flat().map((f) => (typeof f === 'string' ? { path: f } : f)),
  }));
}

/** Checks the text of a saved-calls file (JSON with comments) against the format; throws SavedCallsError naming each problem. */
export function parseSavedCalls(text: string, file: string): SavedCallsFile {
  if (text.length > SAVED_CALLS_LIMITS.fileBytes) throw new SavedCallsError(file, [`the file holds more than ${SAVED_CALLS_LIMITS.fileBytes / MiB} MiB`]);
  const tooDeep = nestingProblem(text, true);
  if (tooDeep) throw new SavedCallsError(file, [tooDeep]);
  const errors: ParseError[] = [];
  const value = (text.trim() === '' ? { calls: [] } : parse(text, errors, { allowTrailingComma: true })) as unknown;
  if (errors.length > 0) {
    const places = lineColumns(
      text,
      errors.map((e) => e.offset),
    );
    throw new SavedCallsError(
      file,
      errors.slice(0, 10).map((e, i) => `line ${places[i]!.line}, column ${places[i]!.column}: ${printParseErrorCode(e.error)}`),
    );
  }
  const validate = compileSchema(savedCallsSchema);
  if (typeof validate === 'string') throw new Error(`the saved-calls schema: ${validate}`);
  const check = checkValue(validate, value);
  if (!check.valid) throw new SavedCallsError(file, ajvMessages(check.errors, 10));
  const calls = (value as SavedCallsFile).calls;
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const [i, call] of calls.entries()) {
    if (seen.has(call.name)) problems.push(`/calls/${i}/name: "${call.name}" names another call too; names are unique in a file`);
    seen.add(call.name);
    const size = JSON.stringify(call.arguments ?? {}).length;
    if (size > SAVED_CALLS_LIMITS.argumentsBytes) problems.push(`/calls/${i}/arguments: ${size} bytes; the most is ${SAVED_CALLS_LIMITS.argumentsBytes}`);
  }
  if (problems.length) throw new SavedCallsError(file, problems);
  return value as SavedCallsFile;
}

/** Reads and checks a saved-calls file (a missing one is an error: the caller names it). */
export async function readSavedCalls(file: string): Promise<SavedCallsFile> {
  return parseSavedCalls(await readBoundedText(file, SAVED_CALLS_LIMITS.fileBytes, 'the saved-calls file'), file);
}

/** `name`, or `name-2`, `name-3`… when taken. */
export function uniqueCallName(name: string, taken: readonly string[]): string {
  if (!taken.includes(name)) return name;
  for (let n = 2; ; n++) if (!taken.includes(`${name}-${n}`)) return `${name}-${n}`;
}

const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } };

/**
 * The file's text with `call` appended (renamed `name-2`… when its name is taken), comments kept; a blank text
 * becomes a new file pointing at the schema. Throws SavedCallsError when the text is not a valid file.
 */
export function appendSavedCall(text: string, file: string, call: SavedCall): { text: string; name: string } {
  const existing = parseSavedCalls(text, file);
  const name = uniqueCallName(
    call.name,
    existing.calls.map((c) => c.name),
  );
  let out = text.trim() === '' ? '{\n  "version": 1,\n  "calls": []\n}\n' : text;
  if (!(parse(out, [], { allowTrailingComma: true }) as { calls?: unknown }).calls) out = applyEdits(out, modify(out, ['calls'], [], FORMAT));
  out = applyEdits(out, modify(out, ['calls', -1], { ...call, name }, { ...FORMAT, isArrayInsertion: true }));
  parseSavedCalls(out, file);
  return { text: out, name };
}

/** The file's text with the call named `name` replaced by `call` (its expectations edited, say), comments kept. */
export function replaceSavedCall(text: string, file: string, name: string, call: SavedCall): string {
  const existing = parseSavedCalls(text, file);
  const index = existing.calls.findIndex((c) => c.name === name);
  if (index === -1) throw new SavedCallsError(file, [`no call named "${name}"`]);
  const out = applyEdits(text, modify(text, ['calls', index], call, FORMAT));
  parseSavedCalls(out, file);
  return out;
}

/** Writes a whole new text in place (a temporary file renamed over it: a reader never sees half of it). */
export async function writeSavedCalls(file: string, text: string): Promise<void> {
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  await writeFile(temp, text, 'utf8');
  await rename(temp, file);
}
