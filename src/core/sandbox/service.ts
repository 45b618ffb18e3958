// The sandbox service (dist/sandbox.js): `node sandbox.js NETWORK_POLICY_JSON`, one per host and network policy,
// started on the first sandboxed server that needs it (./launch.ts). It starts the sandbox runtime's filtering proxy
// once, and for each server the host starts answers the command line that runs it in its sandbox (bubblewrap on
// Linux, sandbox-exec on macOS) under the server's filesystem policy; the host runs that command itself, with the
// server's own stdin, stdout, stderr and environment. Each connection the proxy refuses is reported for the server
// that made it (the proxy knows it by the random id in the proxy credentials of that server's sandbox), on this
// channel, which no server can write to. It exits when the host closes its stdin.
import { randomBytes } from 'node:crypto';
import { accessSync, chmodSync, constants, existsSync, mkdtempSync, rmSync } from 'node:fs';
import nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { SandboxPolicy } from './policy';
import { SANDBOX_FAILED_EXIT, SERVICE_MAX_LINE_CHARS, type ServiceMessage, type ServiceRequest } from './protocol';

/** A POSIX shell word: the runtime runs the wrapped command through `bash -c`. */
export function shellWord(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** The host and port of a violation line of the runtime's proxy (`… network-outbound host:port …`). */
export function deniedDestination(line: string): string | undefined {
  return /network[-\w]*\s+(\[[^\]]+\](?::\d+)?|[^\s()]+)/.exec(line)?.[1];
}

function send(message: ServiceMessage): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

async function main(argv: string[]): Promise<void> {
  // Node 22+ keeps the service's compiled code between starts.
  (nodeModule as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache?.(join(tmpdir(), 'mcp-host-sandbox-code-cache'));
  const network = JSON.parse(argv[0] ?? 'null') as SandboxPolicy['network'] | null;
  if (!network || !Array.isArray(network.allowedDomains) || !Array.isArray(network.deniedDomains)) {
    throw new Error('usage: sandbox NETWORK_POLICY_JSON ({"allowedDomains":[…],"deniedDomains":[…]})');
  }
  // Set only so the service itself runs as Node under Electron; the servers get their own environment.
  if (process.env.MCP_HOST_SANDBOX_UNSET_ELECTRON === '1') {
    delete process.env.ELECTRON_RUN_AS_NODE;
    delete process.env.MCP_HOST_SANDBOX_UNSET_ELECTRON;
  }
  ensureSeccompHelperRuns();
  const { SandboxManager } = await import('@anthropic-ai/sandbox-runtime');
  await SandboxManager.initialize({
    network: { allowedDomains: network.allowedDomains, deniedDomains: network.deniedDomains },
    // Each wrap gives the server's own lists.
    filesystem: { allowWrite: [], denyRead: [], denyWrite: [] },
  });

  /** The servers wrapped and not yet released: their proxy id and temporary folder, by wrap id. */
  const servers = new Map<number, { proxyId: string; temp: string }>();
  const byProxyId = new Map<string, number>();
  const release = (id: number) => {
    const s = servers.get(id);
    if (!s) return;
    servers.delete(id);
    byProxyId.delete(s.proxyId);
    rmSync(s.temp, { recursive: true, force: true });
    // (the mount points the runtime made for its wraps; none is needed once no server starts or runs)
    if (servers.size === 0) SandboxManager.cleanupAfterCommand();
  };
  process.on('exit', () => {
    for (const s of servers.values()) rmSync(s.temp, { recursive: true, force: true });
  });

  const store = SandboxManager.getSandboxViolationStore();
  let seen = store.getTotalCount();
  store.subscribe((violations) => {
    const fresh = store.getTotalCount() - seen;
    seen = store.getTotalCount();
    for (const v of violations.slice(-fresh)) {
      const destination = /network/.test(v.line) ? deniedDestination(v.line) : undefined;
      // The proxy credentials carry the id base64-encoded; a connection with any other id is no server's.
      const id = v.encodedCommand ? byProxyId.get(Buffer.from(v.encodedCommand, 'base64').toString('utf8')) : undefined;
      if (destination && id !== undefined) send({ id, refused: destination });
    }
  });

  const wrap = async (r: Extract<ServiceRequest, { op: 'wrap' }>): Promise<void> => {
    const temp = mkdtempSync(join(tmpdir(), 'mcp-host-sandbox-'));
    const proxyId = randomBytes(16).toString('base64url');
    try {
      // The runtime resolves the lists and looks for files to protect in the working folder, and gives the
      // server CLAUDE_CODE_TMPDIR as its TMPDIR: both are read as the wrap starts (wraps run one at a time).
      process.chdir(r.cwd);
      process.env.CLAUDE_CODE_TMPDIR = temp;
      const shell = await SandboxManager.wrapWithSandbox(
        r.command.map(shellWord).join(' '),
        undefined,
        { filesystem: { ...r.filesystem, allowWrite: [...r.filesystem.allowWrite, temp] } },
        undefined,
        { commandId: proxyId },
      );
      servers.set(r.id, { proxyId, temp });
      byProxyId.set(proxyId, r.id);
      send({ id: r.id, shell });
    } catch (e) {
      rmSync(temp, { recursive: true, force: true });
      send({ id: r.id, error: e instanceof Error ? e.message : String(e) });
    }
  };

  let queue = Promise.resolve();
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on('line', (line) => {
    if (line.length > SERVICE_MAX_LINE_CHARS) return;
    const r = JSON.parse(line) as ServiceRequest;
    if (r.op === 'release') queue = queue.then(() => release(r.id));
    else if (r.op === 'wrap') queue = queue.then(() => wrap(r));
  });
  // The host has gone: the proxy and its bridges go with the service (the runtime's own exit handler).
  lines.on('close', () => {
    void queue.then(() => process.exit(0));
  });
}

/** The bundle's seccomp helper (dist/vendor/seccomp/ARCH) may have lost its executable bit in a .vsix's zip. */
function ensureSeccompHelperRuns(): void {
  const helper = join(__dirname, 'vendor', 'seccomp', process.arch, 'apply-seccomp');
  if (!__filename.endsWith('.js') || !existsSync(helper)) return;
  try {
    accessSync(helper, constants.X_OK);
  } catch {
    try {
      chmodSync(helper, 0o755);
    } catch {
      /* the runtime then says it cannot use it */
    }
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((e: unknown) => {
    send({ failed: e instanceof Error ? e.message : String(e) });
    process.exit(SANDBOX_FAILED_EXIT);
  });
}
