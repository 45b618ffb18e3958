// MCP Apps discovery: which tools have an app, who may call them, the capability the host declares, and
// reading an app's resource (size, type, CSP) from real servers: the npm examples and a misbehaving fixture.
import { strict as assert } from 'node:assert';
import { after, before, describe, test } from 'node:test';
import { join } from 'node:path';
import {
  AppResourceCache,
  APP_RESOURCE_MAX_BYTES,
  appCspHeader,
  callableByApp,
  cspSource,
  offeredToUser,
  readAppCsp,
  readAppResource,
  toolAppUri,
} from '../../src/core/apps';
import type { ResolvedStdioServer } from '../../src/core/config/types';
import { ServerConnection } from '../../src/core/connection';
import { Logger } from '../../src/core/log';
import { repoRoot, stdioFixture } from '../fixtures/servers';

const quiet = () => new Logger(() => undefined, 'error');

export function npmExample(name: 'basic-vanillajs' | 'budget-allocator'): ResolvedStdioServer {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  return {
    name,
    transport: 'stdio',
    command: process.execPath,
    env,
    cwd: repoRoot,
    args: [join(repoRoot, 'node_modules', '@modelcontextprotocol', `server-${name}`, 'dist', 'index.js'), '--stdio'],
  };
}

test('a tool has an app when _meta.ui.resourceUri (or the older _meta["ui/resourceUri"]) names a ui:// resource', () => {
  assert.equal(toolAppUri({ _meta: { ui: { resourceUri: 'ui://a/b.html' } } }), 'ui://a/b.html');
  assert.equal(toolAppUri({ _meta: { 'ui/resourceUri': 'ui://old/x.html' } }), 'ui://old/x.html');
  assert.equal(toolAppUri({ _meta: { ui: { resourceUri: 'https://example.com/app.html' } } }), undefined);
  assert.equal(toolAppUri({ _meta: { ui: { resourceUri: 'ui://' } } }), undefined);
  assert.equal(toolAppUri({ _meta: { ui: 'ui://a' } }), undefined);
  assert.equal(toolAppUri({}), undefined);
});

test('visibility: app-only tools are not offered to the user; model-only tools may not be called by apps', () => {
  const appOnly = { _meta: { ui: { visibility: ['app'] } } };
  const modelOnly = { _meta: { ui: { visibility: ['model'] } } };
  assert.equal(offeredToUser(appOnly), false);
  assert.equal(callableByApp(appOnly), true);
  assert.equal(offeredToUser(modelOnly), true);
  assert.equal(callableByApp(modelOnly), false);
  assert.equal(offeredToUser({}), true);
  assert.equal(callableByApp({}), true);
  assert.equal(callableByApp({ _meta: { ui: { visibility: [] } } }), false);
});

test('a declared CSP keeps only origins: keywords, wildcards and directive smuggling are dropped', () => {
  assert.equal(cspSource('https://api.example.com'), 'https://api.example.com');
  assert.equal(cspSource('wss://RT.example.com:8443/'), 'wss://rt.example.com:8443');
  assert.equal(cspSource('https://*.example.com'), 'https://*.example.com');
  for (const bad of ["'unsafe-eval'", '*', 'https:', 'https://a.com; script-src *', 'javascript://x', 'https://a.com/path', 'data:']) {
    assert.equal(cspSource(bad), undefined, bad);
  }
  const { csp, dropped } = readAppCsp({ connectDomains: ['https://api.example.com', '*'], resourceDomains: ['https://cdn.example.com'] });
  assert.deepEqual(csp.connectDomains, ['https://api.example.com']);
  assert.deepEqual(dropped, ['connectDomains: *']);
  const header = appCspHeader(csp);
  assert.match(header, /^default-src 'none'; /);
  assert.match(header, /connect-src 'self' https:\/\/api\.example\.com;/);
  assert.match(header, /script-src 'self' 'unsafe-inline' data: blob: https:\/\/cdn\.example\.com; worker-src 'self' data: blob:;/);
  assert.match(header, /frame-src 'none'/);
  assert.doesNotMatch(header, /unsafe-eval/);
  assert.equal(appCspHeader(readAppCsp(undefined).csp).includes("connect-src 'self';"), true);
});

for (const [example, tool, uri] of [
  ['basic-vanillajs', 'get-time', 'ui://get-time/mcp-app.html'],
  ['budget-allocator', 'get-budget-data', 'ui://budget-allocator/mcp-app.html'],
] as const) {
  describe(`npm example server-${example}`, () => {
    let conn: ServerConnection;
    before(async () => {
      conn = new ServerConnection(npmExample(example), { log: quiet(), capabilities: { apps: true } });
      await conn.start();
    });
    after(() => conn.stop());

    test(`${tool} is an app tool and its resource reads as an app`, async () => {
      const t = conn.tools.find((x) => x.name === tool);
      assert.ok(t, `tools: ${conn.tools.map((x) => x.name).join(', ')}`);
      assert.equal(toolAppUri(t), uri);
      assert.equal(offeredToUser(t), true);
      const app = await readAppResource(conn, uri);
      assert.equal(app.uri, uri);
      assert.match(app.html, /<html/i);
      assert.ok(app.html.length > 1000);
      assert.deepEqual(app.warnings, []);
    });
  });
}

describe('the apps fixture', () => {
  let withApps: ServerConnection;
  let without: ServerConnection;
  before(async () => {
    withApps = new ServerConnection(stdioFixture('apps-server.ts'), { log: quiet(), capabilities: { apps: true } });
    without = new ServerConnection(stdioFixture('apps-server.ts'), { log: quiet() });
    await Promise.all([withApps.start(), without.start()]);
  });
  after(() => Promise.all([withApps.stop(), without.stop()]));

  test('the host declares the io.modelcontextprotocol/ui extension: a server that offers apps only to capable hosts offers them', () => {
    assert.ok(withApps.tools.some((t) => t.name === 'only_for_app_hosts'));
    assert.ok(!without.tools.some((t) => t.name === 'only_for_app_hosts'));
  });

  test('the older flat key marks a tool too; app-only tools are hidden from the user', () => {
    const byName = (n: string) => withApps.tools.find((t) => t.name === n)!;
    assert.equal(toolAppUri(byName('legacy_key')), 'ui://silent/app.html');
    assert.deepEqual(
      withApps.tools
        .filter(offeredToUser)
        .map((t) => t.name)
        .includes('report'),
      false,
    );
    assert.equal(callableByApp(byName('model_only')), false);
  });

  test("the resource's asked permissions are reported (never granted), and an 8 MB app is refused with its size and the limit", async () => {
    const silent = await readAppResource(withApps, 'ui://silent/app.html');
    assert.deepEqual(silent.permissionsAsked, ['camera']);
    await assert.rejects(readAppResource(withApps, 'ui://big/app.html', { timeoutMs: 60_000 }), (e: Error) => {
      assert.match(e.message, /ui:\/\/big\/app\.html is 8(\.\d+)? MiB; the limit is 5 MiB/);
      return true;
    });
    assert.equal(APP_RESOURCE_MAX_BYTES, 5 * 1024 * 1024);
  });

  test('a 20 MB app over stdio is refused, naming the limit that cut it off', async () => {
    const own = new ServerConnection(stdioFixture('apps-server.ts'), { log: quiet(), capabilities: { apps: true } });
    await own.start();
    try {
      // The transport's message limit or the app resource limit, whichever is lower, refuses it by name.
      await assert.rejects(
        readAppResource(own, 'ui://huge/app.html', { timeoutMs: 60_000 }),
        /ui:\/\/huge\/app\.html is 20 MiB; the limit is 5 MiB|over \d+ MiB/,
      );
    } finally {
      await own.stop();
    }
  });

  test('the cache reads once per server and URI, shares a read in flight, forgets failures and invalidated servers', async () => {
    const cache = new AppResourceCache();
    let reads = 0;
    const read = () => {
      reads++;
      return readAppResource(withApps, 'ui://silent/app.html');
    };
    const [a, b] = await Promise.all([cache.get('s', 'ui://silent/app.html', read), cache.get('s', 'ui://silent/app.html', read)]);
    assert.equal(a, b);
    assert.equal(reads, 1);
    await cache.get('other', 'ui://silent/app.html', read);
    assert.equal(reads, 2);
    cache.invalidate('s');
    assert.equal(cache.has('s', 'ui://silent/app.html'), false);
    assert.equal(cache.has('other', 'ui://silent/app.html'), true);
    await assert.rejects(cache.get('s', 'ui://missing', () => readAppResource(withApps, 'ui://missing')));
    assert.equal(cache.has('s', 'ui://missing'), false);
  });
});
