// `mcp-host login TARGET` and `mcp-host logout TARGET`.
import { describeSignIn, forgetTokens, logout, tokenStoreFor } from '../auth';
import { openConnection } from '../connect';
import { EXIT } from '../errors';
import { usageError, type ParsedArgs } from '../options';
import { resolveTarget, type CliIo } from '../target';

/** `login`: forgets the server's tokens (not its client registration), connects, and signs in on the way. */
export async function loginCommand(a: ParsedArgs, io: CliIo): Promise<number> {
  if (a.positional.length) throw usageError(`unexpected argument ${a.positional[0]}`);
  const server = await resolveTarget(a, io);
  if (server.transport === 'stdio') throw usageError('login needs an HTTP server (--url or an http/sse entry in the config)');
  const store = tokenStoreFor(a, io.env);
  await forgetTokens(store, server.url);
  const cli = await openConnection(server, a, io, { store });
  await cli.stop();
  cli.stdout.write(`${await describeSignIn(store, server)}\n`);
  return EXIT.ok;
}

export async function logoutCommand(a: ParsedArgs, io: CliIo): Promise<number> {
  if (a.positional.length) throw usageError(`unexpected argument ${a.positional[0]}`);
  await logout(await resolveTarget(a, io), a, io.env, io.stdout);
  return EXIT.ok;
}
