// How a sandboxed stdio server is started: through the sandbox launcher (./launcher.ts), never without it. Where
// the sandbox cannot run (Windows, a missing bubblewrap, socat or ripgrep) the start fails with what is missing.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ServerStartError } from '../errors';
import { findExecutable } from '../connection/stdioTransport';
import type { ResolvedStdioServer } from '../config/types';

/** What each platform needs on PATH, and the package that has it (as the prerequisites step installs them). */
const NEEDS: Partial<Record<NodeJS.Platform, Array<[string, string]>>> = {
  linux: [['bwrap', 'bubblewrap'], ['socat', 'socat'], ['rg', 'ripgrep']],
  darwin: [['sandbox-exec', 'sandbox-exec (part of macOS)'], ['rg', 'ripgrep']],
};

/** Why the sandbox cannot run here (naming what is missing), or undefined when it can. */
export function sandboxUnavailableReason(env: Record<string, string | undefined>, platform: NodeJS.Platform = process.platform): string | undefined {
  const needs = NEEDS[platform];
  if (!needs) return `the sandbox runs on Linux and macOS only, not on ${platform === 'win32' ? 'Windows' : platform}`;
  const pathEnv: Record<string, string> = { PATH: env.PATH ?? '' };
  const missing = needs.filter(([exe]) => !findExecutable(exe, pathEnv, undefined, platform)).map(([exe, pkg]) => `${exe} (${pkg})`);
  return missing.length ? `the sandbox needs ${missing.join(' and ')}, not found on PATH` : undefined;
}

/** The sandbox launcher: the bundle's dist/sandbox.js, or the source run through tsx (tests, benchmarks). */
function launcherArgs(): string[] {
  if (__filename.endsWith('.js')) {
    const bundled = join(__dirname, 'sandbox.js');
    if (!existsSync(bundled)) throw new ServerStartError(`the sandbox launcher is missing (${bundled})`);
    return [bundled];
  }
  const loader = 'tsx';   // a name esbuild leaves alone: the bundle never takes this path
  return ['--import', pathToFileURL(require.resolve(loader)).href, join(__dirname, 'launcher.ts')];
}

/**
 * The command line that runs `server` in its sandbox (its `sandbox` policy is set), or a ServerStartError naming
 * what is missing. The server keeps its own environment and working folder.
 */
export function sandboxedCommand(server: ResolvedStdioServer & { sandbox: NonNullable<ResolvedStdioServer['sandbox']> }):
  { command: string; args: string[]; env: Record<string, string> } {
  const reason = sandboxUnavailableReason(server.env);
  if (reason) throw new ServerStartError(`server "${server.name}" is sandboxed and cannot start: ${reason}`);
  const electron = process.versions.electron !== undefined && server.env.ELECTRON_RUN_AS_NODE === undefined;
  return {
    command: process.execPath,
    args: [...launcherArgs(), JSON.stringify(server.sandbox), '--', server.command, ...server.args],
    env: electron ? { ...server.env, ELECTRON_RUN_AS_NODE: '1', MCP_HOST_SANDBOX_UNSET_ELECTRON: '1' } : server.env,
  };
}
