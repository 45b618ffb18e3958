// Signing in with an account the editor already has (its authentication providers: GitHub, Microsoft, …)
// where a server's authorization server is one such a provider serves. The user still chooses; the
// provider's session token is what the server gets, and only the choice (provider and account) is kept.
import { SignInCancelledError, SignInFailedError } from './types';

/** An authentication provider of the host and the authorization servers it serves (globs of their issuer URLs). */
export interface AccountProvider {
  id: string;
  label: string;
  authorizationServerGlobs: readonly string[];
}

/** A provider's session, as far as the host needs it; never stored. */
export interface AccountSession {
  accessToken: string;
  account: { id: string; label: string };
  scopes: readonly string[];
}

/** Which provider and account a server uses: all that is stored of a sign-in with an account. */
export interface AccountChoice {
  providerId: string;
  providerLabel: string;
  accountId: string;
  accountLabel: string;
  /** The authorization server it was chosen for. */
  issuer: string;
  scopes: string[];
}

/** How a session is asked for: without asking the user, asking (sign-in or consent), or a new one in place of a refused one. */
export type AccountSessionMode = 'silent' | 'ask' | 'fresh';

/** The host's authentication providers and the user's answers (VS Code: `vscode.authentication`, a quick pick). */
export interface AccountSessions {
  providers(): readonly AccountProvider[];
  /**
   * Asks whether to sign in with an account of `provider` (naming the one already signed in, when there is
   * one) or in the browser at `authorizationHost`. Throws SignInCancelledError when the user declines both.
   */
  choose(request: { server: string; provider: AccountProvider; authorizationHost: string; account?: string }): Promise<'account' | 'browser'>;
  session(
    providerId: string,
    scopes: readonly string[],
    how: { mode: AccountSessionMode; accountId?: string; server: string },
  ): Promise<AccountSession | undefined>;
}

/** What the MCP server answered last when it refused a request: its status and the scope its challenge named. */
export interface Challenge {
  status: number;
  scope?: string;
}

const trimSlash = (s: string) => s.replace(/\/+$/, '');

/**
 * Whether an authorization server's issuer URL matches a glob of a provider's contribution (`*` stands for
 * any characters but `/`, case-insensitive, a trailing slash ignored). A glob that does not name a host
 * (such as `*`, which a provider for servers configured elsewhere contributes) matches nothing here.
 */
export function authorizationServerMatches(glob: string, issuer: string): boolean {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\/([^/]*)/i.exec(glob);
  const hostname = scheme?.[2]!.replace(/:[^:\]]*$/, '') ?? '';
  if (!scheme || hostname === '' || /^[*.]*$/.test(hostname)) return false;
  const pattern = trimSlash(glob)
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]*');
  return new RegExp(`^${pattern}$`, 'i').test(trimSlash(issuer));
}

/** The first provider that serves this authorization server, if any. */
export function accountProviderFor(issuer: string, providers: readonly AccountProvider[]): AccountProvider | undefined {
  return providers.find((p) => p.authorizationServerGlobs.some((g) => authorizationServerMatches(g, issuer)));
}

export const scopeList = (scope: string | undefined): string[] => (scope ?? '').split(' ').filter((s) => s !== '');
const union = (...lists: readonly (readonly string[])[]) => [...new Set(lists.flat())];

/**
 * One server's sign-in with an account: asks the user once, then hands out the session's token; a refused
 * token (401) gets one fresh session, a 403 insufficient_scope one with the larger scope.
 */
export class AccountSignIn {
  /** The user chose the browser for this server: the OAuth flow runs as for any other. */
  browserChosen = false;
  private freshTried = false;

  constructor(
    private readonly sessions: AccountSessions,
    private readonly server: string,
    private readonly mask: (secrets: string[]) => void,
  ) {}

  /** The current token of a chosen account, without asking the user; undefined when the session is gone. */
  async token(choice: AccountChoice): Promise<string | undefined> {
    const s = await this.sessions.session(choice.providerId, choice.scopes, { mode: 'silent', accountId: choice.accountId, server: this.server });
    if (s) this.mask([s.accessToken]);
    return s?.accessToken;
  }

  /**
   * Called when the server refused the host (or asked for a sign-in) and its authorization server is
   * known. Returns the new choice once a session serves (the request is then sent again), or undefined
   * where the OAuth flow is to run (no provider serves this authorization server, or the user chose the browser).
   */
  async signIn(request: {
    issuer: string;
    chosen?: AccountChoice;
    challenge?: Challenge;
    /** The scopes the server's metadata lists, for a first sign-in its challenge names none for. */
    scopesSupported?: readonly string[];
  }): Promise<AccountChoice | undefined> {
    if (this.browserChosen) return undefined;
    const { issuer, chosen, challenge } = request;
    const provider = accountProviderFor(issuer, this.sessions.providers());
    if (!provider) return undefined;
    const asked = scopeList(challenge?.scope);
    const of = (s: AccountSession): AccountChoice => {
      this.mask([s.accessToken]);
      return {
        providerId: provider.id,
        providerLabel: provider.label,
        accountId: s.account.id,
        accountLabel: s.account.label,
        issuer,
        scopes: [...(s.scopes.length > 0 ? union(asked, s.scopes) : asked)],
      };
    };
    const account = chosen && chosen.providerId === provider.id ? chosen : undefined;
    if (account) {
      const how = { accountId: account.accountId, server: this.server };
      if (challenge?.status === 403) {
        const scopes = union(account.scopes, asked);
        if (scopes.length === account.scopes.length) {
          throw new SignInFailedError(
            `server "${this.server}" refuses your ${provider.label} account (${account.accountLabel}) for lack of scope, though it has every scope the server asked for (${account.scopes.join(' ') || 'none'})`,
          );
        }
        const s = await this.sessions.session(provider.id, scopes, { ...how, mode: 'ask' });
        if (!s) throw new SignInCancelledError(`the ${provider.label} sign-in for the larger scope (${scopes.join(' ')}) was cancelled`);
        return { ...of(s), scopes };
      }
      if (this.freshTried) {
        throw new SignInFailedError(`server "${this.server}" refused the token of your ${provider.label} account (${account.accountLabel}), also a fresh one`);
      }
      this.freshTried = true;
      const s = await this.sessions.session(provider.id, account.scopes, { ...how, mode: 'fresh' });
      if (!s) throw new SignInCancelledError(`the new ${provider.label} sign-in was cancelled`);
      return { ...of(s), scopes: union(account.scopes, asked) };
    }
    const scopes = asked.length > 0 ? asked : [...(request.scopesSupported ?? [])];
    const signedIn = await this.sessions.session(provider.id, scopes, { mode: 'silent', server: this.server }).catch(() => undefined);
    const answer = await this.sessions.choose({
      server: this.server,
      provider,
      authorizationHost: hostOf(issuer),
      ...(signedIn ? { account: signedIn.account.label } : {}),
    });
    if (answer === 'browser') {
      this.browserChosen = true;
      return undefined;
    }
    const s = signedIn ?? (await this.sessions.session(provider.id, scopes, { mode: 'ask', server: this.server }));
    if (!s) throw new SignInCancelledError(`the ${provider.label} sign-in was cancelled`);
    return { ...of(s), scopes };
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
