// What a sandboxed server may do: the server's `sandbox` lists over the defaults, every path made absolute.
// The defaults are VS Code's: reads allowed except `denyRead` (to which `~/.ssh` is added: no server needs a
// private key); writes denied except `allowWrite`, the server's working folder and npm's cache; the network
// denied except `allowedDomains` and the registry the server's launcher (npx, uvx…) downloads it from.
import { homedir } from 'node:os';
import { basename, isAbsolute, join, resolve } from 'node:path';
import type { SandboxConfig } from '../config/sandbox';

export interface SandboxPolicy {
  filesystem: { allowWrite: string[]; denyRead: string[]; denyWrite: string[]; allowRead: string[] };
  network: { allowedDomains: string[]; deniedDomains: string[] };
}

/** Always read-denied, always writable. */
export const DEFAULT_DENY_READ = ['~/.ssh'];
export const DEFAULT_ALLOW_WRITE = ['~/.npm'];

/** The registries a launcher downloads the server from, by the launcher's name. */
const LAUNCHER_REGISTRIES: Record<string, readonly string[]> = {
  npx: ['registry.npmjs.org'],
  npm: ['registry.npmjs.org'],
  pnpm: ['registry.npmjs.org'],
  pnpx: ['registry.npmjs.org'],
  yarn: ['registry.npmjs.org', 'registry.yarnpkg.com'],
  bunx: ['registry.npmjs.org'],
  uvx: ['pypi.org', 'files.pythonhosted.org'],
  uv: ['pypi.org', 'files.pythonhosted.org'],
  pipx: ['pypi.org', 'files.pythonhosted.org'],
};

/** The domains the launcher `command` needs (none for a command that is not a known launcher). */
export function launcherDomains(command: string): readonly string[] {
  const name = basename(command)
    .replace(/\.(cmd|exe)$/i, '')
    .toLowerCase();
  return Object.hasOwn(LAUNCHER_REGISTRIES, name) ? LAUNCHER_REGISTRIES[name]! : [];
}

/** `~`, `~/x` against `home`; a relative path against `cwd`. */
export function absolutePath(path: string, home: string, cwd: string): string {
  const expanded = path === '~' ? home : path.startsWith('~/') ? join(home, path.slice(2)) : path;
  return isAbsolute(expanded) ? resolve(expanded) : resolve(cwd, expanded);
}

const unique = (list: string[]) => [...new Set(list)];

/**
 * The policy of a server run as `command` in `cwd`, with `home` as its home folder (the HOME of its environment)
 * and `sub` substituting the variables of the configuration (`${workspaceFolder}`…) in each entry.
 */
export function sandboxPolicy(
  config: SandboxConfig | undefined,
  o: {
    command: string;
    cwd: string;
    home?: string;
    sub?: (s: string) => string;
  },
): SandboxPolicy {
  const home = o.home ?? homedir();
  const sub = o.sub ?? ((s: string) => s);
  const paths = (list: readonly string[] | undefined) => (list ?? []).map((p) => absolutePath(sub(p), home, o.cwd));
  const fs = config?.filesystem;
  const net = config?.network;
  return {
    filesystem: {
      allowWrite: unique([...paths(fs?.allowWrite), o.cwd, ...paths(DEFAULT_ALLOW_WRITE)]),
      denyRead: unique([...paths(DEFAULT_DENY_READ), ...paths(fs?.denyRead)]),
      denyWrite: unique(paths(fs?.denyWrite)),
      allowRead: unique(paths(fs?.allowRead)),
    },
    network: {
      allowedDomains: unique([...(net?.allowedDomains ?? []).map(sub), ...launcherDomains(o.command)]),
      deniedDomains: unique((net?.deniedDomains ?? []).map(sub)),
    },
  };
}

/** Whether `path` is `entry` or lies under it. */
export function isUnder(path: string, entry: string): boolean {
  return path === entry || path.startsWith(entry.endsWith('/') ? entry : `${entry}/`);
}
