// Client ID Metadata Documents: the CLI offers a configured document URL as its client id only when it fetched
// this client's document there (its own URL as client_id, a redirect the CLI receives on); otherwise it
// registers and says why. The documents are served over real HTTPS (a test certificate the CLI trusts through
// NODE_EXTRA_CA_CERTS); the authorization server advertises client_id_metadata_document_supported.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { cliArgv, repoRoot } from '../fixtures/servers';
import { TEST_TLS_CERT, TEST_TLS_KEY } from '../fixtures/oauthTls';

const example = JSON.parse(readFileSync(join(repoRoot, 'docs/oauth-client-metadata.json'), 'utf8')) as Record<string, unknown>;
const listen = (server: Server | HttpsServer) =>
  new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
const drain = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let t = '';
    req.on('data', (c) => {
      t += c;
    });
    req.on('end', () => resolve(t));
  });

let docs: HttpsServer;
let docsOrigin: string;
let as: Server;
let origin: string;
const fetchedDocs: string[] = [];
const seen: Array<{ path: string; query: URLSearchParams }> = [];
const work = mkdtempSync(join(tmpdir(), 'mcp-cimd-'));
const caFile = join(work, 'ca.pem');

before(async () => {
  writeFileSync(caFile, TEST_TLS_CERT);
  docs = createHttpsServer({ key: TEST_TLS_KEY, cert: TEST_TLS_CERT }, (req, res) => {
    const url = `${docsOrigin}${req.url}`;
    fetchedDocs.push(new URL(url).pathname);
    // The repository's example document, published at `url` (a publisher sets client_id to where they serve it).
    const doc = { ...example, client_id: url };
    const json = (value: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    switch (new URL(url).pathname) {
      case '/mcp-host/client.json':
        json(doc);
        return;
      case '/mcp-host/wrong-id.json':
        json({ ...doc, client_id: `${docsOrigin}/elsewhere.json` });
        return;
      case '/mcp-host/other-redirect.json':
        json({ ...doc, redirect_uris: ['https://app.example.com/callback'] });
        return;
      case '/mcp-host/huge.json':
        json({ ...doc, padding: 'x'.repeat(200 * 1024) });
        return;
      default:
        res.writeHead(404).end();
    }
  });
  as = createServer(async (req, res) => {
    const url = new URL(req.url!, origin);
    await drain(req);
    seen.push({ path: url.pathname, query: url.searchParams });
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) =>
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
    switch (url.pathname) {
      case '/mcp':
        json(401, { error: 'invalid_token' }, { 'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"` });
        return;
      case '/.well-known/oauth-protected-resource/mcp':
        json(200, { resource: `${origin}/mcp`, authorization_servers: [origin] });
        return;
      case '/.well-known/oauth-authorization-server':
        json(200, {
          issuer: origin,
          authorization_endpoint: `${origin}/authorize`,
          token_endpoint: `${origin}/token`,
          registration_endpoint: `${origin}/register`,
          response_types_supported: ['code'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['none'],
          client_id_metadata_document_supported: true,
        });
        return;
      case '/register':
        json(201, { client_id: 'registered-client', redirect_uris: [] });
        return;
      // An authorization server that cannot use the client shows its error page; this one does for every request.
      case '/authorize':
        res.writeHead(400, { 'content-type': 'text/html' }).end('<h1>invalid_client</h1>');
        return;
      default:
        res.writeHead(404).end();
    }
  });
  docsOrigin = `https://127.0.0.1:${await listen(docs)}`;
  origin = `http://127.0.0.1:${await listen(as)}`;
});
after(() => {
  docs.close();
  as.close();
  rmSync(work, { recursive: true, force: true });
});

/**
 * The CLI in its own process (so it can trust the test certificate), signing in with a browser that records the
 * URL (`following`: and then follows it as far as the authorization server's answer).
 */
function signIn(
  metadataUrl: string,
  following = false,
): Promise<{ code: number | null; err: string; authorize: URLSearchParams | undefined; registered: boolean }> {
  const from = seen.length;
  const run = mkdtempSync(join(work, 'run-'));
  const opened = join(run, 'opened.log');
  const browser = join(run, 'browser.mjs');
  writeFileSync(
    browser,
    `import { appendFileSync } from 'node:fs';\nappendFileSync(process.env.OPENED_LOG, process.argv[2] + '\\n');\n` +
      (following ? `await import(${JSON.stringify(pathToFileURL(join(repoRoot, 'test/conformance/browser.mjs')).href)});\n` : ''),
  );
  const child = spawn(
    process.execPath,
    [
      ...cliArgv(),
      'tools',
      '--sign-in',
      '--no-token-store',
      '--verbose',
      '--sign-in-timeout',
      '2',
      '--client-metadata-url',
      metadataUrl,
      '--url',
      `${origin}/mcp`,
    ],
    {
      cwd: repoRoot,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, NODE_EXTRA_CA_CERTS: caFile, BROWSER: `"${process.execPath}" "${browser}"`, OPENED_LOG: opened, XDG_CONFIG_HOME: work },
    },
  );
  let err = '';
  child.stderr!.on('data', (d) => {
    err += d;
  });
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      let url: string | undefined;
      try {
        url = readFileSync(opened, 'utf8').trim().split('\n')[0];
      } catch {
        url = undefined;
      }
      resolve({ code, err, authorize: url ? new URL(url).searchParams : undefined, registered: seen.slice(from).some((s) => s.path === '/register') });
    }),
  );
}

describe('a configured client metadata document URL', () => {
  test("serving this client's document: it is the client id, and nothing is registered", async () => {
    const url = `${docsOrigin}/mcp-host/client.json`;
    const r = await signIn(url);
    assert.equal(r.authorize?.get('client_id'), url, r.err);
    assert.equal(r.registered, false);
    assert.ok(fetchedDocs.includes('/mcp-host/client.json'), 'the CLI fetched the document itself');
  });

  for (const [path, reason] of [
    ['/mcp-host/missing.json', /it answered HTTP 404/],
    ['/mcp-host/wrong-id.json', /its client_id is not its own URL/],
    ['/mcp-host/other-redirect.json', /its redirect_uris do not list http:\/\/127\.0\.0\.1:\d+\/callback/],
    ['/mcp-host/huge.json', /it is larger than 64 KB/],
  ] as const) {
    test(`${path.slice(10)}: not used; the CLI registers and says why`, async () => {
      const url = `${docsOrigin}${path}`;
      const r = await signIn(url);
      assert.equal(r.registered, true, r.err);
      assert.equal(r.authorize?.get('client_id'), 'registered-client');
      assert.match(
        r.err,
        new RegExp(
          `the client metadata document ${url.replace(/[.]/g, '\\.')} is not used: ${reason.source}; registering with the authorization server instead`,
        ),
      );
    });
  }

  test('an address that does not answer (nothing listens there): not used', async () => {
    const r = await signIn('https://127.0.0.1:9/mcp-host/client.json');
    assert.equal(r.registered, true, r.err);
    assert.match(r.err, /is not used: it could not be fetched/);
  });
});

test('a sign-in whose redirect never comes back (the authorization server showed an error page) ends at the stated bound, naming it', async () => {
  const started = Date.now();
  const r = await signIn(`${docsOrigin}/mcp-host/client.json`, true);
  assert.equal(r.code, 4, r.err);
  assert.ok(
    seen.some((s) => s.path === '/authorize'),
    'the browser reached the error page',
  );
  assert.match(r.err, /waiting up to 2 s for the browser to come back/);
  assert.match(
    r.err,
    /the sign-in to server "[^"]+" at 127\.0\.0\.1:\d+ did not come back within 2 s \(the authorization server may have shown an error page, or the browser tab was closed\); nothing was stored/,
  );
  assert.ok(Date.now() - started < 60_000);
});
