// What a sandboxed server was refused: each connection the sandbox's proxy refused (reported by the sandbox service,
// on a channel of its own), and each refused read or write the server's own error messages name on its stderr
// (Node's `EROFS: …, open '/path'`, Python's `[Errno 30] …: '/path'`). Nothing but the server vouches for the
// latter, so they are shown as the server's report, and only for a path the sandbox would refuse. Each refusal
// names the entry of the server's `sandbox` block that would allow it, when one would.
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SandboxListKey, SandboxSection } from '../config/sandbox';
import { isUnder, type SandboxPolicy } from './policy';

export interface SandboxRefusal {
  kind: 'read' | 'write' | 'network';
  /** The path, or `host:port`. */
  target: string;
  /** The entry that allows it (added by **Allow**); absent when no entry would (a `denyWrite` covers the path). */
  allow?: SandboxAllowEntry;
  /** Who says so: the sandbox itself (a refused connection), or the server's own error output (a read or write). */
  reportedBy: 'sandbox' | 'server';
}

export interface SandboxAllowEntry {
  section: SandboxSection;
  key: SandboxListKey;
  value: string;
}

/** `sandbox.filesystem.allowWrite: "/path"`, the way the entry is shown. */
export function describeAllowEntry(e: SandboxAllowEntry): string {
  return `sandbox.${e.section}.${e.key}: ${JSON.stringify(e.value)}`;
}

/** "connect to host:port" / "write /path (as the server's error output says)", the way a refusal is shown. */
export function describeRefusal(r: SandboxRefusal): string {
  return `${r.kind === 'network' ? 'connect to' : r.kind} ${r.target}${r.reportedBy === 'server' ? " (as the server's error output says)" : ''}`;
}

const NODE_ERROR = /\b(EROFS|EACCES|EPERM|ENOENT)\b[^'\n]*'(\/[^'\n]+)'/;
const PYTHON_ERROR = /\[Errno (30|13|1|2)\][^'\n]*'(\/[^'\n]+)'/;
const PYTHON_CODES: Record<string, string> = { 30: 'EROFS', 13: 'EACCES', 1: 'EPERM', 2: 'ENOENT' };

/** A connection to `target` (`host:port`) the sandbox's proxy refused. */
export function networkRefusal(target: string): SandboxRefusal {
  return { kind: 'network', target, allow: { section: 'network', key: 'allowedDomains', value: target }, reportedBy: 'sandbox' };
}

/**
 * The refused read or write a line of a sandboxed server's stderr reports, if the sandbox would refuse it: a read
 * of a path under `denyRead` that is there, a write outside `allowWrite` or under `denyWrite`.
 */
export function refusalIn(line: string, policy: SandboxPolicy): SandboxRefusal | undefined {
  const node = NODE_ERROR.exec(line);
  const python = node ? undefined : PYTHON_ERROR.exec(line);
  const code = node?.[1] ?? (python ? PYTHON_CODES[python[1]!] : undefined);
  const path = node?.[2] ?? python?.[2];
  if (!code || !path) return undefined;
  const fs = policy.filesystem;
  const readDenied = fs.denyRead.some((e) => isUnder(path, e)) && !fs.allowRead.some((e) => isUnder(path, e));
  if (readDenied) {
    // A read-denied path is hidden (an empty folder or file in its place); it is a refusal only when it is there.
    if (!existsSync(path)) return undefined;
    return { kind: 'read', target: path, allow: { section: 'filesystem', key: 'allowRead', value: path }, reportedBy: 'server' };
  }
  if (code === 'ENOENT') return undefined;
  const writeDenied = fs.denyWrite.some((e) => isUnder(path, e));
  if (!writeDenied && fs.allowWrite.some((e) => isUnder(path, e))) return undefined;
  // The runtime binds paths that exist: a new file is allowed through its folder.
  const value = existsSync(path) ? path : dirname(path);
  return { kind: 'write', target: path, ...(writeDenied ? {} : { allow: { section: 'filesystem', key: 'allowWrite', value } }), reportedBy: 'server' };
}

/** The most refusals one run of a server reports (a server may print any number of error lines). */
export const MAX_REFUSALS_PER_RUN = 200;

/** The refusals of one run of a server, each once. */
export class RefusalLog {
  private readonly seen = new Map<string, SandboxRefusal>();

  constructor(private readonly policy: SandboxPolicy) {}

  /** The refusal in the server's stderr `line`, if it is new. */
  add(line: string): SandboxRefusal | undefined {
    return this.once(refusalIn(line, this.policy));
  }

  /** The connection to `target` the sandbox refused, if it is new. */
  network(target: string): SandboxRefusal | undefined {
    return this.once(networkRefusal(target));
  }

  private once(r: SandboxRefusal | undefined): SandboxRefusal | undefined {
    if (!r) return undefined;
    const key = `${r.kind} ${r.target}`;
    if (this.seen.has(key) || this.seen.size >= MAX_REFUSALS_PER_RUN) return undefined;
    this.seen.set(key, r);
    return r;
  }
}
