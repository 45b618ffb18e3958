// Several requests that all need a new sign-in at once (every token refused, no refresh token) share one:
// the user is asked once, the browser opens once, and each waiting request is sent again once it is done. Every
// list is sent again after a sign-in, resource templates included.
// Against oidc-provider in front of an MCP server that checks every token (test/fixtures/oauth-server.ts).
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { authStoreKey, HostOAuthClientProvider, MemoryTokenStore, type ServerAuthRecord, type SignInUi } from '../../src/core/auth';
import { ServerConnection } from '../../src/core/connection/serverConnection';
import { Logger } from '../../src/core/log';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauthFixture';
import { fixturePath, httpServer } from '../fixtures/servers';

let as: OAuthFixture;
before(async () => {
  as = await startOAuthFixture();
});
after(() => as.stop());

test('requests that all get a 401 at once share one sign-in: one question, one browser, every request answered', async () => {
  const store = new MemoryTokenStore();
  const opened: string[] = [];
  const ui: SignInUi = {
    async openAuthorization({ authorizationUrl }) {
      opened.push(authorizationUrl.href);
      // oidc-provider's login and consent pages, filled in by a scripted browser
      await promisify(execFile)(process.execPath, [fixturePath('oidc-browser.mjs'), authorizationUrl.href], {
        env: { ...process.env, OIDC_BROWSER_USER: 'carol' },
        timeout: 30_000,
      });
    },
  };
  const log = new Logger(() => undefined, 'error');
  const oauth = new HostOAuthClientProvider({ server: 'notes', serverUrl: as.url, store, ui, log });
  const connection = new ServerConnection(httpServer('notes', as.url), { log, oauth, requestTimeoutMs: 60_000 });
  try {
    await connection.start();
    assert.equal(opened.length, 1, 'the first start signs in');

    // The server no longer takes the stored token, and no refresh token can replace it.
    const key = authStoreKey(as.url);
    const record = JSON.parse((await store.get(key))!) as ServerAuthRecord;
    for (const entry of Object.values(record.issuers)) {
      if (entry.tokens) entry.tokens = { ...entry.tokens, access_token: 'refused-token', refresh_token: undefined };
    }
    await store.set(key, JSON.stringify(record));

    const answers = await Promise.all([
      connection.callTool('whoami', {}),
      connection.callTool('whoami', {}),
      connection.callTool('whoami', {}),
      connection.refreshTools(),
    ]);
    assert.equal(opened.length, 2, `one more sign-in, not one per request (${opened.length - 1})`);
    for (const result of answers.slice(0, 3)) {
      assert.match((result as { content: Array<{ text: string }> }).content[0]!.text, /^carol mcp:read/);
    }
    assert.deepEqual(connection.tools.map((t) => t.name).sort(), ['admin_report', 'echo_token', 'whoami']);
  } finally {
    await connection.stop();
    await oauth.stop();
  }
});

test('every list is listed again after the sign-in it needed, resource templates included', async () => {
  const fixture = await startOAuthFixture('--resources');
  const store = new MemoryTokenStore();
  let opened = 0;
  const ui: SignInUi = {
    async openAuthorization({ authorizationUrl }) {
      opened++;
      await promisify(execFile)(process.execPath, [fixturePath('oidc-browser.mjs'), authorizationUrl.href], {
        env: { ...process.env, OIDC_BROWSER_USER: 'carol' },
        timeout: 30_000,
      });
    },
  };
  const log = new Logger(() => undefined, 'error');
  const oauth = new HostOAuthClientProvider({ server: 'notes', serverUrl: fixture.url, store, ui, log });
  const connection = new ServerConnection(httpServer('notes', fixture.url), { log, oauth, requestTimeoutMs: 60_000 });
  try {
    await connection.start();
    assert.deepEqual(
      connection.resourceTemplates.map((t) => t.uriTemplate),
      ['notes://{id}'],
    );
    const key = authStoreKey(fixture.url);
    const record = JSON.parse((await store.get(key))!) as ServerAuthRecord;
    for (const entry of Object.values(record.issuers)) {
      if (entry.tokens) entry.tokens = { ...entry.tokens, access_token: 'refused-token', refresh_token: undefined };
    }
    await store.set(key, JSON.stringify(record));
    const changed: string[] = [];
    connection.onDidChangeLists((kind) => changed.push(kind));
    await connection.refreshResourceTemplates();
    assert.equal(opened, 2, 'the refused token was replaced by a sign-in');
    await Promise.all([connection.refreshTools(), connection.refreshPrompts(), connection.refreshResources()]);
    assert.equal(opened, 2, 'the lists listed after it use the new token');
    assert.deepEqual(changed.sort(), ['resourceTemplates', 'resources', 'tools']);
    assert.deepEqual(
      connection.resourceTemplates.map((t) => t.uriTemplate),
      ['notes://{id}'],
    );
    assert.deepEqual(
      connection.resources.map((r) => r.uri),
      ['notes://index'],
    );
  } finally {
    await connection.stop();
    await oauth.stop();
    await fixture.stop();
  }
});
