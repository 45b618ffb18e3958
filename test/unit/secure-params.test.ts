// SEP-3221 secure parameters through the core: the extension declared in both eras, a tool whose secure and
// model schemas overlap refused, `params.secureArguments` sent (and re-sent on every input_required round, and
// on a task's call), `x-mcp-header` from them over HTTP, the values masked in the log and the result view, and a
// server's -32602 shown as the host's configuration problem.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ServerConnection, ServerRequestError } from '../../src/core/connection';
import { inputIdsUsedBy, parseMcpConfig, resolveServer, type ResolvedServer } from '../../src/core/config';
import { Logger } from '../../src/core/log';
import { callToolAsTask } from '../../src/core/tasks';
import { runTool } from '../../src/core/run';
import {
  modelArgumentsProblem,
  secureArgumentsFor,
  secureToolProblem,
  secureValueStrings,
  SECURE_PARAMS_EXTENSION_ID,
  typedSecureValue,
} from '../../src/core/secureParams';
import { secureValueProblems } from '../../src/core/secureParams/form';
import { encodeHeaderValue } from '../../src/core/secureParams/headers';
import { startHttpFixture, stdioFixture, type RunningHttpServer } from '../fixtures/servers';

const GOOD = { tenant: 'tenant-7f3a91', api_key: 'sk-fixture-good' };
const text = (r: { content?: unknown[] } | undefined) => (r?.content ?? []).map((b) => (b as { text?: string }).text ?? '').join('');

const dir = mkdtempSync(join(tmpdir(), 'mcp-host-secure-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function recorded(file: string): Array<Record<string, unknown>> {
  return existsSync(file)
    ? readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>)
    : [];
}

function connect(server: ResolvedServer, lines: string[]) {
  return new ServerConnection(server, {
    log: new Logger((_level, line) => lines.push(line), 'trace'),
    stopGraceMs: 1000,
    elicitation: async () => ({ action: 'accept', content: { ok: true } }),
  });
}

for (const era of ['2026-07-28'] as const) {
  describe(`secure parameters (${era}, stdio)`, () => {
    const record = join(dir, `stdio-${era}.jsonl`);
    const server = stdioFixture('secure-era2026-server.ts');
    server.env = { ...(server as { env: Record<string, string> }).env, SECURE_FIXTURE_RECORD: record } as never;
    const lines: string[] = [];
    const c = connect(server, lines);
    before(() => c.start());
    after(() => c.stop());

    test('a tool whose secure and model schemas share a name is not offered, and why is said', () => {
      assert.deepEqual(c.tools.map((t) => t.name).sort(), ['confirm', 'connect', 'plain', 'query', 'report']);
      const refused = c.refusedTools.find((t) => t.name === 'clash');
      assert.match(refused?.reason ?? '', /secureInputSchema and inputSchema both declare "instance"/);
    });

    test('the secure schema is kept on the tool (the SDK drops it) and the model schema holds none of it', () => {
      const tool = c.tools.find((t) => t.name === 'query') as unknown as { inputSchema: { properties: object }; secureInputSchema?: { properties: object } };
      assert.deepEqual(Object.keys(tool.secureInputSchema?.properties ?? {}), ['tenant', 'api_key', 'region']);
      assert.deepEqual(Object.keys(tool.inputSchema.properties), ['sql']);
    });

    test('sent as params.secureArguments with the extension declared; the echo is masked in the view and the log', async () => {
      const tool = c.tools.find((t) => t.name === 'query')!;
      const { result, view } = await runTool(
        c,
        { tool, input: { json: { sql: 'select 1' } }, secureArguments: GOOD },
        { elicitation: undefined as never, encode: { workspaceRoots: [], serverIsLocalStdio: true } },
      );
      assert.match(text(result), /ran select 1 for tenant-7f3a91/, 'the server got the values');
      const last = recorded(record).at(-1)!;
      assert.deepEqual(last.secureArguments, GOOD);
      assert.deepEqual(last.arguments, { sql: 'select 1' });
      assert.ok((last.extensions as string[]).includes(SECURE_PARAMS_EXTENSION_ID));
      assert.doesNotMatch(JSON.stringify(view), /tenant-7f3a91|sk-fixture-good/, 'never echoed to the result view');
      assert.ok(
        lines.some((l) => /secureArguments/.test(l)),
        'the trace shows the message',
      );
      assert.doesNotMatch(lines.join('\n'), /tenant-7f3a91|sk-fixture-good/, 'never in the log');
    });

    test('re-sent on every input_required round', async () => {
      const before = recorded(record).length;
      const result = await c.callTool('confirm', {}, { secureArguments: GOOD });
      assert.match(text(result), /confirmed twice/);
      const rounds = recorded(record).slice(before);
      assert.equal(rounds.length, 3, JSON.stringify(rounds));
      for (const round of rounds) assert.deepEqual(round.secureArguments, GOOD);
      assert.deepEqual(
        rounds.map((r) => r.inputResponses),
        [[], ['first'], ['second']],
        'each retry answered the round before',
      );
    });

    test('a task call carries them too', async () => {
      const out = await callToolAsTask(c, 'report', { topic: 'tides' }, { secureArguments: GOOD });
      assert.ok(out.task?.taskId);
      assert.match(text(out.result), /report on tides done/);
      assert.deepEqual(recorded(record).at(-1)!.secureArguments, GOOD);
    });

    test('values of other types are sent as their schema types, from text too (a variable, env:, SecretStorage); a secret number is masked', async () => {
      const before = recorded(record).length;
      const result = await c.callTool('connect', {}, { secureArguments: { port: '8443', pin: '730519', verbose: 'true', ratio: ' 0.25 ' } });
      assert.match(text(result), /connected on port 8443, verbose/);
      const last = recorded(record).at(-1)!;
      assert.equal(recorded(record).length, before + 1);
      assert.deepEqual(last.secureArguments, { port: 8443, pin: 730519, verbose: true, ratio: 0.25 });
      assert.doesNotMatch(lines.join('\n'), /730519/, 'the secret PIN is in no log line');
      assert.ok(
        lines.some((l) => /"port":8443/.test(l)),
        'a port is no secret: the trace shows it',
      );
      // Text that does not spell a value of the type is sent as it is, for the server to refuse (and name).
      await assert.rejects(
        c.callTool('connect', {}, { secureArguments: { port: 'eighty', pin: 1 } }),
        (e: Error) => e instanceof ServerRequestError && /"port" must be an integer, not a string/.test(e.message) && /host's configuration/.test(e.message),
      );
    });

    test("a -32602 about them is the host's configuration problem, not the tool's", async () => {
      await assert.rejects(
        c.callTool('query', { sql: 'x' }, { secureArguments: { ...GOOD, api_key: 'sk-wrong-key-123' } }),
        (e: Error) =>
          e instanceof ServerRequestError &&
          e.code === -32602 &&
          /refused the secure values the host sends for "query"/.test(e.message) &&
          /host's configuration/.test(e.message) &&
          /api_key is not valid/.test(e.message),
      );
      assert.doesNotMatch(lines.join('\n'), /sk-wrong-key-123/);
    });
  });
}

describe('secure parameters (2025-11-25, @modelcontextprotocol/sdk 1.x)', () => {
  const record = join(dir, 'stdio-2025.jsonl');
  const server = stdioFixture('secure-era2025-server.ts');
  (server as { env: Record<string, string> }).env.SECURE_FIXTURE_RECORD = record;
  const lines: string[] = [];
  const c = connect(server, lines);
  before(() => c.start());
  after(() => c.stop());

  test('declared at initialize; the clashing tool refused; secureArguments sent and masked', async () => {
    assert.equal(c.state.kind === 'running' && c.state.era, 'legacy');
    assert.deepEqual(
      c.tools.map((t) => t.name),
      ['query', 'report'],
    );
    assert.match(c.refusedTools.find((t) => t.name === 'clash')?.reason ?? '', /both declare "instance"/);
    const result = await c.callTool('query', { sql: 'select 3' }, { secureArguments: GOOD });
    assert.match(text(result), /ran select 3 for tenant-7f3a91/);
    const last = recorded(record).at(-1)!;
    assert.deepEqual(last.secureArguments, GOOD);
    assert.ok((last.extensions as string[]).includes(SECURE_PARAMS_EXTENSION_ID));
    assert.doesNotMatch(lines.join('\n'), /tenant-7f3a91|sk-fixture-good/);
  });

  test('a task call (2025-11-25 tasks) carries them too', async () => {
    const out = await callToolAsTask(c, 'report', { topic: 'tides' }, { secureArguments: GOOD });
    assert.ok(out.task?.taskId);
    assert.match(text(out.result), /report on tides done/);
    assert.deepEqual(recorded(record).at(-1)!.secureArguments, GOOD);
    assert.doesNotMatch(lines.join('\n'), /tenant-7f3a91|sk-fixture-good/);
  });
});

describe('secure parameters (2026-07-28, Streamable HTTP): x-mcp-header from secureArguments', () => {
  let http: RunningHttpServer;
  const record = join(dir, 'http.jsonl');
  const lines: string[] = [];
  let c: ServerConnection;
  before(async () => {
    process.env.SECURE_FIXTURE_RECORD = record;
    http = await startHttpFixture('secure-era2026-server.ts', '--http');
    delete process.env.SECURE_FIXTURE_RECORD;
    c = connect({ name: 'secure-http', transport: 'http', url: http.url, headers: {} }, lines);
    await c.start();
  });
  after(async () => {
    await c?.stop();
    await http?.stop();
  });

  test('Mcp-Param-Tenant carries the secure tenant', async () => {
    await c.callTool('query', { sql: 'select 2' }, { secureArguments: GOOD });
    const last = recorded(record).at(-1)!;
    assert.equal(last.tenantHeader, 'tenant-7f3a91');
    assert.deepEqual(last.secureArguments, GOOD);
  });
});

describe('secure parameter rules', () => {
  test('overlap, a root that is not an object, bad x-mcp-header', () => {
    assert.equal(secureToolProblem({ name: 't', inputSchema: { type: 'object' } }), undefined);
    assert.match(secureToolProblem({ name: 't', inputSchema: {}, secureInputSchema: { type: 'string' } })!, /not a JSON Schema object/);
    assert.match(
      secureToolProblem({
        name: 't',
        inputSchema: { properties: { a: { 'x-mcp-header': 'Region' } } },
        secureInputSchema: { type: 'object', properties: { b: { type: 'string', 'x-mcp-header': 'REGION' } } },
      })!,
      /declared more than once/,
    );
    assert.match(
      secureToolProblem({ name: 't', inputSchema: {}, secureInputSchema: { type: 'object', properties: { b: { type: 'number', 'x-mcp-header': 'B' } } } })!,
      /only string, integer and boolean/,
    );
    assert.match(
      secureToolProblem({ name: 't', inputSchema: {}, secureInputSchema: { type: 'object', properties: { b: { type: 'string', 'x-mcp-header': 'My B' } } } })!,
      /not an HTTP header token/,
    );
  });

  test('a model may not name a secure property; values are checked by the form engine', () => {
    const tool = {
      name: 't',
      inputSchema: { type: 'object' },
      secureInputSchema: { type: 'object', properties: { tenant: { type: 'string', minLength: 2 } }, required: ['tenant'] },
    };
    assert.match(modelArgumentsProblem(tool, { tenant: 'evil' })!, /"tenant" is a value the host sets/);
    assert.equal(modelArgumentsProblem(tool, { other: 1 }), undefined);
    assert.deepEqual(secureValueProblems(tool, { tenant: 'x' }).length, 1);
    assert.deepEqual(secureValueProblems(tool, { tenant: 'xy' }), []);
  });

  test('mcp.json: a server entry\'s "secureArguments", variables resolved, a secret input masked; a bad one named', async () => {
    const parsed = parseMcpConfig(
      JSON.stringify({
        servers: {
          db: { command: 'db-mcp', secureArguments: { project_id: 'retail-${env:STAGE}', session_token: '${input:db-token}', port: 5432 } },
          bad: { url: 'https://example.com/mcp', secureArguments: ['x'] },
        },
      }),
      'mcp.json',
    );
    assert.equal(parsed.errors.length, 1);
    assert.match(parsed.errors[0]!.message, /server "bad": "secureArguments" must be an object/);
    const db = parsed.servers.find((s) => s.name === 'db')!;
    assert.deepEqual(inputIdsUsedBy(db), ['db-token']);
    const resolved = await resolveServer(db, {
      env: { STAGE: 'prod' },
      resolveInput: async () => 'tok-3f9a',
      inputs: [{ id: 'db-token', type: 'promptString', password: true }],
    });
    assert.deepEqual(resolved.secureArguments, { project_id: 'retail-prod', session_token: 'tok-3f9a', port: 5432 });
    assert.deepEqual(resolved.secrets, ['tok-3f9a']);
  });

  test("a value given as text becomes its property's schema type when it spells one; otherwise it is kept", () => {
    const tool = {
      name: 't',
      inputSchema: { type: 'object' },
      secureInputSchema: {
        type: 'object',
        properties: {
          port: { type: 'integer' },
          ratio: { type: 'number' },
          on: { type: 'boolean' },
          name: { type: 'string' },
          either: { type: ['integer', 'string'] },
          maybe: { type: ['integer', 'null'] },
          tags: { type: 'array', items: { type: 'string' } },
          conn: { type: 'object' },
          level: { enum: [1, 2, 3] },
          pin: { type: 'integer', writeOnly: true },
        },
      },
    };
    assert.deepEqual(
      secureArgumentsFor(tool, {
        port: '8080',
        ratio: '2.5',
        on: 'false',
        name: '0042',
        either: '7',
        maybe: 'null',
        tags: '["a","b"]',
        conn: '{"host":"db"}',
        level: '2',
        pin: 31337,
        other: 'x',
      }),
      { port: 8080, ratio: 2.5, on: false, name: '0042', either: '7', maybe: null, tags: ['a', 'b'], conn: { host: 'db' }, level: 2, pin: 31337 },
    );
    assert.deepEqual(secureArgumentsFor(tool, { port: '80.5', on: 'yes', tags: '{"a":1}', level: '4', ratio: '' }), {
      port: '80.5',
      on: 'yes',
      tags: '{"a":1}',
      level: '4',
      ratio: '',
    });
    assert.equal(typedSecureValue({ type: 'integer' }, 12), 12);
    // Numbers are masked in logs only under a secret name; strings always.
    assert.deepEqual(secureValueStrings({ pin: 31337, port: 8080, on: true, name: 'acme' }, new Set(['pin', 'on'])).sort(), ['31337', 'acme']);
  });

  test('header values: SEP-2243 encoding', () => {
    assert.equal(encodeHeaderValue('us-west1'), 'us-west1');
    assert.equal(encodeHeaderValue(' us-west1'), '=?base64?IHVzLXdlc3Qx?=');
    assert.equal(encodeHeaderValue('日本語'), '=?base64?5pel5pys6Kqe?=');
  });
});
