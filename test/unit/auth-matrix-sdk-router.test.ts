// The authorization-server matrix: the MCP SDK 1.x authorization server router (`mcpAuthRouter` with the demo
// provider) behind the SDK's own example MCP server, both as they ship (test/fixtures/as-sdk-router.ts). The
// example server is Bearer-only and checks tokens by introspection; the demo provider binds no tokens (no
// DPoP), issues no refresh tokens and names a single scope, so the scenario is sign in, call, sign out.
import { after, before, test } from 'node:test';
import { startSdkExample, type SdkExample } from '../fixtures/as-sdk-router';
import { signInScenario } from '../fixtures/asMatrix';

let as: SdkExample;
before(async () => {
  as = await startSdkExample();
});
after(() => as?.stop());

test('the SDK example server (Bearer-only, introspection): sign in, call, sign out; no token leaks', async (t) => {
  await signInScenario(t, { url: as.url, kind: 'bearer', user: 'demo', call: { argv: ['greet', '--args', '{"name":"matrix"}'], answer: /Hello, matrix!/ } });
});
