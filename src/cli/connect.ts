// How every command that talks to a server connects: one options object (the connection options of the
// option table) gives one set of client capabilities, one sign-in and one log, whatever the command. A
// capability is declared only when the CLI can serve it: elicitation with --elicit or a terminal to ask on,
// sampling with --sampling-command.
import type { ResolvedServer } from '../core/config';
import { ServerConnection } from '../core/connection';
import { DEFAULT_UPLOAD_MAX_BYTES } from '../core/elicitation';
import { Logger, type LogLevel } from '../core/log';
import type { TokenStore } from '../core/auth';
import { cliOAuthClientProvider, tokenStoreFor } from './auth';
import { cliFeatureOptions, printServerLog } from './clientFeatures';
import { printSandboxRefusals } from './sandbox';
import { createCliElicitationHandler, type CliElicitationHandler } from './elicit';
import { CliError, EXIT, report } from './errors';
import { VERSION } from './help';
import type { ConnectionOptionValues, OptionValues } from './options';
import type { CliIo } from './target';
import { terminalText } from './terminal';

/** The connection options, and the two of `call` that shape how its files and URL questions are handled. */
export type CliConnectionOptions = ConnectionOptionValues & Pick<OptionValues, 'inlineMax' | 'urlWaitMs'>;

/** A started connection and what the command needs around it. */
export interface CliConnection {
  connection: ServerConnection;
  log: Logger;
  /** Answers the server's questions (declared only when `elicitationDeclared`). */
  elicitation: CliElicitationHandler;
  elicitationDeclared: boolean;
  /** Where the sign-in keeps its tokens. */
  store: TokenStore;
  /** stdout and stderr with the host's own secrets masked in whatever is written (a server may echo them). */
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Stops the server and closes the sign-in's redirect receiver; resolves once both are gone. */
  stop(): Promise<void>;
}

export function makeLogger(o: { verbose?: boolean }, io: CliIo): Logger {
  if (!o.verbose) return new Logger(() => undefined, 'error');
  const level: LogLevel = io.env.MCP_HOST_LOG_LEVEL === 'trace' ? 'trace' : 'debug';
  return new Logger((lvl, message) => io.stderr.write(`[${lvl}] ${terminalText(message)}\n`), level);
}

/** `stream` with `log`'s secrets masked in each string written to it. */
function masking(stream: NodeJS.WritableStream, log: Logger): NodeJS.WritableStream {
  return new Proxy(stream, {
    get(target, prop) {
      if (prop === 'write') {
        return (chunk: unknown, ...rest: unknown[]) =>
          (target.write as (...a: unknown[]) => boolean)(typeof chunk === 'string' ? log.maskSecretsIn(chunk) : chunk, ...rest);
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * Connects to `server` as every command does. `login`: sign in through the browser even without a terminal,
 * into `store`.
 */
export async function openConnection(server: ResolvedServer, o: CliConnectionOptions, io: CliIo, login?: { store: TokenStore }): Promise<CliConnection> {
  const log = makeLogger(o, io);
  const stdout = masking(io.stdout, log);
  const stderr = masking(io.stderr, log);
  const transfer = o.noFileTransfer ? (false as const) : { inlineUpToBytes: o.inlineMax };
  const elicitation = createCliElicitationHandler(o.elicit, {
    interactive: io.interactive,
    transport: server.transport,
    log,
    output: stderr,
    ...(io.stdin ? { input: io.stdin } : {}),
    binaryMaxFileSize: DEFAULT_UPLOAD_MAX_BYTES,
    urlWaitMs: o.urlWaitMs,
    limits: { transfer },
  });
  // Elicitation is declared only when it can be answered: an --elicit choice, or a terminal to ask on.
  const elicitationDeclared = o.elicit !== undefined || io.interactive;
  const store = login?.store ?? tokenStoreFor(o, io.env);
  const oauth = await cliOAuthClientProvider(server, o, io, log, store, !!login);
  const connection = new ServerConnection(server, {
    log,
    elicitation: elicitationDeclared ? elicitation : undefined,
    requestTimeoutMs: o.timeoutMs,
    clientInfo: { name: 'mcp-host-cli', version: VERSION },
    stopGraceMs: 2000,
    oauth,
    capabilities: {
      binaryElicitation: elicitationDeclared && !o.noBinaryUploads ? { maxFileSize: DEFAULT_UPLOAD_MAX_BYTES } : false,
      files: !o.noFileTransfer,
    },
    ...cliFeatureOptions(io.cwd, o.logLevel, o.samplingCommand, io.env),
  });
  printServerLog(connection, o.logLevel, stderr);
  printSandboxRefusals(connection, stderr);
  const stop = async (): Promise<void> => {
    await connection.stop();
    await oauth?.stop();
    connection.dispose();
  };
  try {
    await connection.start();
  } catch (e) {
    await stop();
    throw new CliError(`cannot start server "${server.name}": ${log.maskSecretsIn((e as Error).message)}`, EXIT.server);
  }
  return { connection, log, elicitation, elicitationDeclared, store, stdout, stderr, stop };
}

/**
 * Runs `work` on a started connection, then stops the server. A failure is reported before the stop, which
 * may take a moment (the server is given time to exit on its own).
 */
export async function withConnection(cli: CliConnection, work: () => Promise<number>): Promise<number> {
  let code: number;
  try {
    code = await work();
  } catch (e) {
    code = report(e, cli, (text) => cli.log.maskSecretsIn(text));
  }
  await cli.stop();
  return code;
}
