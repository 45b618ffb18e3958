// SEP-3221 secure values through `mcp-host`: --secure-args, --secure-arg NAME=SOURCE (env:, file:, a value),
// the server's "secureArguments" in mcp.json, what `tools` says, and every refusal naming the value and the rule.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runCli } from '../fixtures/cli';
import { fixtureArgv, repoRoot } from '../fixtures/servers';

const dir = mkdtempSync(join(tmpdir(), 'mcp-host-secure-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const record = join(dir, 'record.jsonl');
const SECURE = ['--', process.execPath, ...fixtureArgv('secure-era2026-server.ts')];
const cli = (argv: string[], env: NodeJS.ProcessEnv = {}) => runCli(argv, { SECURE_FIXTURE_RECORD: record, ...env }, repoRoot);
const last = () =>
  existsSync(record)
    ? readFileSync(record, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .at(-1)
    : undefined;
const keyFile = join(dir, 'api-key');
writeFileSync(keyFile, 'sk-fixture-good\n');

test('tools: secure parameters listed (secrets marked), the clashing tool refused with its reason', async () => {
  const r = await cli(['tools', ...SECURE]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /query.*\n\s+secure parameters \(set by the host, never by a model\): tenant, api_key \(secret\), region/);
  assert.doesNotMatch(r.out, /^clash/m);
  assert.match(r.err, /tool "clash" is not offered: its secureInputSchema and inputSchema both declare "instance"/);
});

test('call: --secure-arg from a value, env: and file:, over --secure-args; sent as secureArguments, masked in the output', async () => {
  const r = await cli(
    [
      'call',
      'query',
      '--args',
      '{"sql":"select 1"}',
      '--secure-args',
      '{"tenant":"from-json","region":"eu"}',
      '--secure-arg',
      'tenant=env:TENANT_VALUE',
      '--secure-arg',
      `api_key=file:${keyFile}`,
      '--verbose',
      ...SECURE,
    ],
    { TENANT_VALUE: 'tenant-from-env', MCP_HOST_LOG_LEVEL: 'trace' },
  );
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(last()?.secureArguments, { tenant: 'tenant-from-env', region: 'eu', api_key: 'sk-fixture-good' });
  assert.deepEqual(last()?.arguments, { sql: 'select 1' });
  assert.match(r.out, /ran select 1 for \*{8}/, 'the server echoed the tenant; the output masks it');
  assert.match(r.err, /secureArguments/, 'the trace shows the message');
  assert.doesNotMatch(r.out + r.err, /tenant-from-env|sk-fixture-good/);
});

test('call --json: the raw answer masks the echoed secure value too', async () => {
  const r = await cli([
    'call',
    'query',
    '--json',
    '--args',
    '{"sql":"select 9"}',
    '--secure-arg',
    'tenant=tenant-json-77aa',
    '--secure-arg',
    `api_key=file:${keyFile}`,
    ...SECURE,
  ]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /"text": "ran select 9 for \*{8}"/);
  assert.doesNotMatch(r.out, /tenant-json-77aa/);
});

test('call: the server\'s "secureArguments" in mcp.json (with ${env:…}), a task call carrying them', async () => {
  const config = join(dir, 'mcp.json');
  writeFileSync(
    config,
    JSON.stringify({
      servers: {
        secure: {
          command: process.execPath,
          args: fixtureArgv('secure-era2026-server.ts'),
          secureArguments: { tenant: 'tenant-from-config', api_key: '${env:SECURE_KEY}' },
        },
      },
    }),
  );
  const r = await cli(['call', 'report', '--args', '{"topic":"tides"}', '--config', config, '--server', 'secure'], { SECURE_KEY: 'sk-fixture-good' });
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /report on tides done/);
  assert.deepEqual(last()?.secureArguments, { tenant: 'tenant-from-config', api_key: 'sk-fixture-good' });
});

test('call: values of other types reach the server as their schema types: --secure-arg port=env:X, a secret PIN from file:, mcp.json variables', async () => {
  const pinFile = join(dir, 'pin');
  writeFileSync(pinFile, '730519\n');
  const r = await cli(
    ['call', 'connect', '--secure-arg', 'port=env:DB_PORT', '--secure-arg', `pin=file:${pinFile}`, '--secure-arg', 'verbose=true', '--verbose', ...SECURE],
    { DB_PORT: '8443', MCP_HOST_LOG_LEVEL: 'trace' },
  );
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /connected on port 8443, verbose/);
  assert.deepEqual(last()?.secureArguments, { port: 8443, pin: 730519, verbose: true });
  assert.doesNotMatch(r.out + r.err, /730519/, 'the secret PIN is in no output or log');

  const config = join(dir, 'typed.json');
  writeFileSync(
    config,
    JSON.stringify({
      servers: {
        secure: {
          command: process.execPath,
          args: fixtureArgv('secure-era2026-server.ts'),
          secureArguments: { port: '${env:DB_PORT}', pin: '${env:DB_PIN}', ratio: '${env:DB_RATIO}' },
        },
      },
    }),
  );
  const configured = await cli(['call', 'connect', '--config', config, '--server', 'secure'], { DB_PORT: '5432', DB_PIN: '1234', DB_RATIO: '0.5' });
  assert.equal(configured.code, 0, configured.err);
  assert.deepEqual(last()?.secureArguments, { port: 5432, pin: 1234, ratio: 0.5 });

  const wrong = await cli(['call', 'connect', '--secure-arg', 'port=env:DB_PORT', '--secure-arg', 'pin=env:DB_PIN', ...SECURE], {
    DB_PORT: 'http',
    DB_PIN: '1',
  });
  assert.equal(wrong.code, 1);
  assert.match(wrong.err, /the secure values for "connect" are refused: port: Must be a whole number/);
});

test('call: refusals name the value and the rule; nothing is sent', async () => {
  const before = readFileSync(record, 'utf8');
  const missing = await cli(['call', 'query', '--args', '{"sql":"x"}', '--secure-arg', 'tenant=acme', ...SECURE]);
  assert.equal(missing.code, 1);
  assert.match(missing.err, /tool "query" needs the secure value api_key: give them with --secure-arg NAME=SOURCE/);
  const literalSecret = await cli(['call', 'query', '--args', '{"sql":"x"}', '--secure-arg', 'tenant=acme', '--secure-arg', 'api_key=sk-typed-in', ...SECURE]);
  assert.equal(literalSecret.code, 1);
  assert.match(literalSecret.err, /--secure-arg api_key: a secret takes env:NAME or file:PATH/);
  const unknown = await cli(['call', 'query', '--args', '{"sql":"x"}', '--secure-arg', 'tennant=acme', ...SECURE]);
  assert.equal(unknown.code, 1);
  assert.match(unknown.err, /has no secure parameter "tennant" \(its secure parameters: tenant, api_key, region\)/);
  const invalid = await cli([
    'call',
    'query',
    '--args',
    '{"sql":"x"}',
    '--secure-args',
    '{"tenant":"a","region":"mars"}',
    '--secure-arg',
    `api_key=file:${keyFile}`,
    ...SECURE,
  ]);
  assert.equal(invalid.code, 1);
  assert.match(invalid.err, /the secure values for "query" are refused: tenant: .*2.*; region: /);
  const plain = await cli(['call', 'plain', '--secure-args', '{"tenant":"a"}', ...SECURE]);
  assert.equal(plain.code, 1);
  assert.match(plain.err, /declares no secure parameters/);
  const badOption = await cli(['call', 'query', '--secure-arg', 'novalue', ...SECURE]);
  assert.equal(badOption.code, 1);
  assert.match(badOption.err, /--secure-arg takes NAME=SOURCE/);
  assert.equal(readFileSync(record, 'utf8'), before, 'no call reached the server');
});

test("call: the server's -32602 about them is the host's configuration, exit 5", async () => {
  const r = await cli(['call', 'query', '--args', '{"sql":"x"}', '--secure-arg', 'tenant=acme', '--secure-arg', 'api_key=env:WRONG_KEY', ...SECURE], {
    WRONG_KEY: 'sk-wrong-key-456',
  });
  assert.equal(r.code, 5, r.err);
  assert.match(r.err, /refused the secure values the host sends for "query" .*host's configuration, not the tool's/);
  assert.doesNotMatch(r.err, /sk-wrong-key-456/);
});
