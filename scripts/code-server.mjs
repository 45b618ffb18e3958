// Starts code-server (a real VS Code, served to a browser) on 127.0.0.1 with a free port and fresh
// user-data and extensions dirs, in its own process group, and stops the whole group when asked,
// when this process exits, or on SIGINT/SIGTERM.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, createWriteStream } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumPath, ensureTools } from './vscode-tools.mjs';

// pid of each running code-server -> the temporary folder to remove once it is stopped (or null)
const running = new Map();

function killGroup(pid) {
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    // already gone
  }
}

let hooked = false;
function hookExit() {
  if (hooked) return;
  hooked = true;
  process.on('exit', () => {
    for (const [pid, home] of running) {
      killGroup(pid);
      if (home) rmSync(home, { recursive: true, force: true });
    }
  });
  const codes = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };
  for (const [signal, code] of Object.entries(codes)) process.on(signal, () => process.exit(code));
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const defaultSettings = {
  'telemetry.telemetryLevel': 'off',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'chat.disableAIFeatures': true,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'security.workspace.trust.enabled': false,
  'update.mode': 'none',
  'window.commandCenter': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
};

/**
 * For a workbench driven by tests (with the browsers of `openBrowser` and `openBrowserContext`, which ask for reduced
 * motion): motion costs CPU in a workbench drawn without a GPU, every frame of an animation rendered and composited
 * in software, and the tests look at states, not at transitions. Measured: the demo-palette window (an editor open,
 * a slow tool's progress) from 100 to 85 CPU-s, the servers window about the same, the e2e stage's windows 4 % less.
 */
export const motionlessSettings = {
  'workbench.reduceMotion': 'on',
  'editor.cursorBlinking': 'solid',
  'editor.smoothScrolling': false,
  'workbench.list.smoothScrolling': false,
};

/**
 * Installs a .vsix into an extensions dir with code-server's own CLI.
 */
export function installExtension(vsix, extensionsDir) {
  const { node24, codeServerEntry } = ensureTools();
  mkdirSync(extensionsDir, { recursive: true });
  const r = spawnSync(node24, [codeServerEntry, '--extensions-dir', extensionsDir, '--install-extension', vsix], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  if (r.status !== 0) throw new Error(`installing ${vsix} failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/**
 * @param {{ workspace?: string, settings?: object, extensionsDir?: string, logFile?: string, port?: number,
 *           env?: Record<string,string>, keepDirs?: boolean, workspaceTrust?: boolean }} options
 */
export async function startCodeServer(options = {}) {
  const { node24, codeServerEntry } = ensureTools();
  hookExit();
  const home = mkdtempSync(join(tmpdir(), 'mcp-host-cs-'));
  const userDataDir = join(home, 'user-data');
  const extensionsDir = options.extensionsDir ?? join(home, 'extensions');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  writeFileSync(join(userDataDir, 'User/settings.json'), JSON.stringify({ ...defaultSettings, ...options.settings }, null, 2));
  const port = options.port ?? (await freePort());
  const configFile = join(home, 'cs-config.yaml');
  writeFileSync(configFile, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const args = [
    codeServerEntry,
    '--config',
    configFile,
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    // Trust stays on only when a test needs Restricted Mode.
    ...(options.workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--disable-getting-started-override',
    '--reconnection-grace-time',
    '5',
    '--vscode-option',
    'enable-smoke-test-driver',
    '--user-data-dir',
    userDataDir,
    '--extensions-dir',
    extensionsDir,
  ];
  if (options.workspace) args.push(options.workspace);

  const logFile = options.logFile ?? join(home, 'code-server.log');
  const log = createWriteStream(logFile);
  const child = spawn(node24, args, {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '', ...options.env },
  });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  running.set(child.pid, options.keepDirs ? null : home);
  let exited = false;
  child.on('exit', () => {
    exited = true;
    running.delete(child.pid);
  });

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`code-server exited during startup; log: ${logFile}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      killGroup(child.pid);
      throw new Error(`code-server did not answer on ${url} within 60 s; log: ${logFile}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }

  return {
    url,
    port,
    pid: child.pid,
    home,
    userDataDir,
    extensionsDir,
    logFile,
    /** A workbench URL for a folder; `payload` entries go through the smoke-test driver. */
    workbenchUrl(folder, payload) {
      let u = `${url}/?folder=${encodeURIComponent(folder)}`;
      if (payload) u += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
      return u;
    },
    /** A path on this machine as the workbench's remote URI (for the smoke-test payload). */
    remoteUri(path) {
      return `vscode-remote://127.0.0.1:${port}${path}`;
    },
    async stop() {
      if (!exited) {
        killGroup(child.pid);
        await new Promise((resolve) => {
          const t = setTimeout(() => {
            try {
              process.kill(-child.pid, 'SIGKILL');
            } catch {
              // gone
            }
            resolve();
          }, 5000);
          child.once('exit', () => {
            clearTimeout(t);
            resolve();
          });
          if (exited) resolve();
        });
      }
      running.delete(child.pid);
      // A process of its group (an extension host, a server) can outlive it for a moment and still write to the pipes
      // it inherited: what comes after this is dropped, not written to the ended log.
      for (const out of [child.stdout, child.stderr]) {
        out.unpipe(log);
        out.destroy();
      }
      log.end();
      if (!options.keepDirs) rmSync(home, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}

const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // pages and webviews asking for prefers-reduced-motion get it (see `motionlessSettings`)
  '--force-prefers-reduced-motion',
];
const viewport = { width: 1400, height: 900 };
/**
 * code-server compresses every response on the fly with Brotli (about a second of its CPU for each load of the
 * 19 MB workbench script), which over loopback buys nothing: the browsers ask for the bytes as they are.
 */
const uncompressed = { 'Accept-Encoding': 'identity' };

/** Debian's Chromium through playwright-core, in a fresh profile that is removed on close. */
export async function openBrowser(options = {}) {
  const { chromium } = await import('playwright-core');
  const executablePath = chromiumPath();
  const profile = mkdtempSync(join(tmpdir(), 'mcp-host-browser-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    viewport,
    args: chromiumArgs,
    extraHTTPHeaders: uncompressed,
    ...options,
  });
  const close = context.close.bind(context);
  context.close = async () => {
    await close().catch(() => {});
    rmSync(profile, { recursive: true, force: true, maxRetries: 3 });
  };
  return context;
}

/**
 * A Chromium of its own in a fresh, in-memory profile, launched in a moment (no profile folder to make): the one
 * browser context it gives closes it. Measured on a busy machine, a browser per scenario loaded the workbench faster
 * than contexts of one Chromium shared by the scenarios running at once.
 */
export async function openBrowserContext() {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: chromiumArgs });
  const context = await browser.newContext({ viewport, extraHTTPHeaders: uncompressed }).catch(async (e) => {
    await browser.close();
    throw e;
  });
  const close = context.close.bind(context);
  context.close = async () => {
    await close().catch(() => {});
    await browser.close().catch(() => {});
  };
  return context;
}
