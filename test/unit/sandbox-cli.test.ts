// `mcp-host --sandbox` with the real sandbox runtime and bubblewrap: a refused read is printed to stderr with the
// entry that allows it, the mcp.json keys sandbox a --server target, and where the sandbox cannot start the command
// exits 4 naming what is missing.
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../fixtures/cli';
import { fixtureArgv } from '../fixtures/servers';
import { tempDir } from '../helpers/tempDirs';

const dir = tempDir('mcp-sandbox-cli-');
const home = join(dir, 'home');
mkdirSync(join(home, '.ssh'), { recursive: true });
const idRsa = join(home, '.ssh', 'id_rsa');
writeFileSync(idRsa, 'PRIVATE KEY');
const server = [process.execPath, ...fixtureArgv('sandbox-server.ts')];
const env = { HOME: home, HTTP_PROXY: '', http_proxy: '' };

test('-- COMMAND --sandbox: the read is refused, and stderr names it with the entry that allows it', { timeout: 60_000 }, async () => {
  const run = await runCli(['call', 'read', '--args', JSON.stringify({ path: idRsa }), '--sandbox', '--', ...server], env, dir);
  assert.equal(run.code, 5, run.err);
  assert.doesNotMatch(run.out, /PRIVATE KEY/);
  assert.match(
    run.err,
    new RegExp(
      `sandbox refused: read ${idRsa} \\(as the server.s error output says\\); to allow it, add to the server's entry in mcp.json: sandbox\\.filesystem\\.allowRead: "${idRsa}"`,
    ),
  );
  const plain = await runCli(['call', 'read', '--args', JSON.stringify({ path: idRsa }), '--', ...server], env, dir);
  assert.equal(plain.code, 0, plain.err);
  assert.match(plain.out, /PRIVATE KEY/);
});

test('--server: "sandboxEnabled" in mcp.json sandboxes it, as --sandbox does an entry without it', { timeout: 60_000 }, async () => {
  const config = join(dir, 'mcp.json');
  const entry = (sandboxEnabled: boolean) => JSON.stringify({ servers: { s: { command: server[0], args: server.slice(1), cwd: dir, sandboxEnabled } } });
  writeFileSync(config, entry(true));
  const fromFile = await runCli(['call', 'read', '--args', JSON.stringify({ path: idRsa }), '--server', 's', '--config', config], env, dir);
  assert.equal(fromFile.code, 5, fromFile.err);
  assert.match(fromFile.err, /sandbox refused: read /);
  writeFileSync(config, entry(false));
  const flagged = await runCli(['call', 'read', '--args', JSON.stringify({ path: idRsa }), '--sandbox', '--server', 's', '--config', config], env, dir);
  assert.equal(flagged.code, 5, flagged.err);
  assert.match(flagged.err, /sandbox refused: read /);
});

test('where the sandbox cannot start, the command exits 4 naming what is missing, and the server does not run', async () => {
  const marker = join(dir, 'ran');
  const run = await runCli(
    ['tools', '--sandbox', '--', process.execPath, '-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, '')`],
    { ...env, PATH: '/nonexistent' },
    dir,
  );
  assert.equal(run.code, 4);
  assert.match(run.err, /is sandboxed and cannot start: the sandbox needs bwrap \(bubblewrap\) and socat \(socat\) and rg \(ripgrep\), not found on PATH/);
  assert.equal(existsSync(marker), false);
});

test('--sandbox with --url is a usage error', async () => {
  const run = await runCli(['tools', '--sandbox', '--url', 'http://127.0.0.1:1/mcp'], env, dir);
  assert.equal(run.code, 1);
  assert.match(run.err, /--sandbox runs a stdio server/);
});
