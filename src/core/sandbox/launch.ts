// How a sandboxed stdio server is started: the sandbox service (./service.ts) answers the command line that runs
// it in its sandbox, and the host runs that command; never the server without it. One service per network policy
// (and the PATH, HOME and proxy settings it runs with) serves every server of the host that has that policy, so the
// runtime, its proxy and the check of what the sandbox needs are paid once, not at each start. Where the sandbox
// cannot run (Windows, a missing bubblewrap, socat or ripgrep) the start fails with what is missing.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ServerStartError } from '../errors';
import { findExecutable } from '../connection/stdioTransport';
import type { ResolvedStdioServer } from '../config/types';
import type { SandboxPolicy } from './policy';
import { SERVICE_MAX_LINE_CHARS, type ServiceMessage, type ServiceRequest } from './protocol';

/** What each platform needs on PATH, and the package that has it (as the prerequisites step installs them). */
const NEEDS: Partial<Record<NodeJS.Platform, Array<[string, string]>>> = {
  linux: [
    ['bwrap', 'bubblewrap'],
    ['socat', 'socat'],
    ['rg', 'ripgrep'],
  ],
  darwin: [
    ['sandbox-exec', 'sandbox-exec (part of macOS)'],
    ['rg', 'ripgrep'],
  ],
};

/** How long the service may take to start and answer one wrap. */
export const SANDBOX_WRAP_TIMEOUT_MS = 30_000;
/** A service with no server to serve for this long exits (a later start starts a new one). */
export const SANDBOX_SERVICE_IDLE_MS = 60_000;
/** The most of the service's stderr kept to explain its failure. */
const STDERR_KEPT_CHARS = 4096;

/** Why the sandbox cannot run here (naming what is missing), or undefined when it can. */
export function sandboxUnavailableReason(env: Record<string, string | undefined>, platform: NodeJS.Platform = process.platform): string | undefined {
  const needs = NEEDS[platform];
  if (!needs) return `the sandbox runs on Linux and macOS only, not on ${platform === 'win32' ? 'Windows' : platform}`;
  const pathEnv: Record<string, string> = { PATH: env.PATH ?? '' };
  const missing = needs.filter(([exe]) => !findExecutable(exe, pathEnv, undefined, platform)).map(([exe, pkg]) => `${exe} (${pkg})`);
  return missing.length ? `the sandbox needs ${missing.join(' and ')}, not found on PATH` : undefined;
}

/** The sandbox service: the bundle's dist/sandbox.js, or the source run through tsx (tests, benchmarks). */
function serviceArgs(): string[] {
  if (__filename.endsWith('.js')) {
    const bundled = join(__dirname, 'sandbox.js');
    if (!existsSync(bundled)) throw new ServerStartError(`the sandbox service is missing (${bundled})`);
    return [bundled];
  }
  const loader = 'tsx'; // a name esbuild leaves alone: the bundle never takes this path
  return ['--import', pathToFileURL(require.resolve(loader)).href, join(__dirname, 'service.ts')];
}

interface Waiting {
  resolve(shell: string): void;
  reject(e: Error): void;
  timer: NodeJS.Timeout;
}

/** One running service: its requests waiting for an answer, and who is told of each server's refusals. */
class SandboxService {
  private readonly waiting = new Map<number, Waiting>();
  private readonly reporters = new Map<number, (target: string) => void>();
  private stderr = '';
  private pending = '';
  private idleTimer?: NodeJS.Timeout;
  private ended?: string;

  constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly onEnd: () => void,
  ) {
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text: string) => this.read(text));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
      this.stderr = (this.stderr + text).slice(-STDERR_KEPT_CHARS);
    });
    child.stdin.on('error', () => undefined);
    child.once('error', (e) => this.end(e.message));
    child.once('exit', (code, signal) =>
      this.end(`the sandbox service exited (${signal ?? `code ${code}`})${this.stderr.trim() ? `: ${this.stderr.trim()}` : ''}`),
    );
    // The service never keeps the host running: it ends when the host's end closes its stdin.
    child.unref();
    for (const stream of [child.stdin, child.stdout, child.stderr]) (stream as unknown as { unref?: () => void }).unref?.();
  }

  wrap(request: Extract<ServiceRequest, { op: 'wrap' }>, onRefused: (target: string) => void): Promise<string> {
    if (this.ended) return Promise.reject(new Error(this.ended));
    clearTimeout(this.idleTimer);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(request.id);
        reject(new Error(`the sandbox did not answer within ${SANDBOX_WRAP_TIMEOUT_MS / 1000} s`));
      }, SANDBOX_WRAP_TIMEOUT_MS);
      this.waiting.set(request.id, { resolve, reject, timer });
      this.reporters.set(request.id, onRefused);
      this.send(request);
    });
  }

  release(id: number): void {
    if (!this.reporters.delete(id)) return;
    this.send({ op: 'release', id });
    if (this.reporters.size === 0 && !this.ended) {
      // Taken out of use before its stdin closes: a start meanwhile gets a new service, not this ending one.
      this.idleTimer = setTimeout(() => this.end('the sandbox service was idle'), SANDBOX_SERVICE_IDLE_MS);
      this.idleTimer.unref();
    }
  }

  private send(request: ServiceRequest): void {
    if (!this.ended) this.child.stdin.write(`${JSON.stringify(request)}\n`);
  }

  private read(text: string): void {
    const lines = (this.pending + text).split('\n');
    this.pending = lines.pop() ?? '';
    if (this.pending.length > SERVICE_MAX_LINE_CHARS) this.pending = '';
    for (const line of lines) {
      let m: ServiceMessage;
      try {
        m = JSON.parse(line) as ServiceMessage;
      } catch {
        continue;
      }
      if ('failed' in m) {
        this.end(`the sandbox could not start: ${m.failed}`);
        continue;
      }
      if ('refused' in m) {
        this.reporters.get(m.id)?.(m.refused);
        continue;
      }
      const w = this.waiting.get(m.id);
      if (!w) continue;
      this.waiting.delete(m.id);
      clearTimeout(w.timer);
      if ('shell' in m) w.resolve(m.shell);
      else {
        this.reporters.delete(m.id);
        w.reject(new Error(m.error));
      }
    }
  }

  private end(why: string): void {
    if (this.ended) return;
    this.ended = why;
    clearTimeout(this.idleTimer);
    for (const w of this.waiting.values()) {
      clearTimeout(w.timer);
      w.reject(new Error(why));
    }
    this.waiting.clear();
    this.onEnd();
    if (this.child.exitCode === null) this.child.stdin.end();
  }
}

const services = new Map<string, SandboxService>();
let nextWrap = 1;

/** What a service's runtime reads of its environment: the programs it runs, the home it expands, the proxy it goes through. */
function serviceKey(network: SandboxPolicy['network'], env: Record<string, string>): string {
  const read = Object.entries(env)
    .filter(([k]) => k === 'PATH' || k === 'HOME' || k === 'TMPDIR' || /proxy/i.test(k))
    .sort();
  return JSON.stringify([network, read]);
}

function serviceFor(network: SandboxPolicy['network'], env: Record<string, string>): SandboxService {
  const key = serviceKey(network, env);
  const running = services.get(key);
  if (running) return running;
  const electron = process.versions.electron !== undefined && env.ELECTRON_RUN_AS_NODE === undefined;
  const child = spawn(process.execPath, [...serviceArgs(), JSON.stringify(network)], {
    env: electron ? { ...env, ELECTRON_RUN_AS_NODE: '1', MCP_HOST_SANDBOX_UNSET_ELECTRON: '1' } : env,
    stdio: ['pipe', 'pipe', 'pipe'],
    windowsHide: true,
  });
  const service = new SandboxService(child, () => {
    if (services.get(key) === service) services.delete(key);
  });
  services.set(key, service);
  return service;
}

/** How the host runs a sandboxed server, and what it calls once the server has exited. */
export interface SandboxedLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
  release(): void;
}

/**
 * The command line that runs `server` in its sandbox (its `sandbox` policy is set), or a ServerStartError naming
 * what is missing. The server keeps its own environment and working folder. `onRefused` is told each `host:port`
 * the sandbox's proxy refused the server, until release().
 */
export async function sandboxedLaunch(
  server: ResolvedStdioServer & { sandbox: NonNullable<ResolvedStdioServer['sandbox']> },
  onRefused: (target: string) => void,
): Promise<SandboxedLaunch> {
  const reason = sandboxUnavailableReason(server.env);
  if (reason) throw new ServerStartError(`server "${server.name}" is sandboxed and cannot start: ${reason}`);
  const service = serviceFor(server.sandbox.network, server.env);
  const id = nextWrap++;
  const shell = await service
    .wrap({ op: 'wrap', id, cwd: server.cwd ?? process.cwd(), filesystem: server.sandbox.filesystem, command: [server.command, ...server.args] }, onRefused)
    .catch((e: Error) => {
      throw new ServerStartError(`server "${server.name}" is sandboxed and cannot start: ${e.message}`);
    });
  return { command: '/bin/sh', args: ['-c', shell], env: server.env, release: () => service.release(id) };
}
