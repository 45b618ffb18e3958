// What `npm start`, `npm test`, `npm run bench` and `.ci/run` need before they can do anything, checked
// once, up front, and installed where it can be:
//   system   Debian packages: chromium (drives the workbench), libkrb5-dev, python3, make and g++
//            (code-server's native modules); bubblewrap, socat and ripgrep (sandboxed servers).
//            Installed with apt-get as root or with passwordless sudo;
//            otherwise one message names the exact command to run.
//   npm      the project's dependencies (`npm ci`), when node_modules lacks a package at its locked version.
//   tools    Node 24 and code-server into .cache/tools (scripts/vscode-tools.mjs), once.
// Only Node's built-in modules are imported here: this runs before the dependencies exist.
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const MIN_NODE_MAJOR = 20;

/** Each Debian package with the test that tells it is there. */
const SYSTEM_PACKAGES = [
  { name: 'chromium', present: () => (process.env.CHROMIUM_PATH ? existsSync(process.env.CHROMIUM_PATH) : onPath('chromium')), workbench: true },
  { name: 'libkrb5-dev', present: () => existsSync('/usr/include/gssapi/gssapi.h') || existsSync('/usr/include/krb5.h'), workbench: true },
  { name: 'python3', present: () => onPath('python3'), workbench: true },
  { name: 'make', present: () => onPath('make'), workbench: true },
  { name: 'g++', present: () => onPath('g++'), workbench: true },
  // What @anthropic-ai/sandbox-runtime runs sandboxed stdio servers with on Linux.
  { name: 'bubblewrap', present: () => onPath('bwrap'), workbench: false },
  { name: 'socat', present: () => onPath('socat'), workbench: false },
  { name: 'ripgrep', present: () => onPath('rg'), workbench: false },
];

function onPath(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

function fail(message) {
  console.error(`\n[prerequisites] ${message}\n`);
  process.exit(1);
}

function run(cmd, args, what) {
  console.log(`[prerequisites] ${what}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  return r.status === 0;
}

export function checkNode() {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < MIN_NODE_MAJOR) fail(`Node ${MIN_NODE_MAJOR} or newer is needed; this is Node ${process.versions.node}.`);
}

/** Installs the missing Debian packages, or stops with the command that would. */
export function ensureSystemPackages({ workbench = true } = {}) {
  const missing = SYSTEM_PACKAGES.filter((p) => (workbench || !p.workbench) && !p.present()).map((p) => p.name);
  if (missing.length === 0) return;
  const command = `apt-get update && apt-get install -y --no-install-recommends ${missing.join(' ')}`;
  if (!onPath('apt-get')) fail(`Missing system packages: ${missing.join(', ')}. Install them with your package manager.`);
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const sudo = isRoot ? [] : spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0 ? ['sudo'] : undefined;
  if (!sudo) fail(`Missing system packages: ${missing.join(', ')}. Run:\n\n  sudo sh -c '${command}'`);
  const as = (args) => (sudo.length ? ['sudo', ['-n', ...args]] : [args[0], args.slice(1)]);
  const ok =
    run(...as(['apt-get', 'update']), 'installing system packages') &&
    run(...as(['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', '--no-install-recommends', ...missing]), 'installing system packages');
  const still = SYSTEM_PACKAGES.filter((p) => missing.includes(p.name) && !p.present()).map((p) => p.name);
  if (!ok || still.length) fail(`Installing ${still.join(', ') || missing.join(', ')} failed. Run:\n\n  sudo sh -c '${command}'`);
}

/**
 * The packages of package-lock.json that are not installed at the locked version (optional ones for other
 * platforms excepted). Versions are compared, not dates: a checkout gives the lock a new date without
 * changing what it asks for.
 */
export function packagesOutOfDate(dir = root) {
  const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'));
  const wrong = [];
  for (const [path, entry] of Object.entries(lock.packages ?? {})) {
    if (!path.startsWith('node_modules/') || entry.link) continue;
    let installed;
    try {
      installed = JSON.parse(readFileSync(join(dir, path, 'package.json'), 'utf8')).version;
    } catch {
      /* missing */
    }
    if (installed === entry.version) continue;
    if (installed === undefined && entry.optional) continue;
    wrong.push(path.slice('node_modules/'.length));
  }
  return wrong;
}

/**
 * `npm ci` when node_modules is missing or does not hold what package-lock.json asks for. A node_modules that
 * is a symbolic link (shared between checkouts) is never emptied by `npm ci`: `npm install` adds what is missing.
 */
export function ensureNpmDependencies() {
  const lock = join(root, 'package-lock.json');
  const modules = join(root, 'node_modules');
  if (!existsSync(lock)) {
    if (!existsSync(modules) && !run('npm', ['install', '--no-audit', '--no-fund'], 'installing npm dependencies'))
      fail('npm install failed: see its output above.');
    return;
  }
  const wrong = existsSync(modules) ? packagesOutOfDate() : ['(all)'];
  if (wrong.length === 0) return;
  console.log(`[prerequisites] not installed at the locked version: ${wrong.slice(0, 5).join(', ')}${wrong.length > 5 ? ` and ${wrong.length - 5} more` : ''}`);
  const shared = existsSync(modules) && lstatSync(modules).isSymbolicLink();
  const args = shared ? ['install', '--no-audit', '--no-fund'] : ['ci', '--no-audit', '--no-fund'];
  if (!run('npm', args, 'installing npm dependencies')) fail(`npm ${args[0]} failed: see its output above.`);
}

/** Node 24 and code-server, once; a failure stops here with its message (no stage retries it). */
export async function ensureWorkbenchTools() {
  const { ensureTools } = await import('./vscode-tools.mjs');
  try {
    ensureTools();
  } catch (e) {
    fail(`Installing the VS Code test tools failed: ${e.message}`);
  }
  // Child processes (each e2e scenario, the integration runner) find the tools ready and never install.
  process.env.MCP_HOST_TOOLS_READY = '1';
}

/** Everything, for a command that needs the real workbench (`workbench: true`) or only Node. */
export async function ensurePrerequisites({ workbench = true } = {}) {
  checkNode();
  ensureSystemPackages({ workbench });
  ensureNpmDependencies();
  if (workbench) await ensureWorkbenchTools();
}

// `node scripts/prerequisites.mjs [--no-workbench] [--system-only]`
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const workbench = !process.argv.includes('--no-workbench');
  if (process.argv.includes('--system-only')) {
    checkNode();
    ensureSystemPackages({ workbench });
  } else {
    await ensurePrerequisites({ workbench });
  }
  console.log('[prerequisites] ready');
}
