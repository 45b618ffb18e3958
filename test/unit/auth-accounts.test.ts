// Signing in with an account of the host's: which authorization servers a provider serves, and a real MCP server
// (test/fixtures/account-server.ts) reached with the provider's session token: the user's choice first, one fresh
// session after a refused token, a larger scope after a 403 insufficient_scope, and nothing but the choice stored.
import { strict as assert } from 'node:assert';
import { after, before, describe, test } from 'node:test';
import {
  authStoreKey,
  HostOAuthClientProvider,
  MemoryTokenStore,
  SignInCancelledError,
  signInStatus,
  type ServerAuthRecord,
  type SignInUi,
} from '../../src/core/auth';
import {
  accountProviderFor,
  authorizationServerMatches,
  type AccountProvider,
  type AccountSession,
  type AccountSessions,
} from '../../src/core/auth/accountSignIn';
import { ServerConnection } from '../../src/core/connection/serverConnection';
import { Logger } from '../../src/core/log';
import { httpServer, startHttpFixture, type RunningHttpServer } from '../fixtures/servers';

const GITHUB: AccountProvider = { id: 'github', label: 'GitHub', authorizationServerGlobs: ['https://github.com/login/oauth'] };
const MICROSOFT: AccountProvider = {
  id: 'microsoft',
  label: 'Microsoft',
  authorizationServerGlobs: ['https://login.microsoftonline.com/*', 'https://login.microsoftonline.com/*/v2.0'],
};
const GHE_ANYWHERE: AccountProvider = { id: 'github-enterprise', label: 'GitHub Enterprise Server', authorizationServerGlobs: ['*'] };

describe('which account provider serves an authorization server', () => {
  test('GitHub and Microsoft by their contributed globs; a trailing slash and case do not matter', () => {
    const providers = [GHE_ANYWHERE, GITHUB, MICROSOFT];
    assert.equal(accountProviderFor('https://github.com/login/oauth', providers)?.id, 'github');
    assert.equal(accountProviderFor('https://GitHub.com/login/oauth/', providers)?.id, 'github');
    assert.equal(accountProviderFor('https://login.microsoftonline.com/organizations/v2.0', providers)?.id, 'microsoft');
    assert.equal(accountProviderFor('https://login.microsoftonline.com/common', providers)?.id, 'microsoft');
  });

  test('a glob that names no host matches nothing; `*` does not cross a path segment or the host', () => {
    const providers = [GHE_ANYWHERE, GITHUB, MICROSOFT];
    assert.equal(accountProviderFor('https://auth.example.com', providers), undefined);
    assert.equal(accountProviderFor('https://github.com/login/oauth/extra', providers), undefined);
    assert.equal(accountProviderFor('https://login.microsoftonline.com/a/b/c', providers), undefined);
    assert.equal(authorizationServerMatches('https://*.example.com', 'https://evil.com/.example.com'), false);
    assert.equal(authorizationServerMatches('https://*', 'https://anything.test'), false);
    assert.equal(authorizationServerMatches('http://127.0.0.1:*/test-accounts', 'http://127.0.0.1:4711/test-accounts'), true);
    assert.equal(authorizationServerMatches('https://ghe.example.com/login/oauth', 'https://ghe.example.com.evil.test/login/oauth'), false);
  });
});

/** The editor's side, scripted: a provider serving the fixture's authorization server, the user's answers, sessions handed out. */
class ScriptedAccounts implements AccountSessions {
  readonly calls: string[] = [];
  answer: 'account' | 'browser' | 'cancel' = 'account';
  signedIn = true;
  private generation = 0;
  /** The next session token the server will refuse (a revoked one). */
  staleNext = false;

  providers(): AccountProvider[] {
    return [{ id: 'test-accounts', label: 'Test Accounts', authorizationServerGlobs: ['http://127.0.0.1:*/test-accounts'] }];
  }

  async choose(request: { server: string; account?: string }): Promise<'account' | 'browser'> {
    this.calls.push(`choose ${request.account ?? '-'}`);
    if (this.answer === 'cancel') throw new SignInCancelledError('the sign-in with an account was cancelled');
    return this.answer;
  }

  /** From now on every session carries this token, whatever it is asked for. */
  alwaysHandOut(accessToken: string): void {
    this.session = async (_id, scopes, how) => {
      this.calls.push(`${how.mode} ${scopes.join(' ')}`);
      return { accessToken, account: { id: 'tester-1', label: 'tester@example.test' }, scopes };
    };
  }

  async session(_providerId: string, scopes: readonly string[], how: { mode: string }): Promise<AccountSession | undefined> {
    this.calls.push(`${how.mode} ${scopes.join(' ')}`);
    if (how.mode === 'silent' && !this.signedIn) return undefined;
    if (how.mode !== 'silent') {
      this.signedIn = true;
      this.generation++;
    }
    if (how.mode === 'fresh') this.staleNext = false;
    return {
      accessToken: `test-account.${this.generation}.${scopes.join('+')}${this.staleNext ? 'stale' : ''}`,
      account: { id: 'tester-1', label: 'tester@example.test' },
      scopes,
    };
  }
}

describe('signing in with an account', () => {
  let fixture: RunningHttpServer;
  before(async () => {
    fixture = await startHttpFixture('account-server.ts', '--http');
  });
  after(async () => {
    await fixture.stop();
  });

  const seen = async () => (await (await fetch(new URL('/_seen', fixture.url))).json()) as { method: string; path: string; authorization?: string }[];

  type Connected = { connection: ServerConnection; store: MemoryTokenStore; opened: string[]; logged: string[] };

  /** Runs `body` with a connection to the fixture that signs in through `accounts`; stopped and disposed after. */
  async function withConnection(accounts: ScriptedAccounts, body: (c: Connected) => Promise<void>): Promise<void> {
    const store = new MemoryTokenStore();
    const opened: string[] = [];
    const ui: SignInUi = {
      async openAuthorization({ authorizationUrl }) {
        opened.push(authorizationUrl.href);
        throw new SignInCancelledError('no browser here');
      },
    };
    const logged: string[] = [];
    const log = new Logger((line) => logged.push(line), 'debug');
    const oauth = new HostOAuthClientProvider({ server: 'accounts', serverUrl: fixture.url, store, ui, log, accounts });
    const connection = new ServerConnection(httpServer('accounts', fixture.url), { log, oauth, requestTimeoutMs: 30_000 });
    try {
      await body({ connection, store, opened, logged });
    } finally {
      await connection.stop();
      await oauth.stop();
    }
  }

  test('the user chooses the account: the server gets its token, no browser opens, only the choice is stored', async () => {
    const accounts = new ScriptedAccounts();
    await withConnection(accounts, async ({ connection, store, opened, logged }) => {
      const before = (await seen()).length;
      await connection.start();
      assert.deepEqual(connection.tools.map((t) => t.name).sort(), ['admin_report', 'whoami']);
      assert.deepEqual(opened, []);
      assert.deepEqual(accounts.calls.slice(0, 2), ['silent read', 'choose tester@example.test']);
      const requests = (await seen()).slice(before);
      assert.ok(
        requests.every((r) => !/authorize|token|register/.test(r.path)),
        `no OAuth endpoint was reached: ${requests.map((r) => r.path).join(', ')}`,
      );
      assert.ok(requests.some((r) => r.path === '/mcp' && r.authorization === 'Bearer test-account.0.read'));

      const record = JSON.parse((await store.get(authStoreKey(fixture.url)))!) as ServerAuthRecord;
      assert.deepEqual(record.issuers, {});
      assert.deepEqual(record.account && { ...record.account, issuer: undefined }, {
        providerId: 'test-accounts',
        providerLabel: 'Test Accounts',
        accountId: 'tester-1',
        accountLabel: 'tester@example.test',
        issuer: undefined,
        scopes: ['read'],
      });
      assert.ok(!JSON.stringify(record).includes('test-account.'), 'no token is stored');
      assert.deepEqual(await signInStatus(store, fixture.url), {
        signedIn: true,
        account: 'tester@example.test (Test Accounts)',
        issuer: record.account!.issuer,
      });
      assert.ok(!logged.join('\n').includes('test-account.0'), 'the token is masked in the log');
    });
  });

  test('a refused token gets one fresh session; a 403 insufficient_scope asks for the larger scope', async () => {
    const accounts = new ScriptedAccounts();
    accounts.signedIn = false;
    accounts.staleNext = true;
    await withConnection(accounts, async ({ connection }) => {
      await connection.start();
      // Nobody was signed in: the user chose the account, signed in (`ask`), the server refused that token, a fresh one served.
      assert.deepEqual(
        accounts.calls.filter((c) => !c.startsWith('silent')),
        ['choose -', 'ask read', 'fresh read'],
      );
      const result = (await connection.callTool('admin_report', {})) as { content: Array<{ text: string }> };
      assert.equal(result.content[0]!.text, 'admin_report: read admin');
      assert.equal(accounts.calls.filter((c) => c === 'ask read admin').length, 1);
    });
  });

  test('a token refused again after the fresh session fails clearly, naming the server and the account', async () => {
    const accounts = new ScriptedAccounts();
    await withConnection(accounts, async ({ connection }) => {
      // Every session this provider hands out is one the server refuses.
      accounts.alwaysHandOut('test-account.9.readstale');
      await assert.rejects(connection.start(), /server "accounts" refused the token of your Test Accounts account \(tester@example\.test\), also a fresh one/);
      assert.equal(accounts.calls.filter((c) => c.startsWith('fresh')).length, 1, 'one fresh session, not a loop');
      assert.equal(connection.state.kind, 'error');
    });
  });

  test("a 403 insufficient_scope the account's larger session does not cure fails clearly, after one question", async () => {
    const accounts = new ScriptedAccounts();
    await withConnection(accounts, async ({ connection }) => {
      // The provider grants what is asked in name only: its tokens never carry `admin`.
      accounts.alwaysHandOut('test-account.5.read');
      await connection.start();
      await assert.rejects(
        connection.callTool('admin_report', {}),
        /refuses your Test Accounts account \(tester@example\.test\) for lack of scope, though it has every scope the server asked for \(read admin\)/,
      );
      assert.equal(accounts.calls.filter((c) => c === 'ask read admin').length, 1, 'asked once for the larger scope, not in a loop');
      assert.equal(connection.state.kind, 'running', 'the server itself stays usable');
    });
  });

  test('the user chooses the browser: the OAuth flow runs as for any other server (without asking twice)', async () => {
    const accounts = new ScriptedAccounts();
    accounts.answer = 'browser';
    await withConnection(accounts, async ({ connection, opened, store }) => {
      // The fixture's authorization server offers no registration: the usual flow fails there, the browser never opened.
      await assert.rejects(connection.start());
      assert.deepEqual(
        accounts.calls.filter((c) => c.startsWith('choose')),
        ['choose tester@example.test'],
      );
      assert.deepEqual(opened, []);
      assert.equal(await store.get(authStoreKey(fixture.url)), undefined, 'nothing stored');
    });
  });

  test('cancelling the choice leaves the server in a sign-in error state, nothing stored', async () => {
    const accounts = new ScriptedAccounts();
    accounts.answer = 'cancel';
    await withConnection(accounts, async ({ connection, store }) => {
      await assert.rejects(connection.start(), /cancelled/);
      assert.equal(connection.state.kind, 'error');
      assert.equal((connection.state as { signIn?: string }).signIn, 'cancelled');
      assert.equal(await store.get(authStoreKey(fixture.url)), undefined);
    });
  });
});
