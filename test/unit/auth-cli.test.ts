// Sign-in from the CLI against a real authorization server (oidc-provider) in front of an MCP server that
// checks each token's signature, issuer, audience (the resource) and scopes (test/fixtures/oauth-server.ts).
// The browser is a scripted one that fills oidc-provider's login and consent pages (oidc-browser.mjs).
import { strict as assert } from 'node:assert';
import { readFileSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../fixtures/cli';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauthFixture';
import { fixturePath } from '../fixtures/servers';
import { tempDir } from '../helpers/tempDirs';

const browser = `"${process.execPath}" "${fixturePath('oidc-browser.mjs')}"`;

/** A fresh config dir (the token file lives in it) and a browser log for one user. */
function home() {
  const dir = tempDir('mcp-oauth-home-');
  return { dir, tokenFile: join(dir, 'mcp-host', 'tokens.json'), browserLog: join(dir, 'browser.log') };
}

/** The CLI with no $BROWSER unless the test gives one. */
const cli = (argv: string[], env: NodeJS.ProcessEnv) => runCli(argv, { BROWSER: undefined, ...env });

const tokensIn = (file: string) => {
  const all = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  return Object.values(all)
    .flatMap((v) => Object.values((JSON.parse(v) as { issuers: Record<string, { tokens?: { access_token: string; refresh_token?: string } }> }).issuers))
    .map((e) => e.tokens)
    .filter((t) => t !== undefined);
};

describe('CLI sign-in against oidc-provider (Streamable HTTP)', () => {
  let as: OAuthFixture;
  before(async () => {
    as = await startOAuthFixture('--access-ttl=4');
  });
  after(() => as.stop());

  test('login signs in through the browser, stores the tokens 0600, and later calls use them without a browser', async () => {
    const h = home();
    const env = { XDG_CONFIG_HOME: h.dir, BROWSER: browser, OIDC_BROWSER_LOG: h.browserLog, OIDC_BROWSER_USER: 'alice' };
    const login = await cli(['login', '--verbose', '--url', as.url], env);
    assert.equal(login.code, 0, login.err);
    assert.match(login.out, /Signed in to "127\.0\.0\.1:\d+" at 127\.0\.0\.1:\d+ as alice/);
    assert.match(login.err, /opening the browser/);
    assert.equal(statSync(h.tokenFile).mode & 0o777, 0o600);
    assert.equal(statSync(join(h.dir, 'mcp-host')).mode & 0o777, 0o700);
    const [tokens] = tokensIn(h.tokenFile);
    assert.ok(tokens!.access_token && tokens!.refresh_token, 'an access and a refresh token are stored');
    // The verbose log carries neither token.
    assert.ok(!login.err.includes(tokens!.access_token) && !login.err.includes(tokens!.refresh_token!));
    // The authorization request carried PKCE S256, the resource and state (oidc-provider enforces them too).
    const authorize = readFileSync(h.browserLog, 'utf8').split('\n')[0];
    assert.match(authorize!, /code_challenge_method=S256/);
    assert.match(authorize!, new RegExp(`resource=${encodeURIComponent(as.url).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    assert.match(authorize!, /state=/);

    const call = await cli(['call', 'whoami', '--url', as.url], { XDG_CONFIG_HOME: h.dir });
    assert.equal(call.code, 0, call.err);
    assert.match(call.out, /^alice .*mcp:read/);
  });

  test('a server that echoes the access token back: the CLI prints it masked on stdout and stderr, as the log does', async () => {
    const h = home();
    const login = await cli(['login', '--url', as.url], { XDG_CONFIG_HOME: h.dir, BROWSER: browser, OIDC_BROWSER_USER: 'mallory' });
    assert.equal(login.code, 0, login.err);
    const [tokens] = tokensIn(h.tokenFile);
    for (const argv of [
      ['call', 'echo_token'],
      ['call', 'echo_token', '--json'],
      ['call', 'echo_token', '--verbose'],
    ]) {
      const r = await cli([...argv, '--url', as.url], { XDG_CONFIG_HOME: h.dir, MCP_HOST_LOG_LEVEL: 'trace' });
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, /your token: \*{8}/, argv.join(' '));
      assert.ok(!r.out.includes(tokens!.access_token), `${argv.join(' ')}: the token is not on stdout`);
      assert.ok(!r.err.includes(tokens!.access_token), `${argv.join(' ')}: the token is not on stderr`);
    }
  });

  test('an expired access token is refreshed without a browser; step-up asks for the larger scope', async () => {
    const h = home();
    const env = { XDG_CONFIG_HOME: h.dir, BROWSER: browser, OIDC_BROWSER_LOG: h.browserLog, OIDC_BROWSER_USER: 'bob' };
    assert.equal((await cli(['login', '--url', as.url], env)).code, 0);
    const before = tokensIn(h.tokenFile)[0];
    await new Promise((r) => setTimeout(r, 5000)); // past the 4 s access token lifetime
    // No browser and no terminal: only a refresh can serve.
    const refreshed = await cli(['call', 'whoami', '--url', as.url], { XDG_CONFIG_HOME: h.dir });
    assert.equal(refreshed.code, 0, refreshed.err);
    assert.match(refreshed.out, /^bob /);
    const after = tokensIn(h.tokenFile)[0];
    assert.notEqual(after!.access_token, before!.access_token);

    // admin_report needs mcp:admin: the server answers 403 insufficient_scope, the CLI signs in again for the union.
    const visitsBefore = readFileSync(h.browserLog, 'utf8')
      .split('\n')
      .filter((l) => l.includes('/auth?')).length;
    const stepUp = await cli(['call', 'admin_report', '--sign-in', '--url', as.url], env);
    assert.equal(stepUp.code, 0, stepUp.err);
    assert.match(stepUp.out, /admin report for bob/);
    const authorizations = readFileSync(h.browserLog, 'utf8')
      .split('\n')
      .filter((l) => l.includes('/auth?'));
    assert.equal(authorizations.length, visitsBefore + 1);
    assert.match(authorizations.at(-1)!, /scope=[^&]*mcp%3Aadmin/);
    assert.match(authorizations.at(-1)!, /scope=[^&]*mcp%3Aread/);
  });

  test('without a terminal and without tokens it exits 4 and says how to sign in; logout forgets everything', async () => {
    const h = home();
    const none = await cli(['tools', '--url', as.url], { XDG_CONFIG_HOME: h.dir });
    assert.equal(none.code, 4);
    assert.match(none.err, /needs you to sign in \(at 127\.0\.0\.1:\d+\).*mcp-host login/);
    assert.ok(!existsSync(h.tokenFile), 'nothing is stored');

    const env = { XDG_CONFIG_HOME: h.dir, BROWSER: browser, OIDC_BROWSER_USER: 'carol' };
    assert.equal((await cli(['login', '--url', as.url], env)).code, 0);
    const out = await cli(['logout', '--url', as.url], { XDG_CONFIG_HOME: h.dir });
    assert.equal(out.code, 0);
    assert.match(out.out, /Signed out of/);
    assert.ok(!existsSync(h.tokenFile), 'the token file is gone with its last entry');
    assert.equal((await cli(['tools', '--url', as.url], { XDG_CONFIG_HOME: h.dir })).code, 4);
  });

  test('--no-token-store signs in for the run only; tokens reach only the authorization and MCP servers', async () => {
    const h = home();
    const r = await cli(['call', 'whoami', '--sign-in', '--no-token-store', '--url', as.url], {
      XDG_CONFIG_HOME: h.dir,
      BROWSER: browser,
      OIDC_BROWSER_USER: 'dave',
    });
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^dave /);
    assert.ok(!existsSync(h.tokenFile));
    // Every request that reached the MCP server carried either nothing or a bearer token it accepted.
    const lines = readFileSync(as.log, 'utf8').trim().split('\n');
    assert.ok(lines.some((l) => / Bearer /.test(l)));
  });

  test('secrets are refused on the command line and read from env: or file: sources', async () => {
    const bad = await cli(['tools', '--client-id', 'x', '--client-secret', 'hunter2', '--url', as.url], {});
    assert.equal(bad.code, 1);
    assert.match(bad.err, /--client-secret takes env:NAME or file:PATH/);
    const unset = await cli(['tools', '--client-id', 'x', '--client-secret', 'env:MCP_TEST_UNSET_SECRET', '--url', as.url], {});
    assert.equal(unset.code, 1);
    assert.match(unset.err, /--client-secret: the environment variable MCP_TEST_UNSET_SECRET is not set/);
    const grant = await cli(['tools', '--grant', 'password', '--url', as.url], {});
    assert.equal(grant.code, 1);
    assert.match(grant.err, /--grant must be one of/);
    const file = join(tempDir('mcp-secret-'), 'secret');
    writeFileSync(file, 'x'.repeat(70 * 1024));
    const big = await cli(['tools', '--client-id', 'x', '--client-secret', `file:${file}`, '--url', as.url], {});
    assert.equal(big.code, 1);
    assert.match(big.err, /--client-secret: .* is larger than 64 KB/);
  });
});

describe('CLI sign-in against oidc-provider (legacy HTTP+SSE)', () => {
  let as: OAuthFixture;
  before(async () => {
    as = await startOAuthFixture('--sse');
  });
  after(() => as.stop());

  test('signs in and calls a tool over SSE', async () => {
    const h = home();
    const r = await cli(['call', 'whoami', '--sign-in', '--verbose', '--url', as.url, '--no-token-store'], {
      XDG_CONFIG_HOME: h.dir,
      BROWSER: browser,
      OIDC_BROWSER_USER: 'erin',
    });
    assert.match(r.err, /connected over sse/);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^erin /);
  });
});

describe('CLI sign-in with DPoP-bound tokens (oidc-provider binds them to the key, the MCP server checks each proof)', () => {
  let as: OAuthFixture;
  before(async () => {
    as = await startOAuthFixture('--dpop', '--access-ttl=4');
  });
  after(() => as.stop());

  test('the DPoP key is kept beside the tokens (0600): a later run presents and refreshes them with the same key', async () => {
    const h = home();
    const login = await cli(['login', '--url', as.url], { XDG_CONFIG_HOME: h.dir, BROWSER: browser, OIDC_BROWSER_USER: 'erin' });
    assert.equal(login.code, 0, login.err);
    assert.equal(statSync(h.tokenFile).mode & 0o777, 0o600);
    const [record] = Object.values(JSON.parse(readFileSync(h.tokenFile, 'utf8')) as Record<string, string>).flatMap((v) =>
      Object.values(
        (JSON.parse(v) as { issuers: Record<string, { tokens?: { token_type?: string }; dpopKey?: { alg?: string; privateJwk?: { d?: string } } }> }).issuers,
      ),
    );
    assert.equal(record!.tokens?.token_type?.toLowerCase(), 'dpop');
    assert.equal(record!.dpopKey?.alg, 'ES256');
    assert.ok(record!.dpopKey?.privateJwk?.d, 'the private key is stored with the tokens');

    // A new run, no browser: the stored access token with a proof of the stored key (a new key's proof would
    // be refused, and the token replaced by a refresh).
    const call = await cli(['call', 'whoami', '--url', as.url], { XDG_CONFIG_HOME: h.dir });
    assert.equal(call.code, 0, call.err);
    assert.match(call.out, /^erin /);
    assert.equal(tokensIn(h.tokenFile)[0]!.access_token, (record!.tokens as { access_token: string }).access_token, 'the stored access token served as it was');
    await new Promise((r) => setTimeout(r, 5000)); // past the 4 s access token lifetime
    // Another run: the refresh token is bound to the key too.
    const refreshed = await cli(['call', 'whoami', '--url', as.url], { XDG_CONFIG_HOME: h.dir });
    assert.equal(refreshed.code, 0, refreshed.err);
    assert.match(refreshed.out, /^erin /);
    assert.ok(
      readFileSync(as.log, 'utf8')
        .split('\n')
        .some((l) => / DPoP \S+$/.test(l)),
      'the MCP server saw DPoP tokens',
    );
  });
});

describe('CLI sign-in where the authorization server offers DPoP but the MCP server takes only Bearer tokens', () => {
  let as: OAuthFixture;
  before(async () => {
    as = await startOAuthFixture('--as-dpop');
  });
  after(() => as.stop());

  test('plain Bearer tokens: no DPoP key, no DPoP header, and the call succeeds', async () => {
    const h = home();
    const login = await cli(['login', '--url', as.url], { XDG_CONFIG_HOME: h.dir, BROWSER: browser, OIDC_BROWSER_USER: 'frank' });
    assert.equal(login.code, 0, login.err);
    const [record] = Object.values(JSON.parse(readFileSync(h.tokenFile, 'utf8')) as Record<string, string>).flatMap((v) =>
      Object.values((JSON.parse(v) as { issuers: Record<string, { tokens?: { token_type?: string }; dpopKey?: unknown }> }).issuers),
    );
    assert.equal(record!.tokens?.token_type?.toLowerCase(), 'bearer');
    assert.equal(record!.dpopKey, undefined, 'no DPoP key is kept');
    const call = await cli(['call', 'whoami', '--url', as.url], { XDG_CONFIG_HOME: h.dir });
    assert.equal(call.code, 0, call.err);
    assert.match(call.out, /^frank /);
    const presented = readFileSync(as.log, 'utf8')
      .split('\n')
      .filter((l) => /^(GET|POST|DELETE) \/mcp \S+ /.test(l));
    assert.ok(presented.length > 0 && presented.every((l) => / Bearer \S+$/.test(l)), `only Bearer tokens reached the MCP server:\n${presented.join('\n')}`);
    assert.ok(!readFileSync(as.log, 'utf8').includes('refused:'), 'no token was refused');
  });
});
