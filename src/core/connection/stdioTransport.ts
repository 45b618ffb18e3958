import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { delimiter, extname, isAbsolute, join } from 'node:path';
import type { Readable } from 'node:stream';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import type { Logger } from '../log';
import type { ResolvedStdioServer } from '../config/types';
import { ServerStartError } from '../errors';
import { answerOrError } from './invalidAnswers';
import { MessageTooLargeError } from '../io/boundedFetch';
import { DEFAULT_MAX_MESSAGE_BYTES } from '../io/limits';
import { BoundedLines } from '../io/lineTail';
import { sandboxedLaunch } from '../sandbox/launch';
import { describeAllowEntry, describeRefusal, RefusalLog, type SandboxRefusal } from '../sandbox/refusals';

/** The default ceiling of one line from the server; a longer line is dropped and the transport closed. */
export const STDIO_MAX_MESSAGE_BYTES = DEFAULT_MAX_MESSAGE_BYTES;

export interface ExitInfo {
  code: number | null;
  signal: string | null;
}

/** The grace between the steps of a stop (stdin end, SIGTERM, SIGKILL) when the host is going away. */
export const SHUTDOWN_GRACE_MS = 1000;

/** Every stdio server process of this host that has not exited yet. */
const liveTransports = new Set<StdioProcessTransport>();

/**
 * Stops every stdio server of this process at once, each with `graceMs` between the steps (servers already
 * stopping are hurried); resolves once all have exited. For a process that is about to end.
 */
export async function stopAllStdioServers(graceMs = SHUTDOWN_GRACE_MS): Promise<void> {
  await Promise.all(
    [...liveTransports].map((t) => {
      t.hurry(graceMs);
      return t.close();
    }),
  );
}

/**
 * SIGKILLs the process group of every stdio server still alive, synchronously: the last resort of a process
 * that is exiting now (`process.on('exit')`), since the groups are detached and would outlive it.
 */
export function killRemainingStdioServers(): void {
  for (const t of liveTransports) t.killNow();
}

/** Finds `command` on PATH the way a shell would (with PATHEXT on Windows); undefined when it is not there. */
export function findExecutable(
  command: string,
  env: Record<string, string>,
  cwd: string | undefined,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  const isFile = (p: string) => {
    try {
      return statSync(p).isFile();
    } catch {
      return false;
    }
  };
  const exts = platform === 'win32' ? ['', ...(env.PATHEXT ?? env.Pathext ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean)] : [''];
  // Windows file names are case-insensitive; both spellings are tried so this also holds on other systems.
  const candidates = (base: string) => exts.flatMap((e) => (e === e.toLowerCase() ? [base + e] : [base + e, base + e.toLowerCase()]));
  if (isAbsolute(command) || command.includes('/') || (platform === 'win32' && command.includes('\\'))) {
    const base = isAbsolute(command) ? command : join(cwd ?? process.cwd(), command);
    return candidates(base).find(isFile);
  }
  const path = env.PATH ?? env.Path ?? '';
  for (const dir of path.split(platform === 'win32' ? ';' : delimiter)) {
    if (!dir) continue;
    const found = candidates(join(dir, command)).find(isFile);
    if (found) return found;
  }
  return undefined;
}

/** Characters cmd.exe treats specially outside quotes; each is escaped with a caret (the set cross-spawn uses). */
const CMD_META = /([()\][%!^"`<>&|;, *?])/g;

/** Escapes the path of a .cmd/.bat for cmd.exe with carets (as cross-spawn does; Node wraps the line in `/d /s /c "…"`). */
export function escapeCmdCommand(file: string): string {
  return file.replace(CMD_META, '^$1');
}

/**
 * Quotes one argument of a .cmd/.bat (which Node can spawn only through cmd.exe). First the argument is quoted
 * for the program's own parser (CommandLineToArgvW: backslashes before a quote doubled, quotes escaped,
 * trailing backslashes doubled, the whole in double quotes); then every cmd metacharacter of that string,
 * its quotes included, is caret-escaped so cmd never enters quote mode (carets inside quotes would reach the
 * program literally). Batch shims (npx.cmd) pass `%*` through cmd a second time, so the carets are doubled.
 */
export function quoteForCmd(arg: string): string {
  if (/^[\w\-./:@+\\]+$/.test(arg)) return arg; // nothing cmd, a batch file or argv parsing treats specially
  const quoted = `"${arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\+)$/, '$1$1')}"`;
  return quoted.replace(CMD_META, '^$1').replace(CMD_META, '^$1');
}

/**
 * How to spawn a command: on Windows a .cmd/.bat shim (npx.cmd, pnpm.cmd) must run through the shell with
 * quoted arguments (Node refuses to spawn it directly since CVE-2024-27980); everything else runs directly.
 */
export function spawnPlan(
  command: string,
  args: string[],
  env: Record<string, string>,
  cwd: string | undefined,
  platform: NodeJS.Platform = process.platform,
): { file: string; args: string[]; shell: boolean } {
  if (platform !== 'win32') return { file: command, args, shell: false };
  const resolved = findExecutable(command, env, cwd, platform) ?? command;
  if (/^\.(cmd|bat)$/i.test(extname(resolved))) {
    return { file: escapeCmdCommand(resolved), args: args.map(quoteForCmd), shell: true };
  }
  return { file: resolved, args, shell: false };
}

/** What the owner of a stdio transport hears besides messages. */
export interface StdioHooks {
  /** Each line the server writes to stderr, after it is logged. */
  onStderrLine?: (line: string) => void;
  /** A sandboxed server was refused something (each refusal once per run). */
  onRefusal?: (refusal: SandboxRefusal) => void;
}

/**
 * The stdio transport: spawns the server with the merged environment, reads newline-delimited JSON-RPC from
 * stdout (non-JSON lines are logged and skipped), sends stderr to the log, and stops gracefully
 * (end stdin, then SIGTERM, then SIGKILL to the whole process group).
 *
 * It exposes `pid` and `stderr`, which is how the SDK recognises a stdio transport (it then probes the era
 * in place rather than on a second process).
 */

export class StdioProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child?: ChildProcess;
  private buffer: Buffer[] = [];
  private bufferedBytes = 0;
  private closing = false;
  private draining?: Promise<void>;
  /** The server exited after the host had asked it to stop (so the exit is not the server's failure). */
  exitedOnRequest = false;
  private exited?: Promise<ExitInfo>;
  /** How the process ended; set once it has exited. */
  exit?: ExitInfo;
  /** Why the host closed the connection on its own, when it did (a message over the size limit). */
  closeReason?: string;

  /** Lowered while a wait is under way by `hurry`. */
  private shortenWait?: (ms: number) => void;

  constructor(
    private readonly server: ResolvedStdioServer,
    private readonly log: Logger,
    private graceMs = 5000,
    private readonly maxMessageBytes = STDIO_MAX_MESSAGE_BYTES,
    private readonly hooks: StdioHooks = {},
  ) {}

  get pid(): number | null {
    return this.child?.pid ?? null;
  }
  get stderr(): Readable | null {
    return this.child?.stderr ?? null;
  }

  async start(): Promise<void> {
    if (this.child) throw new Error('the stdio transport is already started');
    const { command, args, env, cwd } = this.server;
    if (cwd !== undefined && !existsSync(cwd)) {
      throw new ServerStartError(`working directory not found: ${cwd} — fix "cwd" in mcp.json`);
    }
    // On Windows a missing command would only show up as the shell's complaint, so it is looked up first.
    if (process.platform === 'win32' && !findExecutable(command, env, cwd)) {
      throw new ServerStartError(`command not found: ${command} — give the absolute path in mcp.json`);
    }
    const sandbox = this.server.sandbox;
    const refusals = sandbox ? new RefusalLog(sandbox) : undefined;
    const reportRefusal = (refusal: SandboxRefusal | undefined): void => {
      if (!refusal) return;
      this.log.warn(`[sandbox] refused: ${describeRefusal(refusal)}${refusal.allow ? ` (allow it with ${describeAllowEntry(refusal.allow)})` : ''}`);
      this.hooks.onRefusal?.(refusal);
    };
    const launch = sandbox
      ? await sandboxedLaunch({ ...this.server, sandbox }, (target) => reportRefusal(refusals?.network(target)))
      : { command, args, env, release: () => undefined };
    const plan = spawnPlan(launch.command, launch.args, launch.env, cwd);
    this.log.info(`starting ${[command, ...args].join(' ')}${cwd ? ` (in ${cwd})` : ''}${sandbox ? ', sandboxed' : ''}`);
    const child = spawn(plan.file, plan.args, {
      env: launch.env,
      cwd,
      shell: plan.shell,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
      detached: process.platform !== 'win32',
    });
    this.child = child;
    liveTransports.add(this);

    await new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (e: NodeJS.ErrnoException) => {
        launch.release();
        this.child = undefined;
        liveTransports.delete(this);
        reject(
          e.code === 'ENOENT'
            ? new ServerStartError(`command not found: ${command} — give the absolute path in mcp.json`)
            : e.code === 'EACCES'
              ? new ServerStartError(`command not executable: ${command} — check its permissions`)
              : new ServerStartError(`could not start ${command}: ${e.message}`),
        );
      });
    });

    child.on('error', (e) => this.onerror?.(e));
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        liveTransports.delete(this);
        this.exit = { code, signal };
        this.exitedOnRequest = this.closing;
        resolve(this.exit);
      });
    });
    child.stdout.on('data', (chunk: Buffer) => this.onData(chunk));
    child.stdin.on('error', (e) => this.log.debug(`stdin: ${e.message}`));
    const stderrLines = new BoundedLines((line) => {
      this.log.warn(`[server stderr] ${line}`);
      this.hooks.onStderrLine?.(line);
      if (refusals) reportRefusal(refusals.add(line));
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => stderrLines.push(text));
    child.once('close', () => {
      launch.release();
      stderrLines.end();
      this.child = undefined;
      this.onclose?.();
    });
  }

  private onData(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      const line = this.buffer.length ? Buffer.concat([...this.buffer, chunk.subarray(start, nl)]).toString('utf8') : chunk.toString('utf8', start, nl);
      this.buffer = [];
      this.bufferedBytes = 0;
      start = nl + 1;
      this.onLine(line);
    }
    if (start < chunk.length) {
      this.buffer.push(start === 0 ? chunk : chunk.subarray(start));
      this.bufferedBytes += chunk.length - start;
      if (this.bufferedBytes > this.maxMessageBytes) {
        this.buffer = [];
        this.bufferedBytes = 0;
        // Nothing more is read: the server's next write fails, and it is being stopped.
        this.child?.stdout?.destroy();
        this.closeReason = `${new MessageTooLargeError(this.maxMessageBytes, 'a message').message}; the connection was closed`;
        this.log.error(this.closeReason);
        void this.close();
      }
    }
  }

  private onLine(raw: string): void {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = JSON.parse(line) as JSONRPCMessage;
    } catch {
      this.log.warn(`[server stdout, not JSON-RPC] ${line.length > 200 ? `${line.slice(0, 200)}…` : line}`);
      return;
    }
    if (typeof message !== 'object' || message === null || (message as { jsonrpc?: unknown }).jsonrpc !== '2.0') {
      this.log.warn(`[server stdout, not JSON-RPC] ${line.slice(0, 200)}`);
      return;
    }
    this.onmessage?.(answerOrError(message, this.server.name));
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed || !stdin.writable) return Promise.reject(new Error('the server process is not running'));
    if (stdin.write(`${JSON.stringify(message)}\n`)) return Promise.resolve();
    return (this.draining ??= this.untilDrained(stdin));
  }

  /** One wait shared by every write made while stdin is full: it ends on `drain`, or fails when the pipe closes first. */
  private untilDrained(stdin: NonNullable<ChildProcess['stdin']>): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const done = (error?: Error) => {
        stdin.off('drain', onDrain);
        stdin.off('close', onClose);
        this.draining = undefined;
        if (error) reject(error);
        else resolve();
      };
      const onDrain = () => done();
      const onClose = () => done(new Error('the server process is not running'));
      stdin.on('drain', onDrain);
      stdin.on('close', onClose);
    });
  }

  /** Ends stdin, then SIGTERM after the grace period, then SIGKILL after another; resolves once the process exited. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child || this.closing) {
      await this.exited;
      return;
    }
    this.closing = true;
    const exited = this.exited!;
    // Logging may fail here (a closed output channel); the Logger swallows that, so the stop goes on.
    try {
      child.stdin?.end();
    } catch {
      /* already closed */
    }
    if (!(await this.waitForExit(exited))) {
      this.log.info(`server did not exit after stdin closed; sending SIGTERM`);
      this.kill(child, 'SIGTERM');
      if (!(await this.waitForExit(exited))) {
        this.log.warn(`server did not exit after SIGTERM; sending SIGKILL`);
        this.kill(child, 'SIGKILL');
        await exited;
      }
    }
    // The group may hold grandchildren that outlive the server (an npx wrapper's child).
    this.kill(child, 'SIGTERM');
  }

  /** Shortens the grace of this stop (and of one under way) to at most `graceMs`: the host is going away. */
  hurry(graceMs: number): void {
    this.graceMs = Math.min(this.graceMs, graceMs);
    this.shortenWait?.(this.graceMs);
  }

  /** SIGKILL to the process group, now (see killRemainingStdioServers). */
  killNow(): void {
    if (this.child) this.kill(this.child, 'SIGKILL');
  }

  /** true once the process exited, false after the grace (which `hurry` may shorten meanwhile). */
  private waitForExit(exited: Promise<ExitInfo>): Promise<boolean> {
    return new Promise((resolve) => {
      let end = Date.now() + this.graceMs;
      let timer = setTimeout(() => resolve(false), this.graceMs);
      this.shortenWait = (ms) => {
        if (Date.now() + ms >= end) return;
        clearTimeout(timer);
        end = Date.now() + ms;
        timer = setTimeout(() => resolve(false), ms);
      };
      void exited.then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    }).finally(() => {
      this.shortenWait = undefined;
    }) as Promise<boolean>;
  }

  /** Signals the server's whole process tree (an `npx` wrapper and the server it started). */
  private kill(child: ChildProcess, signal: NodeJS.Signals): void {
    if (!child.pid) return;
    try {
      if (process.platform !== 'win32') process.kill(-child.pid, signal);
      else if (signal === 'SIGKILL') spawn('taskkill', ['/pid', String(child.pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
      else child.kill(signal);
    } catch {
      /* already gone */
    }
  }
}
