// `npm run pack:cli`: the `mcp-host` command as its own npm package, from cli/package.json (a bin, no
// dependencies, Node 20+) and a production build of the CLI bundle, packed in a staging folder so the
// tarball holds only dist/cli.js, the sandbox service (dist/sandbox.js, the seccomp helper it runs and the JVM proxy agent,
// dist/vendor), the package's README, package.json and LICENSE.
//   npm run pack:cli [-- --out-dir <dir>]     (default: mcp-host-<version>.tgz here)
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const staging = join(root, '.cache/cli-staging');

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** Builds and packs the CLI package; returns the tarball's path. */
export function packCli(outDir = root) {
  const extension = readJson(join(root, 'package.json'));
  const cli = readJson(join(root, 'cli/package.json'));
  if (cli.version !== extension.version) {
    throw new Error(`cli/package.json is version ${cli.version} but package.json is ${extension.version}: give both the same version`);
  }
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  for (const f of ['package.json', 'README.md']) cpSync(join(root, 'cli', f), join(staging, f));
  cpSync(join(root, 'LICENSE'), join(staging, 'LICENSE'));
  const build = spawnSync(process.execPath, [join(root, 'scripts/build.mjs'), '--production', '--only', 'cli,sandbox', '--outdir', staging], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error(`building the CLI failed (exit ${build.status})`);
  const target = resolve(outDir);
  mkdirSync(target, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const pack = spawnSync(npm, ['pack', '--json', '--pack-destination', target], { cwd: staging, encoding: 'utf8' });
  if (pack.status !== 0) throw new Error(`npm pack failed (exit ${pack.status}):\n${pack.stderr}`);
  const [{ filename }] = JSON.parse(pack.stdout);
  return join(target, filename);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const outAt = process.argv.indexOf('--out-dir');
  try {
    console.log(packCli(outAt >= 0 ? process.argv[outAt + 1] : undefined));
  } catch (e) {
    console.error(e.message);
    process.exit(1);
  }
}
