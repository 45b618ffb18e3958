// The CLI as users install it from npm: the tarball `npm run pack:cli` makes, installed with
// `npm install <tgz>` into an empty folder, run with `npx mcp-host` against the demo server.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import * as esbuild from 'esbuild';
import { repoRoot } from '../fixtures/servers';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
let work: string;
let tarball: string;
let project: string;
let demoServer: string;

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'mcp-host-cli-package-'));
  const { packCli } = await import('../../scripts/pack-cli.mjs');
  tarball = packCli(join(work, 'packed'));
  demoServer = join(work, 'demo-server.js');
  await esbuild.build({
    entryPoints: [join(repoRoot, 'examples/demo-server/server.ts')],
    outfile: demoServer,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    mainFields: ['module', 'main'],
    logLevel: 'warning',
  });
  project = join(work, 'empty');
  mkdirSync(project);
});

after(() => rmSync(work, { recursive: true, force: true }));

function inFolder(cwd: string, cmd: string, args: string[]) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: 120_000, env: { ...process.env, npm_config_update_notifier: 'false' } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
const inProject = (cmd: string, args: string[]) => inFolder(project, cmd, args);

test('the tarball holds only the CLI bundle, the sandbox launcher, its README, package.json and LICENSE; no dependencies, Node 20+', () => {
  const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
  assert.equal(tarball.endsWith(`mcp-host-${version}.tgz`), true, tarball);
  const listed = spawnSync('tar', ['tzf', tarball], { encoding: 'utf8' });
  assert.equal(listed.status, 0, listed.stderr);
  assert.deepEqual(listed.stdout.trim().split('\n').sort(), [
    'package/LICENSE',
    'package/README.md',
    'package/dist/cli.js',
    'package/dist/sandbox.js',
    'package/dist/vendor/java-proxy-agent/srt-proxy-agent.jar',
    'package/dist/vendor/seccomp/arm64/apply-seccomp',
    'package/dist/vendor/seccomp/x64/apply-seccomp',
    'package/package.json',
  ]);
  const manifest = JSON.parse(spawnSync('tar', ['xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }).stdout) as Record<string, unknown>;
  assert.equal(manifest.version, version);
  assert.deepEqual(manifest.bin, { 'mcp-host': 'dist/cli.js' });
  assert.deepEqual(manifest.engines, { node: '>=20' });
  for (const field of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies', 'scripts']) {
    assert.equal(manifest[field], undefined, `${field} in the CLI package`);
  }
});

test('npm install <tgz> into an empty folder, then npx mcp-host: --version, --help, tools and a file call against the demo server', () => {
  const installed = inProject(npm, ['install', '--no-audit', '--no-fund', '--offline', tarball]);
  assert.equal(installed.code, 0, installed.err);
  // nothing but the CLI itself is installed
  assert.deepEqual(
    readdirSync(join(project, 'node_modules')).filter((f) => !f.startsWith('.')),
    ['mcp-host'],
  );

  const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
  const v = inProject(npx, ['--no-install', 'mcp-host', '--version']);
  assert.equal(v.code, 0, v.err);
  assert.equal(v.out, `${version}\n`);
  const help = inProject(npx, ['--no-install', 'mcp-host', 'call', '--help']);
  assert.equal(help.code, 0, help.err);
  assert.match(help.out, /^exit codes:/m);

  const tools = inProject(npx, ['--no-install', 'mcp-host', 'tools', '--', process.execPath, demoServer]);
  assert.equal(tools.code, 0, tools.err);
  for (const tool of ['describe_file', 'compare_images', 'attach_note', 'export_report']) assert.match(tools.out, new RegExp(`^${tool}\\b`, 'm'));

  copyFileSync(join(repoRoot, 'examples/workspace/photo.png'), join(project, 'photo.png'));
  const call = inProject(npx, ['--no-install', 'mcp-host', 'call', 'describe_file', '--file', 'file=photo.png', '--', process.execPath, demoServer]);
  assert.equal(call.code, 0, call.err);
  assert.match(call.out, /Type: image\/png/);
  assert.match(call.out, /64 × 48 pixels/);

  // exit codes come through npx: a usage error is 1
  const usage = inProject(npx, ['--no-install', 'mcp-host', 'tools']);
  assert.equal(usage.code, 1);
  assert.match(usage.err, /give a TARGET/);
});

test('npx ./mcp-host-<version>.tgz runs the CLI straight from the tarball', () => {
  const folder = dirname(tarball);
  const tools = inFolder(folder, npx, ['--yes', `./${basename(tarball)}`, 'tools', '--', process.execPath, demoServer]);
  assert.equal(tools.code, 0, tools.err);
  assert.match(tools.out, /^describe_file\b/m);
});
