// The process a sandboxed server runs under (dist/sandbox.js): `node sandbox.js POLICY_JSON -- COMMAND [ARGS...]`.
// It starts the sandbox runtime's filtering proxy with the server's policy, runs the command wrapped in the
// sandbox (bubblewrap on Linux, sandbox-exec on macOS) with its own stdin, stdout and stderr, so the JSON-RPC
// traffic goes straight through, and writes each network refusal the proxy records to stderr as
// `[sandbox] refused network HOST:PORT`, where the host reads it (./refusals.ts). One launcher per server: each has
// its own policy, its own proxy, and dies with its server.
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, chmodSync, constants, existsSync, mkdtempSync, rmSync } from 'node:fs';
import nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SandboxPolicy } from './policy';
import { REFUSED_NETWORK_PREFIX, SANDBOX_FAILED_EXIT, SANDBOX_FAILED_PREFIX } from './protocol';

/** A POSIX shell word: the runtime runs the wrapped command through `bash -c`. */
function shellWord(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** The host and port of a violation line of the runtime's proxy (`… network-outbound host:port …`). */
export function deniedDestination(line: string): string | undefined {
  return /network[-\w]*\s+(\[[^\]]+\](?::\d+)?|[^\s()]+)/.exec(line)?.[1];
}

async function main(argv: string[]): Promise<void> {
  // Every server start loads the runtime anew: Node 22+ keeps its compiled code between starts.
  (nodeModule as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache?.(join(tmpdir(), 'mcp-host-sandbox-code-cache'));
  const sep = argv.indexOf('--');
  const policy = JSON.parse(argv[0] ?? '{}') as SandboxPolicy;
  const command = argv.slice(sep + 1);
  if (sep !== 1 || command.length === 0) throw new Error('usage: sandbox POLICY_JSON -- COMMAND [ARGS...]');
  // Set only so the launcher itself runs as Node under Electron; the server gets its own environment.
  if (process.env.MCP_HOST_SANDBOX_UNSET_ELECTRON === '1') {
    delete process.env.ELECTRON_RUN_AS_NODE;
    delete process.env.MCP_HOST_SANDBOX_UNSET_ELECTRON;
  }
  // A temporary folder of the server's own, writable, as its TMPDIR (the runtime's variable names it).
  const temp = mkdtempSync(join(tmpdir(), 'mcp-host-sandbox-'));
  process.env.CLAUDE_CODE_TMPDIR = temp;
  process.on('exit', () => rmSync(temp, { recursive: true, force: true }));
  ensureSeccompHelperRuns();
  const { SandboxManager } = await import('@anthropic-ai/sandbox-runtime');
  await SandboxManager.initialize({
    network: { allowedDomains: policy.network.allowedDomains, deniedDomains: policy.network.deniedDomains },
    filesystem: { ...policy.filesystem, allowWrite: [...policy.filesystem.allowWrite, temp] },
  });
  const store = SandboxManager.getSandboxViolationStore();
  let seen = store.getTotalCount();
  store.subscribe((violations) => {
    const fresh = store.getTotalCount() - seen;
    seen = store.getTotalCount();
    for (const v of violations.slice(-fresh)) {
      const destination = /network/.test(v.line) ? deniedDestination(v.line) : undefined;
      process.stderr.write(destination ? `${REFUSED_NETWORK_PREFIX}${destination}\n` : `[sandbox] ${v.line}\n`);
    }
  });
  const wrapped = await SandboxManager.wrapWithSandbox(command.map(shellWord).join(' '));
  const child: ChildProcess = spawn(wrapped, { shell: true, stdio: 'inherit' });
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => child.kill(signal));
  child.on('error', (e) => fail(e));
  child.on('exit', (code, signal) => {
    SandboxManager.cleanupAfterCommand();
    process.exit(code ?? (signal ? 128 : 1));
  });
}

/** The bundle's seccomp helper (dist/vendor/seccomp/ARCH) may have lost its executable bit in a .vsix's zip. */
function ensureSeccompHelperRuns(): void {
  const helper = join(__dirname, 'vendor', 'seccomp', process.arch, 'apply-seccomp');
  if (!__filename.endsWith('.js') || !existsSync(helper)) return;
  try { accessSync(helper, constants.X_OK); } catch { try { chmodSync(helper, 0o755); } catch { /* the runtime then says it cannot use it */ } }
}

function fail(e: unknown): never {
  process.stderr.write(`${SANDBOX_FAILED_PREFIX}${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(SANDBOX_FAILED_EXIT);
}

if (require.main === module) main(process.argv.slice(2)).catch(fail);
