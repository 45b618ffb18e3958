// The authorization-server matrix: better-auth with its OAuth provider plugin as its MCP quick start sets it up
// (test/fixtures/as-better-auth.ts), in front of a Bearer-only MCP server and a DPoP-checking one, each
// checking tokens with the plugin's resource client. The host signs in, calls, refreshes, steps up and signs out.
import { after, before, describe, test } from 'node:test';
import { startBetterAuthMatrix, type BetterAuthMatrix } from '../fixtures/as-better-auth';
import { signInScenario } from '../fixtures/asMatrix';

const ACCESS_TTL = 3;

describe('better-auth with its OAuth provider (MCP quick start)', { concurrency: 2 }, () => {
  let as: BetterAuthMatrix;
  before(async () => {
    as = await startBetterAuthMatrix(ACCESS_TTL, ['carol', 'dave']);
  });
  after(() => as?.close());

  test('a Bearer-only MCP server gets Bearer tokens: sign in, call, refresh, step up, sign out; no token leaks', async (t) => {
    await signInScenario(t, {
      url: as.bearer.url,
      kind: 'bearer',
      server: as.bearer,
      user: 'carol',
      subject: /^carol@example\.test /,
      accessTtl: ACCESS_TTL,
      stepUpScope: 'mcp:admin',
    });
  });

  test('a DPoP-checking MCP server gets DPoP-bound tokens: sign in, call, refresh, step up, sign out; no token leaks', async (t) => {
    await signInScenario(t, {
      url: as.dpop.url,
      kind: 'dpop',
      server: as.dpop,
      user: 'dave',
      subject: /^dave@example\.test /,
      accessTtl: ACCESS_TTL,
      stepUpScope: 'mcp:admin',
    });
  });
});
