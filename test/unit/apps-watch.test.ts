// A shown app's resource kept current (core/apps watch): subscribed while watched, read again when the server
// reports it updated or its lists change, reported only when what it renders changed; unsubscribed after.
// Against the apps fixture over stdio, whose update_app tool bumps the version of ui://versioned/app.html.
import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { AppResourceWatch, appResourceCacheOf, readCachedApp, type AppResource } from '../../src/core/apps';
import { ServerConnection } from '../../src/core/connection';
import { Logger } from '../../src/core/log';
import { stdioFixture } from '../fixtures/servers';
import { tempDir } from '../helpers/tempDirs';

const URI = 'ui://versioned/app.html';

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('watching an app resource', () => {
  const record = join(tempDir('apps-watch-'), 'calls.jsonl');
  let conn: ServerConnection;
  const lines = () =>
    readFileSync(record, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  before(async () => {
    writeFileSync(record, '');
    const def = stdioFixture('apps-server.ts');
    conn = new ServerConnection(
      { ...def, env: { ...def.env, APPS_FIXTURE_RECORD: record } },
      { log: new Logger(() => undefined, 'error'), capabilities: { apps: true } },
    );
    await conn.start();
  });
  after(() => conn.stop());

  test('an updated resource is read again and reported; a list change that renders the same is not; disposing unsubscribes', async () => {
    assert.equal(conn.supportsSubscriptions, true);
    const cache = appResourceCacheOf(conn);
    const first = await readCachedApp(conn, cache, URI);
    assert.match(first.html, /Version 1</);
    const changes: AppResource[] = [];
    const problems: string[] = [];
    const watch = new AppResourceWatch(conn, cache, URI, { shown: first, onChanged: (app) => changes.push(app), onProblem: (m) => problems.push(m) });
    await until('the subscription', () => (watch.subscribed ? true : undefined));
    assert.deepEqual(
      lines().filter((l) => l.subscribe),
      [{ subscribe: URI }],
    );

    // notifications/resources/updated (sent only to subscribers): read again, reported with the new document.
    await conn.callTool('update_app', {});
    const updated = await until('the update', () => changes[0]);
    assert.match(updated.html, /Version 2</);
    // The cache holds the new document for the next run.
    assert.equal((await readCachedApp(conn, cache, URI)).html, updated.html);

    // A list change whose read renders the same app reports nothing.
    await conn.callTool('update_app', { change: false, notify: 'list' });
    await until('the list change read', () => (lines().some((l) => (l.arguments as { notify?: string } | undefined)?.notify === 'list') ? true : undefined));
    await new Promise((r) => setTimeout(r, 300));
    await watch.settled();
    assert.equal(changes.length, 1);

    // A list change with a new document reports it (servers without subscriptions still reach the app this way).
    await conn.callTool('update_app', { notify: 'list' });
    const listed = await until('the list change', () => changes[1]);
    assert.match(listed.html, /Version 3</);
    assert.deepEqual(problems, []);

    watch.dispose();
    await until('the unsubscribe', () => (lines().some((l) => l.unsubscribe === URI) ? true : undefined));
    await conn.callTool('update_app', {});
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(changes.length, 2, 'nothing is reported after dispose');
  });
});
