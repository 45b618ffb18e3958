// Sign-in for servers that ask for OAuth: tokens, refresh tokens and client registrations in SecretStorage
// (keyed by server URL, per issuer inside), the browser opened only after the user chose to sign in, and
// the redirect received on a loopback listener (127.0.0.1) of the extension host, reached from wherever
// the browser runs (vscode.env.asExternalUri).
import * as vscode from 'vscode';
import { setting } from '../settings';
// Not '../core/auth' as a whole: its OAuth client provider needs the MCP SDK, which is loaded with the connection bundle.
import { LoopbackRedirectReceiver } from '../../core/auth/loopbackRedirectReceiver';
import type { HostOAuthClientProvider } from '../../core/auth/hostOAuthClientProvider';
import { forgetServer, signInStatus } from '../../core/auth/records';
import { checkAuthorizationUrl } from '../../core/auth/urls';
import { SignInCancelledError, type RedirectReceiver, type SignInUi, type TokenStore } from '../../core/auth/types';
import type { ResolvedServer } from '../../core/config';
import type { Logger } from '../../core/log';
import { editorAccounts } from './editorAccounts';
import { connectionBundle } from '../activation/connectionBundle';

/** The window's OAuth sign-ins of its HTTP servers: one token store (SecretStorage) and a client provider per server start. */
export class ServerSignIns {
  readonly store: TokenStore;

  constructor(secrets: vscode.SecretStorage) {
    this.store = {
      get: async (key) => secrets.get(key),
      set: async (key, value) => {
        await secrets.store(key, value);
      },
      delete: async (key) => {
        await secrets.delete(key);
      },
    };
  }

  /** The OAuth client provider of an HTTP server; none for stdio or when its config sends its own Authorization header. */
  async clientProviderFor(server: ResolvedServer, log: Logger): Promise<HostOAuthClientProvider | undefined> {
    if (server.transport === 'stdio') return undefined;
    if (Object.keys(server.headers).some((h) => h.toLowerCase() === 'authorization')) return undefined;
    const { HostOAuthClientProvider } = connectionBundle();
    // Set by whoever publishes this client's metadata document; used only once it serves that document.
    const clientMetadataUrl = setting('oauth.clientMetadataUrl') || undefined;
    return new HostOAuthClientProvider({
      server: server.name,
      serverUrl: server.url,
      store: this.store,
      log,
      ui: consentingUi,
      clientName: 'MCP Host for VS Code',
      redirect: externalLoopback,
      // Where the authorization server is one of the editor's accounts (GitHub, Microsoft, …), the user may pick that account.
      accounts: editorAccounts,
      // A pre-registered client from the server's entry (`oauth` in mcp.json).
      settings: { ...(clientMetadataUrl ? { clientMetadataUrl } : {}), ...Object.fromEntries(Object.entries(server.oauth ?? {}).filter(([, v]) => v !== '')) },
    });
  }

  /** Whether the server at `url` is signed in, and as whom (from what is stored; nothing is sent). */
  async status(url: string): Promise<{ signedIn: boolean; account?: string }> {
    return signInStatus(this.store, url).catch(() => ({ signedIn: false }));
  }

  signOut(url: string): Promise<boolean> {
    return forgetServer(this.store, url);
  }
}

/**
 * Asks first (naming the authorization server's host), then opens the browser and shows, until the sign-in
 * ends, how long it waits for the browser to come back (with a button to give it up).
 */
const consentingUi: SignInUi = {
  async openAuthorization({ server, authorizationUrl, authorizationHost, alreadyChosen, timeoutMs, ended, cancel }) {
    // The provider checked it already; the browser is handed nothing else whatever called this.
    checkAuthorizationUrl(authorizationUrl, server, 'authorization URL');
    if (!alreadyChosen) {
      const choice = await vscode.window.showInformationMessage(`MCP server "${server}" asks you to sign in at ${authorizationHost}.`, 'Sign In', 'Cancel');
      if (choice !== 'Sign In') throw new SignInCancelledError(`the sign-in at ${authorizationHost} was cancelled`);
    }
    // The URL goes as a string (the API takes one at run time, though typed Uri): the workbench opens a string
    // as it is, where it hands on a Uri decoded and encoded again (`encodeURI`), which leaves URL-valued
    // parameters such as `redirect_uri` and `resource` unencoded.
    const opened = await vscode.env.openExternal(authorizationUrl.href as unknown as vscode.Uri);
    if (!opened) throw new SignInCancelledError(`the browser could not be opened for the sign-in at ${authorizationHost}`);
    const minutes = Math.max(1, Math.round(timeoutMs / 60_000));
    void vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        cancellable: true,
        title: `Signing in to "${server}" at ${authorizationHost}: waiting for the browser (up to ${minutes} min)…`,
      },
      (_progress, token) => {
        token.onCancellationRequested(cancel);
        return ended;
      },
    );
  },
};

/**
 * The loopback listener as the browser reaches it. On a desktop asExternalUri leaves it as it is (RFC 8252);
 * where the window's UI runs elsewhere it maps it to what reaches the extension host: a forwarded port
 * (remote windows), code-server's proxy (`…/proxy/<port>/callback`).
 */
export async function externalLoopback(preferredPort?: number): Promise<RedirectReceiver> {
  const loopback = await LoopbackRedirectReceiver.start(preferredPort);
  try {
    const external = (await vscode.env.asExternalUri(vscode.Uri.parse(loopback.redirectUrl, true))).toString(true);
    if (external === loopback.redirectUrl) return loopback;
    return {
      redirectUrl: external,
      waitForRedirect: (state, timeoutMs, signal) => loopback.waitForRedirect(state, timeoutMs, signal),
      stop: () => loopback.stop(),
      dispose: () => loopback.dispose(),
    };
  } catch (e) {
    loopback.dispose();
    throw e;
  }
}
