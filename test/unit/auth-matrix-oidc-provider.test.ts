// The authorization-server matrix: oidc-provider 9 in its shipped defaults (DPoP, Client ID Metadata
// Documents and dynamic registration on; test/fixtures/as-oidc-provider.ts) in front of a Bearer-only MCP
// server and a DPoP-checking one. The host signs in, calls, refreshes, steps up and signs out with each.
import { after, before, describe, test } from 'node:test';
import { startOidcProviderMatrix, type OidcProviderMatrix } from '../fixtures/as-oidc-provider';
import { signInScenario } from '../fixtures/asMatrix';

const ACCESS_TTL = 3;

describe('oidc-provider (shipped defaults)', { concurrency: 2 }, () => {
  let as: OidcProviderMatrix;
  before(async () => { as = await startOidcProviderMatrix({ accessTtl: ACCESS_TTL }); });
  after(() => as?.close());

  test('a Bearer-only MCP server gets Bearer tokens: sign in, call, refresh, step up, sign out; no token leaks', async (t) => {
    await signInScenario(t, { url: as.bearer.url, kind: 'bearer', server: as.bearer, user: 'alice', accessTtl: ACCESS_TTL, stepUpScope: 'mcp:admin' });
  });

  test('a DPoP-checking MCP server gets DPoP-bound tokens: sign in, call, refresh, step up, sign out; no token leaks', async (t) => {
    await signInScenario(t, { url: as.dpop.url, kind: 'dpop', server: as.dpop, user: 'bob', accessTtl: ACCESS_TTL, stepUpScope: 'mcp:admin' });
  });
});
