// The client side of MCP beyond tools: every list paginated to its end, server logging (notifications/message
// and the level sent back in each era), and roots (checked against server-everything's get-roots-list).
import { strict as assert } from 'node:assert';
import { describe, test } from 'node:test';
import type { ResolvedServer } from '../../src/core/config';
import {
  formatServerLog,
  hostLevelOf,
  LIST_MAX_PAGES,
  mcpLevelFor,
  ServerConnection,
  type ConnectionOptions,
  type ServerLogMessage,
} from '../../src/core/connection';
import { boundCompletion } from '../../src/shared/completion';
import { LatestCompletion } from '../../src/webview/latestCompletion';
import { samplingRequestProblem } from '../../src/core/sampling';
import { Logger, type LogLevel } from '../../src/core/log';
import { answerInTask, declaredCapabilities } from '../../src/core/connection/features';
import { everythingStdio, stdioFixture } from '../fixtures/servers';

function connection(server: ResolvedServer, options: Partial<ConnectionOptions> = {}, level: LogLevel = 'debug') {
  const lines: string[] = [];
  const c = new ServerConnection(server, { log: new Logger((l, m) => lines.push(`[${l}] ${m}`), level), stopGraceMs: 1000, ...options });
  return { c, lines };
}

function text(result: { content?: unknown[] }): string {
  return (result.content ?? []).map((b) => (b as { text?: string }).text ?? '').join('');
}

async function until(check: () => boolean, what: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('pagination', () => {
  test('every list follows nextCursor to the end: 1,000 tools over 10 pages, 250 prompts, resources and templates', async () => {
    const { c } = connection(stdioFixture('paged-server.ts'));
    await c.start();
    try {
      assert.equal(c.tools.length, 1000);
      assert.equal(new Set(c.tools.map((t) => t.name)).size, 1000, 'no page read twice');
      assert.equal(c.tools.at(-1)?.name, 'tool_0999');
      assert.equal(c.prompts.length, 250);
      assert.equal(c.resources.length, 250);
      assert.equal(c.resourceTemplates.length, 250);
      assert.equal(c.resourceTemplates.at(-1)?.uriTemplate, 'test://template/249/{id}');
    } finally {
      await c.stop();
    }
  });

  test('a server whose tools/list never stops paginating is stopped at the page limit, named in the log', async () => {
    const { c, lines } = connection(stdioFixture('paged-server.ts', ['--endless']));
    await c.start();
    try {
      assert.deepEqual(c.tools, [], 'no partial list is shown');
      const line = lines.find((l) => l.includes('tools/list failed'));
      assert.ok(line, lines.join('\n'));
      assert.match(line, new RegExp(`listMaxPages \\(${LIST_MAX_PAGES}\\)`));
    } finally {
      await c.stop();
    }
  });
});

describe('server logging', () => {
  test('levels map both ways; a message keeps its logger name and shows JSON data as JSON, cut when long', () => {
    assert.equal(hostLevelOf('notice'), 'info');
    assert.equal(hostLevelOf('warning'), 'warn');
    assert.equal(hostLevelOf('emergency'), 'error');
    assert.equal(mcpLevelFor('trace'), 'debug');
    assert.equal(mcpLevelFor('warn'), 'warning');
    assert.equal(formatServerLog({ level: 'info', logger: 'db', data: 'hello' }), '[server:db] hello');
    assert.equal(formatServerLog({ level: 'info', data: { a: 1 } }), '[server] {"a":1}');
    assert.match(formatServerLog({ level: 'info', data: 'x'.repeat(20_000) }), /… \(20000 characters\)$/);
  });

  test('2025-11-25: notifications/message reach the log at their level with the logger name; setLevel filters at the server', async () => {
    const { c, lines } = connection(stdioFixture('paged-server.ts'), { serverLogLevel: 'warning' });
    const seen: ServerLogMessage[] = [];
    c.onDidLog((m) => seen.push(m));
    await c.start();
    try {
      await c.callTool('log', {});
      await until(() => seen.length >= 5, 'five messages');
      assert.deepEqual(
        seen.map((m) => m.level),
        ['warning', 'error', 'critical', 'alert', 'emergency'],
        'the server honoured setLevel warning',
      );
      assert.ok(lines.includes('[warn] [server:fixture] a warning message'), lines.join('\n'));
      assert.ok(lines.includes('[error] [server:fixture] a critical message'));
      seen.length = 0;
      await c.setServerLogLevel('debug');
      await c.callTool('log', {});
      await until(() => seen.length >= 9, 'nine messages');
      assert.deepEqual(
        seen.slice(0, 3).map((m) => m.level),
        ['debug', 'info', 'notice'],
      );
      assert.equal(seen[0]!.logger, 'fixture');
      assert.ok(lines.includes('[debug] [server:fixture] a debug message'));
      assert.ok(lines.includes('[info] [server:fixture] a notice message'));
      assert.ok(lines.includes('[info] [server] {"structured":true,"count":2}'));
    } finally {
      await c.stop();
    }
  });

  test("2026-07-28: the level travels in each request's _meta (no logging/setLevel), and messages arrive", async () => {
    const { c, lines } = connection(stdioFixture('era2026-server.ts'), {}, 'trace');
    const seen: ServerLogMessage[] = [];
    c.onDidLog((m) => seen.push(m));
    await c.start();
    try {
      assert.equal(c.state.kind === 'running' && c.state.era, 'modern');
      await c.callTool('log', {});
      assert.equal(seen.length, 0, 'without a level the 2026 server sends nothing');
      await c.setServerLogLevel('warning');
      await c.callTool('log', {});
      await until(() => seen.length >= 1, 'a message');
      assert.deepEqual(
        seen.map((m) => `${m.level} ${m.logger}`),
        ['warning fixture', 'error fixture'],
      );
      assert.ok(!lines.some((l) => l.includes('logging/setLevel')), 'no setLevel request in the 2026 era');
      assert.ok(
        lines.some((l) => l.includes('"io.modelcontextprotocol/logLevel":"warning"')),
        'the level is in _meta',
      );
    } finally {
      await c.stop();
    }
  });
});

describe('roots (server-everything)', () => {
  test('get-roots-list returns the roots given; after roots/list_changed it returns the new ones', async () => {
    let roots = [{ uri: 'file:///work/one', name: 'one' }];
    const { c } = connection(everythingStdio(), { roots: () => roots });
    await c.start();
    try {
      await until(() => c.tools.some((t) => t.name === 'get-roots-list'), 'get-roots-list (registered after initialization)');
      // server-everything asks for the roots 350 ms after initialization; until then the tool says it has none.
      let answer = '';
      for (let i = 0; i < 50 && !answer.includes('file:///work/one'); i++) {
        if (i) await new Promise((r) => setTimeout(r, 100));
        answer = text(await c.callTool('get-roots-list', {}));
      }
      assert.match(answer, /file:\/\/\/work\/one/);
      roots = [
        { uri: 'file:///work/two', name: 'two' },
        { uri: 'file:///work/three', name: 'three' },
      ];
      await c.notifyRootsChanged();
      for (let i = 0; i < 40 && !answer.includes('file:///work/three'); i++) {
        await new Promise((r) => setTimeout(r, 100));
        answer = text(await c.callTool('get-roots-list', {}));
      }
      assert.match(answer, /file:\/\/\/work\/two/);
      assert.match(answer, /file:\/\/\/work\/three/);
      assert.doesNotMatch(answer, /file:\/\/\/work\/one/);
    } finally {
      await c.stop();
    }
  });
});

describe('completions', () => {
  test('boundCompletion keeps strings only, at most 100, and says how many were dropped', () => {
    const b = boundCompletion({ values: [...Array.from({ length: 150 }, (_, i) => `v${i}`), 5], total: 150 });
    assert.equal(b.values.length, 100);
    assert.equal(b.hasMore, true);
    assert.equal(b.total, 150);
    assert.match(b.cut!, /150 suggestions; the first 100/);
    assert.deepEqual(boundCompletion(null), { values: [], hasMore: false });
  });

  test('LatestCompletion: requests typed in quick succession reach the server once, and only the latest answer is used', async () => {
    const latest = new LatestCompletion<string>(50);
    const asked: string[] = [];
    const ask = (v: string) =>
      latest.request('field', async () => {
        asked.push(v);
        return v;
      });
    const [a, b, c] = await Promise.all([ask('a'), ask('ab'), ask('abc')]);
    assert.deepEqual([a, b, c], [undefined, undefined, 'abc']);
    assert.deepEqual(asked, ['abc']);
    // A slow answer overtaken by a newer request is dropped.
    let release!: () => void;
    const slow = latest.request(
      'field',
      () =>
        new Promise<string>((r) => {
          release = () => r('slow');
        }),
    );
    await new Promise((r) => setTimeout(r, 80));
    const fast = latest.request('field', async () => 'fast');
    release();
    assert.equal(await slow, undefined);
    assert.equal(await fast, 'fast');
  });

  test('a connection completes with the filled arguments as context (server-everything)', async () => {
    const { c } = connection(everythingStdio());
    await c.start();
    try {
      assert.equal(c.supportsCompletions, true);
      const answer = await c.complete({
        ref: { type: 'ref/prompt', name: 'completable-prompt' },
        argument: { name: 'name', value: 'G' },
        context: { department: 'Marketing' },
      });
      assert.deepEqual(answer.values, ['Grace']);
    } finally {
      await c.stop();
    }
  });
});

describe('resource subscriptions (server-everything)', () => {
  test('a subscribed resource reports updates while toggle-subscriber-updates runs; templates are listed', async () => {
    const { c, lines } = connection(everythingStdio());
    await c.start();
    const updates: string[] = [];
    c.onDidUpdateResource((uri) => updates.push(uri));
    try {
      assert.equal(c.supportsSubscriptions, true);
      assert.ok(c.resourceTemplates.some((t) => t.uriTemplate === 'demo://resource/dynamic/text/{resourceId}'));
      const uri = c.resources[0]!.uri;
      const subscription = await c.subscribeResource(uri);
      assert.ok(subscription);
      await until(() => c.tools.some((t) => t.name === 'toggle-subscriber-updates'), 'the tool');
      await c.callTool('toggle-subscriber-updates', {});
      try {
        await until(() => updates.includes(uri), 'an update of the subscribed resource');
        subscription.dispose();
        await until(() => lines.some((l) => l.includes(`unsubscribed from ${uri}`)), 'the unsubscription');
      } finally {
        await c.callTool('toggle-subscriber-updates', {});
      }
    } finally {
      await c.stop();
    }
  });
});

test('sampling requests the host cannot show are refused before anyone sees them, naming what is wrong', () => {
  const ok = { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 100 };
  assert.equal(samplingRequestProblem(ok), undefined);
  assert.match(samplingRequestProblem({ ...ok, messages: [{ role: 'user', content: { type: 'hologram' } }] })!, /message 1 has content of type "hologram"/);
  assert.match(samplingRequestProblem({ ...ok, maxTokens: 1e9 })!, /maxTokens 1000000000 is outside/);
  assert.match(samplingRequestProblem({ ...ok, systemPrompt: 'x'.repeat(10 * 1024 * 1024) })!, /host accepts at most 4194304/);
});

describe('the capability table (core/connection/features)', () => {
  const log = new Logger(() => undefined, 'error');
  const always = {
    'io.modelcontextprotocol/tasks': {},
    'io.modelcontextprotocol/skills': {},
    'io.modelcontextprotocol/secure-params': {},
  };

  test('with no feature turned on, only the extensions every connection speaks are declared', () => {
    assert.deepEqual(declaredCapabilities({ log }), { extensions: always });
  });

  test('each option declares its capability, extensions merged by id, binary elicitation with its default types', () => {
    const caps = declaredCapabilities({
      log,
      roots: () => [],
      elicitation: async () => ({ action: 'cancel' }),
      sampling: async () => {
        throw new Error('unused');
      },
      capabilities: { fileInputs: true, apps: true, binaryElicitation: { maxFileSize: 10 }, files: true, samplingTools: true, taskRequests: true },
    }) as Record<string, unknown>;
    assert.deepEqual(caps.roots, { listChanged: true });
    assert.deepEqual(caps.elicitation, { form: {}, url: {}, binary: { maxFileSize: 10, supportedMimeTypes: ['*/*'] } });
    assert.deepEqual(caps.sampling, { tools: {} });
    assert.deepEqual(caps.fileInputs, {});
    assert.ok(caps.files, 'SEP-2631 files');
    assert.ok(caps.tasks, '2025-11-25 tasks.requests');
    assert.deepEqual(Object.keys(caps.extensions as object).sort(), [...Object.keys(always), 'io.modelcontextprotocol/ui'].sort());
  });

  test('a request inside a task for something not declared is refused, an undeclared question cancelled', async () => {
    const host = {
      name: 'demo',
      server: stdioFixture('paged-server.ts'),
      log,
      options: { log },
      uploader: () => undefined,
      answering: <T>(work: () => Promise<T>) => work(),
      serverLogged: () => undefined,
      resourceUpdated: () => undefined,
      taskStatusChanged: () => undefined,
      elicitationCompleted: () => undefined,
    };
    const signal = new AbortController().signal;
    await assert.rejects(answerInTask(host, 'sampling/createMessage', {}, signal, undefined), /does not answer: sampling\/createMessage/);
    await assert.rejects(answerInTask(host, 'roots/list', {}, signal, undefined), /does not answer: roots\/list/);
    assert.deepEqual(await answerInTask(host, 'elicitation/create', { message: 'hi' }, signal, undefined), { action: 'cancel' });
    assert.deepEqual(await answerInTask({ ...host, options: { log, roots: () => [{ uri: 'file:///w' }] } }, 'roots/list', {}, signal, undefined), {
      roots: [{ uri: 'file:///w' }],
    });
  });
});
