// The authorization-server matrix: oidc-provider 9 in its shipped defaults (DPoP, Client ID Metadata
// Documents and dynamic registration on; test/fixtures/as-oidc-provider.ts) in front of a Bearer-only MCP
// server and a DPoP-checking one. The host signs in, calls, refreshes, steps up and signs out with each, and
// uses a configured Client ID Metadata Document only where it is served.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../fixtures/cli';
import { fixturePath } from '../fixtures/servers';
import { startOidcProviderMatrix, type OidcProviderMatrix } from '../fixtures/as-oidc-provider';
import { signInScenario } from '../fixtures/asMatrix';
import { tempDir } from '../helpers/tempDirs';

const ACCESS_TTL = 3;

describe('oidc-provider (shipped defaults)', { concurrency: 2 }, () => {
  let as: OidcProviderMatrix;
  before(async () => {
    as = await startOidcProviderMatrix({ accessTtl: ACCESS_TTL });
  });
  after(() => as?.close());

  test('a Bearer-only MCP server gets Bearer tokens: sign in, call, refresh, step up, sign out; no token leaks', async (t) => {
    await signInScenario(t, { url: as.bearer.url, kind: 'bearer', server: as.bearer, user: 'alice', accessTtl: ACCESS_TTL, stepUpScope: 'mcp:admin' });
  });

  test('a DPoP-checking MCP server gets DPoP-bound tokens: sign in, call, refresh, step up, sign out; no token leaks', async (t) => {
    await signInScenario(t, { url: as.dpop.url, kind: 'dpop', server: as.dpop, user: 'bob', accessTtl: ACCESS_TTL, stepUpScope: 'mcp:admin' });
  });

  test('a Client ID Metadata Document URL that serves nothing is not used: the host registers instead and says why', async () => {
    const dir = tempDir('mcp-as-matrix-');
    const browserLog = join(dir, 'browser.log');
    const document = 'https://127.0.0.1:9/mcp-host/client.json'; // nothing listens on port 9
    const login = await runCli(
      ['login', '--verbose', '--client-metadata-url', document, '--url', as.bearer.url],
      {
        XDG_CONFIG_HOME: dir,
        BROWSER: `"${process.execPath}" "${fixturePath('oidc-browser.mjs')}"`,
        OIDC_BROWSER_LOG: browserLog,
        OIDC_BROWSER_USER: 'erin',
      },
      dir,
    );
    assert.equal(login.code, 0, login.err);
    assert.match(login.out, /Signed in to .* as erin/);
    assert.match(login.err, new RegExp(`client metadata document ${document.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not used: .*registering`));
    const authorization = new URL(readFileSync(browserLog, 'utf8').split('\n')[0]!.replace(/^GET /, ''));
    assert.notEqual(authorization.searchParams.get('client_id'), document, 'the authorization request names the registered client');
  });
});

describe("oidc-provider with registration on and its own scope list (the MCP server's scopes not listed)", () => {
  let as: OidcProviderMatrix;
  before(async () => {
    as = await startOidcProviderMatrix({ accessTtl: 300, listResourceScopes: false });
  });
  after(() => as?.close());

  test('the host still registers and signs in; the call is served', async () => {
    const dir = tempDir('mcp-as-matrix-');
    const env = { XDG_CONFIG_HOME: dir, BROWSER: `"${process.execPath}" "${fixturePath('oidc-browser.mjs')}"`, OIDC_BROWSER_USER: 'frank' };
    const login = await runCli(['login', '--verbose', '--url', as.bearer.url], env, dir);
    assert.equal(login.code, 0, login.err);
    assert.doesNotMatch(login.err, /trying the legacy HTTP\+SSE transport/, "an authorization server's refusal is not taken for the MCP server's");
    const call = await runCli(['call', 'whoami', '--url', as.bearer.url], { XDG_CONFIG_HOME: dir }, dir);
    assert.equal(call.code, 0, call.err);
    assert.match(call.out, /^frank mcp:read/);
  });
});
