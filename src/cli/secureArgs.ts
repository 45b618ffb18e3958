// SEP-3221 secure values on the command line: `--secure-args JSON` and `--secure-arg NAME=SOURCE` (a value,
// env:NAME or file:PATH), over the server's `secureArguments` in mcp.json. Secret-looking ones (`format:
// password`, `writeOnly`) come only from env:, file: or mcp.json: a value on the command line is visible to
// other users of the machine.

import type { Tool } from '@modelcontextprotocol/client';
import { InputRefusedError } from '../core/errors';
import { buildForm, toPayload } from '../core/forms';
import { secureValueProblems } from '../core/secureParams/form';
import {
  missingSecureValues,
  secretPropertyNames,
  secureArgumentsFor,
  secureInputSchemaOf,
  securePropertyNames,
  takesSecureValues,
  type SecureArguments,
} from '../core/secureParams';
import { parseJsonBounded } from '../core/io/json';
import { readSecret } from './auth';
import { CliError, EXIT } from './errors';
import { usageError } from './options';

const refused = (message: string) => new CliError(message, EXIT.usage);

function parseSecureArgsJson(text: string | undefined): SecureArguments {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = parseJsonBounded(text);
  } catch (e) {
    throw usageError(`--secure-args is not valid JSON: ${(e as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw usageError('--secure-args must be a JSON object, e.g. --secure-args \'{"tenant":"acme"}\'');
  return value as SecureArguments;
}

export interface SecureArgOptions {
  secureArgs?: string;
  secureArg?: string[];
}

/**
 * The secure values of one call: mcp.json's, then --secure-args, then each --secure-arg (read from env: or file:),
 * coerced to the tool's schema by the form engine and checked by it. A tool without secure parameters takes none.
 */
export async function cliSecureArguments(
  tool: Tool,
  configured: SecureArguments | undefined,
  a: SecureArgOptions,
  io: { env: NodeJS.ProcessEnv; cwd: string },
): Promise<SecureArguments | undefined> {
  const given = parseSecureArgsJson(a.secureArgs);
  const names = securePropertyNames(tool);
  const fromOptions = Object.keys(given).length > 0 || (a.secureArg?.length ?? 0) > 0;
  if (!takesSecureValues(tool)) {
    if (fromOptions) throw refused(`tool "${tool.name}" declares no secure parameters (no secureInputSchema); --secure-args and --secure-arg do not apply`);
    return undefined;
  }
  const secret = new Set(secretPropertyNames(tool));
  const unknownName = (option: string, name: string) => {
    if (!names.includes(name)) throw refused(`${option}: tool "${tool.name}" has no secure parameter "${name}" (its secure parameters: ${names.join(', ')})`);
  };
  for (const name of Object.keys(given)) {
    unknownName('--secure-args', name);
    if (secret.has(name))
      throw refused(
        `--secure-args: "${name}" is a secret; give it with --secure-arg ${name}=env:NAME or ${name}=file:PATH (a secret on the command line is visible to other users)`,
      );
  }
  const values: SecureArguments = { ...(configured ?? {}), ...given };
  const strings: Record<string, string> = {};
  for (const option of a.secureArg ?? []) {
    const eq = option.indexOf('=');
    const name = option.slice(0, eq);
    const source = option.slice(eq + 1);
    unknownName('--secure-arg', name);
    if (/^(env|file):./.test(source)) strings[name] = (await readSecret(`--secure-arg ${name}`, source, io.env, io.cwd))!;
    else if (secret.has(name))
      throw refused(
        `--secure-arg ${name}: a secret takes env:NAME or file:PATH, not the value itself (a secret on the command line is visible to other users)`,
      );
    else strings[name] = source;
  }
  // Text from the command line becomes the schema's type (an integer, a boolean) as a form's text would.
  Object.assign(values, toPayload(buildForm(secureInputSchemaOf(tool)), strings));
  const missing = missingSecureValues(tool, values);
  if (missing.length) {
    throw new InputRefusedError(
      `tool "${tool.name}" needs the secure value${missing.length > 1 ? 's' : ''} ${missing.join(', ')}: ` +
        'give them with --secure-arg NAME=SOURCE (a value, env:NAME or file:PATH) or --secure-args JSON, or in "secureArguments" of the server\'s entry in mcp.json',
      missing[0],
    );
  }
  const problems = secureValueProblems(tool, values);
  if (problems.length) throw new InputRefusedError(`the secure values for "${tool.name}" are refused: ${problems.join('; ')}`, problems[0]!.split(':')[0]);
  // mcp.json's values (variables give text) of their schema types too.
  return secureArgumentsFor(tool, values);
}

/** The tools listing's line for a tool's secure parameters, or undefined when it has none. */
export function describeSecureParameters(tool: Tool): string | undefined {
  const names = securePropertyNames(tool);
  if (names.length === 0) return undefined;
  const secret = new Set(secretPropertyNames(tool));
  return `secure parameters (set by the host, never by a model): ${names.map((n) => (secret.has(n) ? `${n} (secret)` : n)).join(', ')}`;
}
