// Sign-in against authorization servers that misbehave: each ends in a clear error naming the server, with
// nothing stored and no token sent anywhere but the authorization and MCP servers. The browser is the
// stand-in one of the conformance runs (it follows the authorization server's redirects).
import { strict as assert } from 'node:assert';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../fixtures/cli';
import { LoopbackRedirect } from '../../src/core/auth';
import { Logger } from '../../src/core/log';
import { repoRoot } from '../fixtures/servers';

type Mode = 'no-s256' | 'wrong-state' | 'no-access-token' | 'refuses-tokens' | 'foreign-resource';
interface Seen { method: string; path: string; query?: string; authorization?: string; body: string }

const listen = (server: Server) => new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
const body = (req: IncomingMessage) => new Promise<string>((resolve) => { let t = ''; req.on('data', (c) => { t += c; }); req.on('end', () => resolve(t)); });

/** One origin that is both the MCP server (always asking for a token) and its authorization server, misbehaving as `mode` says; plus a foreign origin. */
async function hostile(mode: Mode) {
  const seen: Seen[] = [];
  const foreignSeen: Seen[] = [];
  const foreign = createServer(async (req, res) => { foreignSeen.push({ method: req.method!, path: req.url!, authorization: req.headers.authorization, body: await body(req) }); res.writeHead(500).end(); });
  const server = createServer(async (req, res) => {
    const url = new URL(req.url!, origin);
    const text = await body(req);
    seen.push({ method: req.method!, path: url.pathname, query: url.search, authorization: req.headers.authorization, body: text });
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) => res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
    switch (url.pathname) {
      case '/mcp':
        if (req.headers.authorization === 'Bearer tok-123' && mode !== 'refuses-tokens') { json(500, { error: 'this fixture serves no MCP' }); return; }
        json(401, { error: 'invalid_token' }, { 'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"` });
        return;
      case '/.well-known/oauth-protected-resource/mcp':
        json(200, { resource: mode === 'foreign-resource' ? `${foreignOrigin}/mcp` : `${origin}/mcp`, authorization_servers: [origin] });
        return;
      case '/.well-known/oauth-authorization-server':
        json(200, {
          issuer: origin, authorization_endpoint: `${origin}/authorize`, registration_endpoint: `${origin}/register`,
          token_endpoint: mode === 'foreign-resource' ? `${foreignOrigin}/token` : `${origin}/token`,
          response_types_supported: ['code'], grant_types_supported: ['authorization_code', 'refresh_token'],
          token_endpoint_auth_methods_supported: ['none'],
          ...(mode === 'no-s256' ? {} : { code_challenge_methods_supported: ['S256'] }),
        });
        return;
      case '/register':
        json(201, { ...JSON.parse(text || '{}'), client_id: 'hostile-client' });
        return;
      case '/authorize': {
        const back = new URL(url.searchParams.get('redirect_uri')!);
        back.searchParams.set('code', 'code-1');
        back.searchParams.set('state', mode === 'wrong-state' ? 'forged-state' : url.searchParams.get('state')!);
        res.writeHead(302, { location: back.href }).end();
        return;
      }
      case '/token':
        json(200, mode === 'no-access-token' ? { token_type: 'Bearer', expires_in: 3600 } : { access_token: 'tok-123', token_type: 'Bearer', expires_in: 3600 });
        return;
      default:
        res.writeHead(404).end();
    }
  });
  const [origin, foreignOrigin] = await Promise.all([listen(server), listen(foreign)]);
  return { url: `${origin}/mcp`, origin, seen, foreignSeen, close: () => { server.close(); foreign.close(); } };
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
        const home = mkdtempSync(join(tmpdir(), 'mcp-hostile-home-'));
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
        if (mode === 'wrong-state' || mode === 'no-s256' || mode === 'foreign-resource') assert.ok(!h.seen.some((s) => s.path === '/token'), 'no token request');
      } finally {
        h.close();
      }
    });
  }
});

test('a pre-registered client from the server entry in mcp.json is used instead of registering', async () => {
  const h = await hostile('refuses-tokens');
  try {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-oauth-config-'));
    mkdirSync(join(dir, '.vscode'));
    writeFileSync(join(dir, '.vscode', 'mcp.json'), JSON.stringify({
      inputs: [{ type: 'promptString', id: 'secret', password: true }],
      servers: { notes: { type: 'http', url: h.url, oauth: { clientId: 'from-config', clientSecret: '${input:secret}' } } },
    }));
    const r = await runCli(['tools', '--sign-in', '--verbose', '--server', 'notes'], {
      XDG_CONFIG_HOME: dir, BROWSER: browser, MCP_INPUT_secret: 'config-secret-value',
    }, dir);
    assert.equal(r.code, 4, r.err);
    assert.ok(!h.seen.some((s) => s.path === '/register'), 'no registration');
    assert.match(h.seen.find((s) => s.path === '/authorize')!.query!, /client_id=from-config/);
    assert.match(h.seen.find((s) => s.path === '/token')!.body, /client_id=from-config/);
    assert.ok(!r.err.includes('config-secret-value'), 'the secret is masked in the log');
  } finally {
    h.close();
  }
});

describe('loopback redirect receiver', () => {
  let receiver: LoopbackRedirect;
  before(async () => { receiver = await LoopbackRedirect.start(); });
  after(() => receiver.dispose());

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
