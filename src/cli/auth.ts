// The CLI's sign-in: options for pre-registered and machine clients, the token file, the browser
// ($BROWSER or a printed URL) and `mcp-host login` / `mcp-host logout`.
import { spawn } from 'node:child_process';
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  FileTokenStore,
  forgetServer,
  HostOAuthClientProvider,
  MemoryTokenStore,
  defaultTokenFile,
  readAuthRecord,
  authStoreKey,
  signInStatus,
  checkAuthorizationUrl,
  describeDuration,
  type OAuthClientSettings,
  type OAuthGrant,
  type SignInUi,
  type TokenStore,
} from '../core/auth';
import type { ResolvedServer } from '../core/config';
import type { Logger } from '../core/log';
import type { AuthOptions } from './options';
import { terminalText } from './terminal';
import { HostError } from '../core/errors';

/** The sign-in options of the option table (`--client-id` … `--no-token-store`). */
export type CliAuthArgs = AuthOptions;

/** A secret file larger than this is refused (keys and tokens are a few KB). */
const MAX_SECRET_FILE_BYTES = 64 * 1024;

export class SecretSourceError extends HostError {
  static override readonly brand: string = 'SecretSourceError';
}

/** A secret from `env:NAME` or `file:PATH` (relative to `cwd`); SecretSourceError names `option` when it cannot be read. */
export async function readSecret(option: string, source: string | undefined, env: NodeJS.ProcessEnv, cwd: string): Promise<string | undefined> {
  if (source === undefined) return undefined;
  if (source.startsWith('env:')) {
    const value = env[source.slice(4)];
    if (value === undefined || value === '') throw new SecretSourceError(`${option}: the environment variable ${source.slice(4)} is not set`);
    return value.trim();
  }
  const file = resolve(cwd, source.slice(5));
  let text: string;
  try {
    const handle = await open(file, 'r');
    try {
      if ((await handle.stat()).size > MAX_SECRET_FILE_BYTES)
        throw new SecretSourceError(`${option}: ${file} is larger than ${MAX_SECRET_FILE_BYTES / 1024} KB`);
      text = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch (e) {
    if (e instanceof SecretSourceError) throw e;
    throw new SecretSourceError(`${option}: cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  return text.trim();
}

export async function authSettings(auth: CliAuthArgs, env: NodeJS.ProcessEnv, cwd: string): Promise<OAuthClientSettings> {
  const [clientSecret, privateKeyPem, assertion, idToken, idpClientSecret] = await Promise.all([
    readSecret('--client-secret', auth.clientSecret, env, cwd),
    readSecret('--private-key', auth.privateKey, env, cwd),
    readSecret('--assertion', auth.assertion, env, cwd),
    readSecret('--idp-id-token', auth.idpIdToken, env, cwd),
    readSecret('--idp-client-secret', auth.idpClientSecret, env, cwd),
  ]);
  if ((clientSecret || privateKeyPem) && !auth.clientId) throw new SecretSourceError('--client-secret and --private-key need --client-id');
  const grant: OAuthGrant = auth.grant ?? (idToken ? 'enterprise' : assertion ? 'jwt_bearer' : 'authorization_code');
  if (grant === 'client_credentials' && !auth.clientId)
    throw new SecretSourceError('--grant client_credentials needs --client-id and --client-secret or --private-key');
  if (grant === 'jwt_bearer' && !assertion) throw new SecretSourceError('--grant jwt_bearer needs --assertion');
  if (grant === 'enterprise' && (!idToken || !auth.idpClientId || !(auth.idpIssuer || auth.idpTokenEndpoint) || !auth.clientId)) {
    throw new SecretSourceError('--grant enterprise needs --idp-id-token, --idp-client-id, --idp-issuer or --idp-token-endpoint, and --client-id');
  }
  return {
    clientId: auth.clientId,
    clientSecret,
    privateKeyPem,
    signingAlgorithm: auth.signingAlg,
    scope: auth.scope,
    grant,
    assertion,
    issuer: auth.issuer,
    clientMetadataUrl: auth.clientMetadataUrl,
    ...(idToken
      ? { idp: { idToken, clientId: auth.idpClientId!, clientSecret: idpClientSecret, issuer: auth.idpIssuer, tokenEndpoint: auth.idpTokenEndpoint } }
      : {}),
  };
}

export function tokenStoreFor(auth: CliAuthArgs, env: NodeJS.ProcessEnv): TokenStore {
  return !auth.noTokenStore ? new FileTokenStore(defaultTokenFile(env)) : new MemoryTokenStore();
}

/**
 * Runs `$BROWSER URL` (the convention git, gh and Python follow; `%s` in it is replaced by the URL). The URL
 * is only ever an argument ("$1" of the shell that runs the user's command), never part of a command line.
 */
function runBrowser(browser: string, url: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolveRun, reject) => {
    const child =
      process.platform === 'win32'
        ? spawn(browser, [url], { stdio: 'ignore', detached: true, env })
        : spawn('/bin/sh', ['-c', browser.includes('%s') ? browser.replace(/%s/g, '"$1"') : `${browser} "$1"`, 'sh', url], {
            stdio: 'ignore',
            detached: true,
            env,
          });
    child.once('error', reject);
    child.once('spawn', () => {
      child.unref();
      resolveRun();
    });
  });
}

export function cliSignInUi(env: NodeJS.ProcessEnv, stderr: NodeJS.WritableStream): SignInUi {
  return {
    async openAuthorization({ server, authorizationUrl, authorizationHost, timeoutMs }) {
      // The provider checked it already; $BROWSER is handed nothing else whatever called this.
      const url = checkAuthorizationUrl(authorizationUrl, server, 'authorization URL').href;
      const waits = `waiting up to ${describeDuration(timeoutMs)} for the browser to come back`;
      const browser = env.BROWSER?.trim();
      if (browser) {
        stderr.write(
          `Signing in to "${terminalText(server)}" at ${terminalText(authorizationHost)}: opening the browser (${terminalText(browser)}); ${waits}…\n`,
        );
        try {
          await runBrowser(browser, url, env);
          return;
        } catch (e) {
          stderr.write(`mcp-host: could not run $BROWSER (${(e as Error).message})\n`);
        }
      }
      stderr.write(`Open this URL to sign in to "${terminalText(server)}" at ${terminalText(authorizationHost)} (${waits}):\n  ${terminalText(url)}\n`);
    },
  };
}

const definedOnly = <T extends object>(o: T): Partial<T> => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== '')) as Partial<T>;

/** The provider for an HTTP server (none for stdio, or when the config sends its own Authorization header). */
export async function cliOAuthClientProvider(
  server: ResolvedServer,
  auth: CliAuthArgs,
  io: { env: NodeJS.ProcessEnv; cwd: string; stderr: NodeJS.WritableStream; interactive: boolean },
  log: Logger,
  store: TokenStore,
  forceInteractive = false,
): Promise<HostOAuthClientProvider | undefined> {
  if (server.transport === 'stdio') return undefined;
  if (Object.keys(server.headers).some((h) => h.toLowerCase() === 'authorization')) return undefined;
  const interactive = forceInteractive || !!auth.signIn || io.interactive;
  // The server entry's pre-registered client (mcp.json `oauth`), unless the command line names one.
  const flags = await authSettings(auth, io.env, io.cwd);
  const configured = server.oauth ?? {};
  const settings = flags.clientId
    ? flags
    : { ...flags, ...definedOnly(configured), ...definedOnly({ scope: flags.scope, clientMetadataUrl: flags.clientMetadataUrl }) };
  return new HostOAuthClientProvider({
    server: server.name,
    serverUrl: server.url,
    store,
    log,
    settings,
    ui: interactive ? cliSignInUi(io.env, io.stderr) : undefined,
    clientName: 'MCP Host CLI',
    ...(auth.signInTimeoutS ? { signInTimeoutMs: auth.signInTimeoutS * 1000 } : {}),
    signInHint: 'run `mcp-host login` with this target on a terminal, or give client credentials (--grant client_credentials)',
  });
}

/** `mcp-host logout`: forgets what is stored for the server's URL. */
export async function logout(server: ResolvedServer, auth: CliAuthArgs, env: NodeJS.ProcessEnv, stdout: NodeJS.WritableStream): Promise<void> {
  if (server.transport === 'stdio') throw new SecretSourceError('logout needs an HTTP server (--url or an http/sse entry)');
  const had = await forgetServer(tokenStoreFor(auth, env), server.url);
  stdout.write(
    had
      ? `Signed out of "${terminalText(server.name)}": its tokens and client registration are forgotten.\n`
      : `Not signed in to "${terminalText(server.name)}".\n`,
  );
}

/** Before `login` signs in again: the old tokens go, the client registrations stay. */
export async function forgetTokens(store: TokenStore, serverUrl: string): Promise<void> {
  const record = await readAuthRecord(store, serverUrl);
  for (const entry of Object.values(record.issuers)) delete entry.tokens;
  for (const [issuer, entry] of Object.entries(record.issuers)) if (!entry.client) delete record.issuers[issuer];
  if (Object.keys(record.issuers).length === 0) await store.delete(authStoreKey(serverUrl));
  else await store.set(authStoreKey(serverUrl), JSON.stringify(record));
}

export async function describeSignIn(store: TokenStore, server: ResolvedServer): Promise<string> {
  if (server.transport === 'stdio') return '';
  const status = await signInStatus(store, server.url);
  if (!status.signedIn) return `"${terminalText(server.name)}" did not ask for a sign-in.`;
  return `Signed in to "${terminalText(server.name)}"${status.issuer ? ` at ${terminalText(new URL(status.issuer).host)}` : ''}${status.account ? ` as ${terminalText(status.account)}` : ''}.`;
}
