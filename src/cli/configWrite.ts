// Writing a server into an mcp.json from the command line (registry install, bundle install, import): the file
// read bounded, the entry added keeping its comments (core/config/edit.ts), the name made unique unless given.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { addServerEntry, serverNamesIn, uniqueServerName, type InputDefinition } from '../core/config';
import { readBoundedText } from '../core/io/boundedRead';
import { FILE_LIMITS } from '../core/io/limits';
import { usageError } from './options';
import { defaultConfigPath, type CliIo } from './target';

/** The mcp.json a command writes: --config, else .vscode/mcp.json here. */
export function configToWrite(config: string | undefined, io: CliIo): string {
  return resolve(io.cwd, config ?? defaultConfigPath(io));
}

/** Adds the server to the file (created when missing); returns the key it was written under. */
export async function writeServer(
  file: string,
  suggested: string,
  as: string | undefined,
  entry: Record<string, unknown>,
  inputs: readonly InputDefinition[],
): Promise<string> {
  const text = existsSync(file) ? await readBoundedText(file, FILE_LIMITS.config, 'the config file') : '';
  const taken = serverNamesIn(text);
  if (as !== undefined && taken.includes(as)) throw usageError(`--as ${as}: ${file} already has a server named so`);
  const key = as ?? uniqueServerName(suggested, taken);
  let updated: string;
  try {
    updated = addServerEntry(text, key, entry, inputs);
  } catch (e) {
    throw usageError(`${file}: ${(e as Error).message}`);
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, updated, 'utf8');
  return key;
}
