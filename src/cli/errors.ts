// The exit codes of `mcp-host` (a contract) and how an error becomes one, with its message for stderr.
import { CallCancelledError, CallTimeoutError, NotRunningError, ServerCrashedError, ServerRequestError, ServerStartError } from '../core/connection';
import { UrlElicitationIncompleteError } from '../core/elicitation';
import { errorText, InputRefusedError, HostError } from '../core/errors';
import { redactDataUris } from '../core/files';
import { BundleError } from '../core/bundles';
import { InstallError, RegistryError } from '../core/registry';
import { SecretSourceError } from './auth';
import { terminalText } from './terminal';
import { TransferFailedError } from './transfer';

export const EXIT = { ok: 0, usage: 1, server: 4, toolError: 5, interrupted: 130 } as const;

/** An error that ends the command with a given exit code. */
export class CliError extends HostError {
  static override readonly brand: string = 'CliError';
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/** Error messages can carry whatever a server put in them: they are cut to this length. */
const MAX_ERROR_CHARS = 4000;

/**
 * Writes the error for the user and returns its exit code. `redact` masks the host's own secrets (a server
 * may echo a token back in its error).
 */
export function report(e: unknown, io: { stderr: NodeJS.WritableStream }, redact: (text: string) => string = redactDataUris): number {
  const [message, code] = errorExit(e);
  const redacted = redact(redactDataUris(message));
  const shown = redacted.length > MAX_ERROR_CHARS ? `${redacted.slice(0, MAX_ERROR_CHARS)}… (${redacted.length} characters)` : redacted;
  io.stderr.write(`mcp-host: ${terminalText(shown)}\n`);
  return code;
}

function errorExit(e: unknown): [string, number] {
  if (e instanceof CliError) return [e.message, e.exitCode];
  if (e instanceof InstallError || e instanceof BundleError) return [e.message, EXIT.usage];
  if (e instanceof RegistryError) return [e.message, EXIT.server];
  if (e instanceof InputRefusedError || e instanceof SecretSourceError) return [e.message, EXIT.usage];
  if (e instanceof ServerStartError || e instanceof ServerCrashedError || e instanceof NotRunningError) return [e.message, EXIT.server];
  if (e instanceof CallTimeoutError) return [e.message, EXIT.server];
  if (e instanceof CallCancelledError) return [e.message, EXIT.interrupted];
  if (e instanceof ServerRequestError || e instanceof UrlElicitationIncompleteError || e instanceof TransferFailedError) return [e.message, EXIT.toolError];
  return [errorText(e), EXIT.server];
}
