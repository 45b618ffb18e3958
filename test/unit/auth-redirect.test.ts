// Where the sign-in's redirect comes back: a registration is reused only for a redirect it lists (a loopback
// one on any port), sign-in failures are told apart across separately bundled copies of their classes, and the
// client's metadata document matches the URL it is published at.
import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import {
  authStoreKey,
  challengesDpop,
  HostOAuthClientProvider,
  MemoryTokenStore,
  redirectRegistered,
  SignInCancelledError,
  type RedirectReceiver,
} from '../../src/core/auth';
import { signInKind } from '../../src/core/connection/signInErrors';
import { HostError } from '../../src/core/errors';
import { Logger } from '../../src/core/log';

test('a loopback redirect matches a registration on another port; any other redirect must match exactly', () => {
  assert.equal(redirectRegistered('http://127.0.0.1:5001/callback', ['http://127.0.0.1:4000/callback']), true);
  assert.equal(redirectRegistered('http://127.0.0.1:5001/callback', ['http://127.0.0.1:4000/other']), false);
  assert.equal(redirectRegistered('http://127.0.0.1:5001/callback', ['http://localhost:4000/callback']), false);
  assert.equal(redirectRegistered('https://ide.example.com/proxy/5001/callback', ['https://ide.example.com/proxy/4000/callback']), false);
  assert.equal(redirectRegistered('https://ide.example.com/proxy/5001/callback', ['https://ide.example.com/proxy/5001/callback']), true);
  assert.equal(redirectRegistered('not a url', ['http://127.0.0.1:4000/callback']), false);
});

const SERVER_URL = 'https://mcp.example.com/mcp';
const ISSUER = 'https://auth.example.com';

/** A provider whose stored registration lists `registered`, receiving redirects at `redirectUrl`. */
async function providerWith(registered: string, redirectUrl: string, refreshToken?: string) {
  const store = new MemoryTokenStore();
  const client = { client_id: 'registered-client', redirect_uris: [registered] };
  const tokens = refreshToken ? { access_token: 'expired', token_type: 'Bearer', refresh_token: refreshToken } : undefined;
  await store.set(authStoreKey(SERVER_URL), JSON.stringify({ issuers: { [ISSUER]: { client, ...(tokens ? { tokens } : {}) } }, lastIssuer: ISSUER }));
  const ports: Array<number | undefined> = [];
  const receiver: RedirectReceiver = {
    redirectUrl,
    waitForRedirect: () => new Promise(() => undefined),
    stop: async () => undefined,
    dispose: () => undefined,
  };
  const provider = new HostOAuthClientProvider({
    server: 'notes',
    serverUrl: SERVER_URL,
    store,
    log: new Logger(() => undefined, 'error'),
    ui: { openAuthorization: async () => undefined },
    redirect: async (port) => {
      ports.push(port);
      return receiver;
    },
  });
  await provider.prepare();
  return { provider, ports };
}

test('a stored registration whose redirect the host can no longer receive is not reused (the host registers again)', async () => {
  const proxied = await providerWith('https://ide.example.com/proxy/4000/callback', 'https://ide.example.com/proxy/5001/callback');
  assert.deepEqual(proxied.ports, [undefined], 'no loopback port to listen on again');
  assert.equal(await proxied.provider.clientInformation({ issuer: ISSUER }), undefined);

  const loopback = await providerWith('http://127.0.0.1:4000/callback', 'http://127.0.0.1:5001/callback');
  assert.deepEqual(loopback.ports, [4000], 'the registered loopback port is asked for again');
  assert.equal((await loopback.provider.clientInformation({ issuer: ISSUER }))?.client_id, 'registered-client');

  // A refresh token is bound to its registration and needs no redirect: the registration is kept.
  const refreshable = await providerWith('https://ide.example.com/proxy/4000/callback', 'https://ide.example.com/proxy/5001/callback', 'refresh-1');
  assert.equal((await refreshable.provider.clientInformation({ issuer: ISSUER }))?.client_id, 'registered-client');
});

test("a sign-in failure is recognised by its brand, also from another bundle's copy of the class, never by its name", () => {
  // The extension and the connection are bundled separately: the UI's SignInCancelledError is not the connection's.
  class SignInCancelledErrorCopy extends HostError {
    static override readonly brand: string = 'SignInCancelledError';
  }
  assert.equal(signInKind(new SignInCancelledErrorCopy('cancelled')), 'cancelled');
  assert.equal(signInKind(new Error('wrapped', { cause: new SignInCancelledError('cancelled') })), 'cancelled');
  assert.equal(signInKind(new Error('SignInCancelledError')), undefined);
  assert.equal(signInKind(Object.assign(new Error('cancelled'), { name: 'SignInCancelledError' })), undefined);
});

test('a DPoP challenge is told apart from a Bearer one, also among several challenges and inside quoted values', () => {
  assert.equal(challengesDpop('DPoP algs="ES256"'), true);
  assert.equal(challengesDpop('Bearer realm="x", DPoP algs="ES256 PS256"'), true);
  assert.equal(challengesDpop('dpop'), true);
  assert.equal(challengesDpop('Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", scope="mcp:read"'), false);
  assert.equal(challengesDpop('Bearer error_description="use DPoP, please"'), false);
  assert.equal(challengesDpop(null), false);
});

test('DPoP-bound tokens only where the MCP server takes them, whatever the authorization server offers', async () => {
  const asMetadata = {
    issuer: ISSUER,
    authorization_endpoint: `${ISSUER}/authorize`,
    token_endpoint: `${ISSUER}/token`,
    response_types_supported: ['code'],
    dpop_signing_alg_values_supported: ['ES256'],
  };
  const session = async (resourceMetadata: Record<string, unknown>, challenge?: string) => {
    const provider = new HostOAuthClientProvider({
      server: 'notes',
      serverUrl: SERVER_URL,
      store: new MemoryTokenStore(),
      log: new Logger(() => undefined, 'error'),
    });
    if (challenge) {
      // the MCP server's refusal, as the transport's fetch sees it
      const guarded = provider.guardFetch(async () => new Response(null, { status: 401, headers: { 'www-authenticate': challenge } }));
      await guarded(SERVER_URL, { method: 'POST' });
    }
    provider.saveDiscoveryState({
      authorizationServerUrl: ISSUER,
      authorizationServerMetadata: asMetadata,
      resourceMetadata: { resource: SERVER_URL, ...resourceMetadata },
    } as never);
    return provider.dpop();
  };
  assert.equal(await session({ bearer_methods_supported: ['header'] }, 'Bearer scope="mcp:read"'), undefined, 'a Bearer-only server gets Bearer tokens');
  assert.ok(await session({ dpop_signing_alg_values_supported: ['ES256'] }), 'resource metadata naming DPoP algorithms');
  assert.ok(await session({ dpop_bound_access_tokens_required: true }), 'resource metadata requiring bound tokens');
  assert.ok(await session({}, 'DPoP algs="ES256"'), 'a DPoP challenge');
});
