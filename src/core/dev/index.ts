// Dev mode, for people writing a server: VS Code's `dev` block of a server entry (`dev.watch`, `dev.debug`), how a
// stdio server's command line changes to run under a debugger, and the debounced restart a watched change asks for.
import { basename } from 'node:path';
import type { DevDebugConfig, DevModeConfig, ResolvedStdioServer } from '../config/types';
import { ServerStartError } from '../errors';

/** At most this many `dev.watch` globs, each at most DEV_WATCH_MAX_CHARS long. */
export const DEV_WATCH_MAX_GLOBS = 50;
export const DEV_WATCH_MAX_CHARS = 500;
/** The debugger listens, and is reached, on loopback only. */
export const DEV_DEBUG_HOST = '127.0.0.1';
/** How long the debugger may take to attach, or to start listening (debugpy). */
export const DEV_ATTACH_TIMEOUT_MS = 30_000;
/** Changes closer together than this make one restart. */
export const DEV_RESTART_DEBOUNCE_MS = 300;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Validates a server entry's `dev` value; returns it normalised (`watch` always a list) or what is wrong with it. */
export function parseDevMode(server: string, raw: unknown, stdio: boolean): DevModeConfig | string {
  if (!isRecord(raw)) return `server "${server}": "dev" must be an object`;
  for (const key of Object.keys(raw)) {
    if (key !== 'watch' && key !== 'debug') return `server "${server}": unknown "dev" key "${key}" (expected watch, debug)`;
  }
  const dev: DevModeConfig = {};
  if (raw.watch !== undefined) {
    const globs = typeof raw.watch === 'string' ? [raw.watch] : raw.watch;
    if (!Array.isArray(globs) || !globs.every((g) => typeof g === 'string' && g.trim() !== '')) {
      return `server "${server}": "dev.watch" must be a glob or a list of globs (non-empty strings)`;
    }
    if (globs.length > DEV_WATCH_MAX_GLOBS) return `server "${server}": "dev.watch" has ${globs.length} globs; the limit is ${DEV_WATCH_MAX_GLOBS}`;
    const long = (globs as string[]).find((g) => g.length > DEV_WATCH_MAX_CHARS);
    if (long !== undefined) return `server "${server}": a "dev.watch" glob has ${long.length} characters; the limit is ${DEV_WATCH_MAX_CHARS}`;
    if ((globs as string[]).every((g) => g.startsWith('!'))) return `server "${server}": "dev.watch" excludes everything it names ("!" globs only)`;
    dev.watch = globs as string[];
  }
  if (raw.debug !== undefined) {
    if (!stdio) return `server "${server}": "dev.debug" applies to stdio servers only`;
    const debug = raw.debug;
    if (!isRecord(debug) || (debug.type !== 'node' && debug.type !== 'debugpy')) {
      return `server "${server}": "dev.debug" must be { "type": "node" } or { "type": "debugpy" }`;
    }
    for (const key of Object.keys(debug)) {
      if (key !== 'type' && !(debug.type === 'debugpy' && key === 'debugpyPath')) return `server "${server}": unknown "dev.debug" key "${key}"`;
    }
    if (debug.type === 'debugpy') {
      if (debug.debugpyPath !== undefined && (typeof debug.debugpyPath !== 'string' || debug.debugpyPath === '')) {
        return `server "${server}": "dev.debug.debugpyPath" must be a non-empty string`;
      }
      dev.debug = { type: 'debugpy', ...(debug.debugpyPath ? { debugpyPath: debug.debugpyPath } : {}) };
    } else {
      dev.debug = { type: 'node' };
    }
  }
  return dev;
}

/** A `dev.watch` list split into the globs to watch and the `!` globs that exclude. */
export function splitWatchGlobs(globs: readonly string[]): { includes: string[]; excludes: string[] } {
  return {
    includes: globs.filter((g) => !g.startsWith('!')),
    excludes: globs.filter((g) => g.startsWith('!')).map((g) => g.slice(1)),
  };
}

/* eslint-disable-next-line @typescript-eslint/no-require-imports -- core/libraries is its own bundle, loaded on first use */
const libraries = () => require('../libraries') as typeof import('../libraries');

/** Whether a changed file (its path relative to the workspace folder) is one `dev.watch` names: an include, no exclude. */
export function watchedBy(path: string, globs: readonly string[]): boolean {
  const { minimatch } = libraries();
  const relativePath = path.split('\\').join('/');
  const { includes, excludes } = splitWatchGlobs(globs);
  const matches = (g: string) => minimatch(relativePath, g, { dot: true });
  return includes.some(matches) && !excludes.some(matches);
}

/** `node`, `node22`, `/usr/bin/node`, `node.exe`. */
function isNodeCommand(command: string): boolean {
  return /^node[0-9]*(\.exe)?$/i.test(basename(command));
}

/** `python`, `python3`, `python3.12`, `python.exe`. */
function isPythonCommand(command: string): boolean {
  return /^python[0-9.]*(\.exe)?$/i.test(basename(command));
}

/**
 * The command line that runs `server` under the debugger of `debug`.
 * node: paused before its first line on an inspector port of the system's choosing (printed on stderr, see
 * inspectorPortIn) until the debugger attaches. debugpy: connects to the debugger listening on `debugpyPort`,
 * and waits for it.
 */
export function debugLaunch(server: ResolvedStdioServer, debug: DevDebugConfig, debugpyPort?: number): ResolvedStdioServer {
  if (debug.type === 'node') {
    if (!isNodeCommand(server.command)) {
      throw new ServerStartError(`"dev.debug" type "node" needs the server started with the node executable ("command": "node"), not "${server.command}"`);
    }
    return { ...server, args: [`--inspect-brk=${DEV_DEBUG_HOST}:0`, ...server.args] };
  }
  if (debugpyPort === undefined) throw new ServerStartError('"dev.debug" type "debugpy": no debugger port');
  const connect = ['--connect', `${DEV_DEBUG_HOST}:${debugpyPort}`, '--wait-for-client'];
  if (debug.debugpyPath) return { ...server, command: debug.debugpyPath, args: [...connect, ...server.args] };
  if (!isPythonCommand(server.command)) {
    throw new ServerStartError(
      `"dev.debug" type "debugpy" needs the server started with python ("command": "python3"), not "${server.command}", or "dev.debug.debugpyPath"`,
    );
  }
  return { ...server, args: ['-m', 'debugpy', ...connect, ...server.args] };
}

/**
 * What VS Code's debugger is started with (`vscode.debug.startDebugging`) for a server of `dev.debug`: node attaches
 * to the inspector `port` the server printed; debugpy (the Python Debugger) listens on `port`, and the server,
 * started by debugLaunch, connects to it.
 */
export function debugAttachConfiguration(server: string, type: DevDebugConfig['type'], port: number): Record<string, unknown> {
  const common = { name: `MCP: ${server}`, request: 'attach', internalConsoleOptions: 'neverOpen', suppressMultipleSessionWarning: true };
  return type === 'node'
    ? { ...common, type: 'node', address: DEV_DEBUG_HOST, port, continueOnAttach: true, timeout: DEV_ATTACH_TIMEOUT_MS }
    : { ...common, type: 'debugpy', listen: { host: DEV_DEBUG_HOST, port } };
}

/** The port of node's inspector from its stderr line `Debugger listening on ws://127.0.0.1:PORT/…`. */
export function inspectorPortIn(line: string): number | undefined {
  const m = /^Debugger listening on ws:\/\/(?:\[[^\]]*\]|[^/:]+):(\d{1,5})\//.exec(line.trim());
  const port = m ? Number(m[1]) : NaN;
  return port > 0 && port < 65536 ? port : undefined;
}

/** At most this many changed files are named in a restart's reason. */
const NAMED_CHANGES = 3;

/**
 * Restarts a server once per burst of changes: each change waits `delayMs` for the next; the last one starts the
 * restart. A change during a restart makes one more once it is done (never two at once).
 */
export class RestartScheduler {
  private timer?: NodeJS.Timeout;
  private readonly changed = new Set<string>();
  private running?: Promise<void>;
  private again = false;
  private disposed = false;

  constructor(
    private readonly restart: (changed: readonly string[]) => Promise<void>,
    private readonly delayMs = DEV_RESTART_DEBOUNCE_MS,
  ) {}

  /** A watched file changed. */
  changedFile(path: string): void {
    if (this.disposed) return;
    if (this.changed.size < NAMED_CHANGES) this.changed.add(path);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.fire(), this.delayMs);
  }

  /** Resolves when no restart is waiting or under way (tests). */
  async settled(): Promise<void> {
    while (this.timer || this.running) await (this.running ?? new Promise((r) => setTimeout(r, this.delayMs)));
  }

  private fire(): void {
    this.timer = undefined;
    if (this.running) {
      this.again = true;
      return;
    }
    const changed = [...this.changed];
    this.changed.clear();
    this.running = this.restart(changed)
      .catch(() => undefined)
      .finally(() => {
        this.running = undefined;
        if (this.again && !this.disposed) {
          this.again = false;
          this.fire();
        }
      });
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
