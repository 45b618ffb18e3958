// Sign-in against authorization servers that misbehave: each ends in a clear error naming the server, with
// nothing stored and no token sent anywhere but the authorization and MCP servers. The browser is the
// stand-in one of the conformance runs (it follows the authorization server's redirects).
import { strict as assert } from 'node:assert';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../fixtures/cli';
import { authStoreKey, FileTokenStore, HostOAuthClientProvider, LoopbackRedirectReceiver, MemoryTokenStore } from '../../src/core/auth';
import { Logger } from '../../src/core/log';
import { repoRoot } from '../fixtures/servers';
import { tempDir } from '../helpers/tempDirs';

type Mode =
  | 'no-s256'
  | 'wrong-state'
  | 'no-access-token'
  | 'refuses-tokens'
  | 'foreign-resource'
  // endpoints no browser or fetch may be handed
  | 'file-authorize'
  | 'msdt-authorize'
  | 'file-token'
  | 'plain-http-register'
  // an https-or-loopback authorization endpoint whose path is shell syntax
  | 'shell-authorize'
  // no resource metadata; its authorization server metadata claims another issuer (CLAIMED_ISSUER)
  | 'claims-issuer'
  // refuses every registration (invalid_redirect_uri, HTTP 400)
  | 'refuses-registration'
  // refuses the scope of every authorization request but a client registered here (invalid_scope)
  | 'refuses-scope';

const CLAIMED_ISSUER = 'https://as.example.com';
/** The shell-syntax authorization endpoint of 'shell-authorize', and the file it would create if a shell ran it. */
const shellPath = { value: '', marker: join(tempDir('mcp-shell-'), 'ran') };
const UNSAFE_ENDPOINTS: Partial<Record<Mode, Record<string, string>>> = {
  'file-authorize': { authorization_endpoint: 'file:///etc/passwd' },
  'msdt-authorize': { authorization_endpoint: 'ms-msdt:/id%20PCWDiagnostic%20/skip%20force%20/param%20IT_BrowseForFile' },
  'file-token': { token_endpoint: 'file:///etc/passwd' },
  'plain-http-register': { registration_endpoint: 'http://register.example.com/register' },
};
interface Seen {
  method: string;
  path: string;
  query?: string;
  authorization?: string;
  body: string;
}

const listen = (server: Server) =>
  new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
const body = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let t = '';
    req.on('data', (c) => {
      t += c;
    });
    req.on('end', () => resolve(t));
  });

/** One origin that is both the MCP server (always asking for a token) and its authorization server, misbehaving as `mode` says; plus a foreign origin. */
async function hostile(mode: Mode) {
  const seen: Seen[] = [];
  const foreignSeen: Seen[] = [];
  const foreign = createServer(async (req, res) => {
    foreignSeen.push({ method: req.method!, path: req.url!, authorization: req.headers.authorization, body: await body(req) });
    res.writeHead(500).end();
  });
  const server = createServer(async (req, res) => {
    const url = new URL(req.url!, origin);
    const text = await body(req);
    seen.push({ method: req.method!, path: url.pathname, query: url.search, authorization: req.headers.authorization, body: text });
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) =>
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
    switch (url.pathname) {
      case '/mcp':
        if (req.headers.authorization === 'Bearer tok-123' && mode !== 'refuses-tokens') {
          json(500, { error: 'this fixture serves no MCP' });
          return;
        }
        json(
          401,
          { error: 'invalid_token' },
          { 'www-authenticate': mode === 'claims-issuer' ? 'Bearer' : `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"` },
        );
        return;
      case '/.well-known/oauth-protected-resource/mcp':
        if (mode === 'claims-issuer') {
          json(404, { error: 'not_found' });
          return;
        }
        json(200, { resource: mode === 'foreign-resource' ? `${foreignOrigin}/mcp` : `${origin}/mcp`, authorization_servers: [origin] });
        return;
      case '/.well-known/oauth-authorization-server':
        json(200, {
          issuer: mode === 'claims-issuer' ? CLAIMED_ISSUER : origin,
          authorization_endpoint: `${origin}/authorize`,
          registration_endpoint: `${origin}/register`,
          token_endpoint: mode === 'foreign-resource' ? `${foreignOrigin}/token` : `${origin}/token`,
          response_types_supported: ['code'],
          grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
          token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
          ...UNSAFE_ENDPOINTS[mode],
          ...(mode === 'shell-authorize' ? { authorization_endpoint: shellPath.value } : {}),
          ...(mode === 'no-s256' ? {} : { code_challenge_methods_supported: ['S256'] }),
        });
        return;
      case '/register':
        if (mode === 'refuses-registration') {
          json(400, { error: 'invalid_redirect_uri', error_description: 'this server takes no loopback redirects' });
          return;
        }
        json(201, { ...JSON.parse(text || '{}'), client_id: 'hostile-client' });
        return;
      case '/authorize': {
        const back = new URL(url.searchParams.get('redirect_uri')!);
        if (mode === 'refuses-scope' && url.searchParams.get('client_id') !== 'hostile-client') {
          back.searchParams.set('error', 'invalid_scope');
          back.searchParams.set('error_description', 'requested scope is not allowed');
          back.searchParams.set('state', url.searchParams.get('state')!);
          back.searchParams.set('iss', origin);
          res.writeHead(302, { location: back.href }).end();
          return;
        }
        back.searchParams.set('code', 'code-1');
        back.searchParams.set('state', mode === 'wrong-state' ? 'forged-state' : url.searchParams.get('state')!);
        res.writeHead(302, { location: back.href }).end();
        return;
      }
      case '/token':
        json(
          200,
          mode === 'no-access-token' ? { token_type: 'Bearer', expires_in: 3600 } : { access_token: 'tok-123', token_type: 'Bearer', expires_in: 3600 },
        );
        return;
      default:
        res.writeHead(404).end();
    }
  });
  const [origin, foreignOrigin] = await Promise.all([listen(server), listen(foreign)]);
  // (a URL keeps `$`, parentheses and `;` in its path as they are; backticks and braces it percent-encodes)
  if (mode === 'shell-authorize') shellPath.value = `${origin}/authorize$(touch$IFS${shellPath.marker});touch$IFS${shellPath.marker}`;
  return {
    url: `${origin}/mcp`,
    origin,
    seen,
    foreignSeen,
    close: () => {
      server.close();
      foreign.close();
    },
  };
}

const browser = `"${process.execPath}" "${join(repoRoot, 'test/conformance/browser.mjs')}"`;

const cases: Array<[Mode, RegExp]> = [
  ['no-s256', /does not support PKCE with S256; refusing to sign in/],
  ['wrong-state', /wrong state; nothing was stored/],
  ['no-access-token', /token response .* was not valid: access_token/],
  ['refuses-tokens', /refused the connection \(HTTP 401\) even after signing in/],
  ['foreign-resource', /Protected resource .* does not match/],
];

describe('sign-in against a misbehaving authorization server', () => {
  for (const [mode, message] of cases) {
    test(mode, async () => {
      const h = await hostile(mode);
      try {
        const home = tempDir('mcp-hostile-home-');
        const r = await runCli(['tools', '--sign-in', '--url', h.url], { XDG_CONFIG_HOME: home, BROWSER: browser });
        assert.equal(r.code, 4, r.err);
        assert.match(r.err, new RegExp(`cannot start server "${h.origin.replace('http://', '').replace(/\./g, '\\.')}"`));
        assert.match(r.err, message);
        // A refused token is forgotten (the client registration it came with may stay); otherwise nothing is stored.
        const file = join(home, 'mcp-host', 'tokens.json');
        if (mode === 'refuses-tokens') assert.ok(!readFileSync(file, 'utf8').includes('access_token'), 'the refused token is forgotten');
        else assert.ok(!existsSync(file), 'nothing is stored');
        assert.deepEqual(h.foreignSeen, [], 'nothing reached the foreign origin');
        // The token, when one was issued, went only to the MCP server's endpoint.
        for (const s of h.seen) if (s.authorization) assert.equal(s.path, '/mcp');
        if (mode === 'wrong-state' || mode === 'no-s256' || mode === 'foreign-resource')
          assert.ok(!h.seen.some((s) => s.path === '/token'), 'no token request');
      } finally {
        h.close();
      }
    });
  }
});

test('a pre-registered client from the server entry in mcp.json is used instead of registering', async () => {
  const h = await hostile('refuses-tokens');
  try {
    const dir = tempDir('mcp-oauth-config-');
    mkdirSync(join(dir, '.vscode'));
    writeFileSync(
      join(dir, '.vscode', 'mcp.json'),
      JSON.stringify({
        inputs: [{ type: 'promptString', id: 'secret', password: true }],
        servers: { notes: { type: 'http', url: h.url, oauth: { clientId: 'from-config', clientSecret: '${input:secret}' } } },
      }),
    );
    const r = await runCli(
      ['tools', '--sign-in', '--verbose', '--server', 'notes'],
      {
        XDG_CONFIG_HOME: dir,
        BROWSER: browser,
        MCP_INPUT_secret: 'config-secret-value',
      },
      dir,
    );
    assert.equal(r.code, 4, r.err);
    assert.ok(!h.seen.some((s) => s.path === '/register'), 'no registration');
    assert.match(h.seen.find((s) => s.path === '/authorize')!.query!, /client_id=from-config/);
    const token = h.seen.find((s) => s.path === '/token')!;
    assert.match(`${token.body} ${Buffer.from((token.authorization ?? '').replace(/^Basic /, ''), 'base64').toString()}`, /from-config/);
    assert.ok(!r.err.includes('config-secret-value'), 'the secret is masked in the log');
  } finally {
    h.close();
  }
});

test('an authorization server that refuses the registration is not taken for the MCP server: no legacy SSE fallback', async () => {
  const h = await hostile('refuses-registration');
  try {
    const home = tempDir('mcp-hostile-home-');
    const r = await runCli(['tools', '--sign-in', '--verbose', '--url', h.url], { XDG_CONFIG_HOME: home, BROWSER: browser });
    assert.equal(r.code, 4, r.err);
    assert.match(r.err, /Registration rejected \(HTTP 400\).*invalid_redirect_uri/);
    assert.doesNotMatch(r.err, /legacy HTTP\+SSE/, 'the registration refusal did not move the connection to SSE');
    assert.equal(h.seen.filter((s) => s.path === '/register').length, 1, 'one registration request');
    assert.ok(!h.seen.some((s) => s.path === '/mcp' && s.method === 'GET'), 'no SSE stream was opened');
  } finally {
    h.close();
  }
});

describe('an authorization server that refuses the scope asked for (invalid_scope)', () => {
  test('a client registered earlier is given up once: a new one is registered for the scope and the sign-in goes on', async () => {
    const h = await hostile('refuses-scope');
    try {
      const home = tempDir('mcp-hostile-home-');
      // A registration kept from an earlier sign-in, which this authorization server holds to a smaller scope.
      await new FileTokenStore(join(home, 'mcp-host', 'tokens.json')).set(
        authStoreKey(h.url),
        JSON.stringify({
          issuers: { [h.origin]: { client: { client_id: 'earlier-client', redirect_uris: ['http://127.0.0.1/callback'], issuer: h.origin } } },
          lastIssuer: h.origin,
        }),
      );
      const r = await runCli(['tools', '--sign-in', '--verbose', '--url', h.url], { XDG_CONFIG_HOME: home, BROWSER: browser });
      assert.match(
        r.err,
        /refused the scope .* for the client registered earlier \(invalid_scope: requested scope is not allowed\); registering a new client for it/,
      );
      const authorizations = h.seen.filter((s) => s.path === '/authorize').map((s) => new URLSearchParams(s.query).get('client_id'));
      assert.deepEqual(authorizations, ['earlier-client', 'hostile-client'], 'the second authorization names the new client');
      assert.equal(h.seen.filter((s) => s.path === '/register').length, 1, 'one new registration');
      assert.ok(
        h.seen.some((s) => s.path === '/token'),
        "the new client's code was redeemed",
      );
    } finally {
      h.close();
    }
  });

  test('a configured client cannot be registered again: the refusal names the scope and the client', async () => {
    const h = await hostile('refuses-scope');
    try {
      const home = tempDir('mcp-hostile-home-');
      const r = await runCli(['tools', '--sign-in', '--client-id', 'configured-client', '--url', h.url], { XDG_CONFIG_HOME: home, BROWSER: browser });
      assert.equal(r.code, 4, r.err);
      assert.match(
        r.err,
        /refused the scope "[^"]*" for the configured client configured-client \(invalid_scope: requested scope is not allowed\); nothing was stored/,
      );
      assert.ok(!h.seen.some((s) => s.path === '/register' || s.path === '/token'), 'no registration, no token request');
      assert.ok(!existsSync(join(home, 'mcp-host', 'tokens.json')), 'nothing is stored');
    } finally {
      h.close();
    }
  });
});

describe('loopback redirect receiver', () => {
  let receiver: LoopbackRedirectReceiver;
  before(async () => {
    receiver = await LoopbackRedirectReceiver.start();
  });
  after(() => receiver.stop());

  test('listens on 127.0.0.1, refuses a redirect with the wrong state, and times out', async () => {
    assert.match(receiver.redirectUrl, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const refused = assert.rejects(receiver.waitForRedirect('right', 10_000), /wrong state/);
    const page = await fetch(`${receiver.redirectUrl}?code=c&state=wrong`);
    assert.equal(page.status, 400);
    await refused;
    const ok = receiver.waitForRedirect('right', 10_000);
    assert.equal((await fetch(`${receiver.redirectUrl}?code=c&state=right`)).status, 200);
    assert.equal((await ok).get('code'), 'c');
    await assert.rejects(receiver.waitForRedirect('late', 50), /no answer from the browser within/);
  });
});

test('log lines never carry a bearer token or token fields', () => {
  const lines: string[] = [];
  const log = new Logger((_l, m) => lines.push(m), 'trace');
  log.info('GET /mcp Authorization: Bearer eyJhbGciOiJSUzI1NiJ9.payload.signature');
  log.info('{"access_token":"abc.def","refresh_token":"r-123","token_type":"Bearer"}');
  assert.deepEqual(lines, ['GET /mcp Authorization: Bearer ********', '{"access_token":"********","refresh_token":"********","token_type":"Bearer"}']);
});

/** A $BROWSER that records every argument it is run with, one line each. */
function recordingBrowser() {
  const dir = tempDir('mcp-recording-browser-');
  const record = join(dir, 'opened.log');
  const script = join(dir, 'browser.mjs');
  writeFileSync(script, `import { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(record)}, process.argv.slice(2).join(' ') + '\\n');\n`);
  const opened = () => (existsSync(record) ? readFileSync(record, 'utf8') : '');
  return {
    browser: `"${process.execPath}" "${script}"`,
    opened,
    /** $BROWSER runs detached, so the CLI may exit before the browser process has written its record. */
    async openedWithin(timeoutMs: number): Promise<string> {
      const until = Date.now() + timeoutMs;
      while (!opened() && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      return opened();
    },
  };
}

describe('an authorization server that names an endpoint no browser or fetch may be handed', () => {
  for (const [mode, what, scheme] of [
    ['file-authorize', 'an authorization endpoint', 'file:'],
    ['msdt-authorize', 'an authorization endpoint', 'ms-msdt:'],
  ] as const) {
    test(`${scheme} authorization endpoint: refused, naming the server and the scheme; $BROWSER never runs`, async () => {
      const h = await hostile(mode);
      const rec = recordingBrowser();
      try {
        const home = tempDir('mcp-hostile-home-');
        const started = Date.now();
        const r = await runCli(['tools', '--sign-in', '--url', h.url], { XDG_CONFIG_HOME: home, BROWSER: rec.browser });
        assert.equal(r.code, 4, r.err);
        assert.match(r.err, new RegExp(`authorization server of server "[^"]+" gave ${what} with the scheme "${scheme}"`));
        assert.ok(Date.now() - started < 30_000, 'refused at once, not after a wait for the browser');
        assert.doesNotMatch(r.err, /opening the browser/);
        assert.equal(rec.opened(), '', '$BROWSER was never run');
        assert.ok(!r.err.includes('/etc/passwd') && !r.err.includes('PCWDiagnostic'), 'the crafted URL is not printed');
        assert.ok(!existsSync(join(home, 'mcp-host', 'tokens.json')), 'nothing is stored');
      } finally {
        h.close();
      }
    });
  }

  test('the same check in the provider the extension uses: openAuthorization is never called', async () => {
    const opened: URL[] = [];
    const provider = new HostOAuthClientProvider({
      server: 'notes',
      serverUrl: 'https://mcp.example.com/mcp',
      store: new MemoryTokenStore(),
      log: new Logger(() => undefined, 'error'),
      ui: {
        openAuthorization: async ({ authorizationUrl }) => {
          opened.push(authorizationUrl);
        },
      },
      redirect: async () => ({
        redirectUrl: 'http://127.0.0.1:1/callback',
        waitForRedirect: () => new Promise(() => undefined),
        stop: async () => undefined,
        dispose: () => undefined,
      }),
    });
    await provider.prepare();
    for (const url of ['file:///etc/passwd?response_type=code', 'ms-msdt:/id%20PCWDiagnostic', 'javascript:alert(1)', 'http://login.example.com/authorize']) {
      await assert.rejects(provider.redirectToAuthorization(new URL(url)), /authorization server of server "notes" gave an? authorization URL with the scheme/);
    }
    assert.deepEqual(opened, []);
  });

  test('a file: token endpoint is never fetched, and the client secret goes nowhere', async () => {
    const h = await hostile('file-token');
    try {
      const r = await runCli(['tools', '--grant', 'client_credentials', '--client-id', 'cc', '--client-secret', 'env:HOSTILE_SECRET', '--url', h.url], {
        XDG_CONFIG_HOME: tempDir('mcp-hostile-home-'),
        HOSTILE_SECRET: 'the-client-secret',
      });
      assert.equal(r.code, 4, r.err);
      assert.match(r.err, /authorization server of server "[^"]+" gave a token endpoint with the scheme "file:"/);
      assert.ok(
        !h.seen.some(
          (s) => `${s.authorization} ${s.body}`.includes(Buffer.from('cc:the-client-secret').toString('base64')) || s.body.includes('the-client-secret'),
        ),
      );
    } finally {
      h.close();
    }
  });

  test('a registration endpoint over plain http to another machine is never fetched', async () => {
    const h = await hostile('plain-http-register');
    const rec = recordingBrowser();
    try {
      const r = await runCli(['tools', '--sign-in', '--url', h.url], {
        XDG_CONFIG_HOME: tempDir('mcp-hostile-home-'),
        BROWSER: rec.browser,
      });
      assert.equal(r.code, 4, r.err);
      assert.match(r.err, /gave a registration endpoint with the scheme "http:" to register\.example\.com, which is not this machine/);
      assert.ok(!h.seen.some((s) => s.path === '/register' || s.path === '/token'));
      assert.doesNotMatch(r.err, /opening the browser/);
      assert.equal(rec.opened(), '');
    } finally {
      h.close();
    }
  });
});

describe("a pre-registered client's secret goes only to the authorization server it belongs to", () => {
  const secret = 'pre-registered-secret-value';
  const basic = Buffer.from(`cc:${secret}`).toString('base64');
  const carriesSecret = (s: Seen) => `${s.authorization ?? ''} ${s.body} ${s.query ?? ''}`.includes(secret) || (s.authorization ?? '').includes(basic);

  test('--issuer B, a server without resource metadata whose metadata claims issuer B: no request carries the secret', async () => {
    const h = await hostile('claims-issuer');
    try {
      for (const grant of ['client_credentials', 'authorization_code']) {
        const rec = recordingBrowser();
        const r = await runCli(
          ['tools', '--sign-in', '--grant', grant, '--client-id', 'cc', '--client-secret', 'env:HOSTILE_SECRET', '--issuer', CLAIMED_ISSUER, '--url', h.url],
          { XDG_CONFIG_HOME: tempDir('mcp-hostile-home-'), HOSTILE_SECRET: secret, BROWSER: rec.browser },
        );
        assert.equal(r.code, 4, r.err);
        assert.match(
          r.err,
          new RegExp(
            `metadata came from ${h.origin.replace(/[.]/g, '\\.')}, not from the configured issuer's origin https://as\\.example\\.com; the client credentials for server "[^"]+" are not sent there`,
          ),
        );
        assert.doesNotMatch(r.err, /opening the browser/);
        assert.equal(rec.opened(), '', 'no browser sign-in with those credentials either');
      }
      assert.ok(
        h.seen.some((s) => s.path === '/.well-known/oauth-authorization-server'),
        'the metadata was read',
      );
      assert.ok(!h.seen.some((s) => s.path === '/token' || s.path === '/authorize'), 'no token request, no authorization');
      assert.deepEqual(h.seen.filter(carriesSecret), [], 'the hostile server never received the secret');
    } finally {
      h.close();
    }
  });

  test("the same rule for mcp.json's oauth block, with or without its issuer", async () => {
    const h = await hostile('claims-issuer');
    try {
      for (const issuer of [undefined, CLAIMED_ISSUER]) {
        const dir = tempDir('mcp-oauth-config-');
        mkdirSync(join(dir, '.vscode'));
        writeFileSync(
          join(dir, '.vscode', 'mcp.json'),
          JSON.stringify({
            inputs: [{ type: 'promptString', id: 'secret', password: true }],
            servers: { notes: { type: 'http', url: h.url, oauth: { clientId: 'cc', clientSecret: '${input:secret}', ...(issuer ? { issuer } : {}) } } },
          }),
        );
        const rec = recordingBrowser();
        const r = await runCli(['tools', '--sign-in', '--server', 'notes'], { XDG_CONFIG_HOME: dir, BROWSER: rec.browser, MCP_INPUT_secret: secret }, dir);
        assert.equal(r.code, 4, r.err);
        assert.match(
          r.err,
          issuer
            ? /not from the configured issuer's origin/
            : /names another issuer \(https:\/\/as\.example\.com\); the client credentials for server "notes" are not sent there/,
        );
        assert.doesNotMatch(r.err, /opening the browser/);
        assert.equal(rec.opened(), '');
      }
      assert.deepEqual(h.seen.filter(carriesSecret), [], 'the hostile server never received the secret');
      assert.ok(!h.seen.some((s) => s.path === '/token'));
    } finally {
      h.close();
    }
  });
});

test('an authorization URL with shell syntax reaches $BROWSER as one argument, never run by a shell', async () => {
  const h = await hostile('shell-authorize');
  const rec = recordingBrowser();
  try {
    const r = await runCli(['tools', '--sign-in', '--sign-in-timeout', '1', '--url', h.url], {
      XDG_CONFIG_HOME: tempDir('mcp-hostile-home-'),
      BROWSER: rec.browser,
    });
    assert.equal(r.code, 4, r.err);
    assert.match(r.err, /opening the browser/);
    const opened = (await rec.openedWithin(15_000)).trim();
    assert.ok(opened.startsWith(`${h.origin}/authorize$(touch`), opened);
    assert.ok(opened.includes(`;touch$IFS${shellPath.marker}`), opened);
    assert.equal(opened.split('\n').length, 1, 'one argument, one line');
    assert.ok(!existsSync(shellPath.marker), 'no shell ran the URL');
  } finally {
    h.close();
  }
});
