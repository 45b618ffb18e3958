// Dev mode of a configured server (its `dev` block, as in VS Code's mcp.json): `dev.watch` restarts the server
// when a matching file changes (VS Code's file watcher, debounced), and `dev.debug` starts a stdio server under a
// debugger and attaches VS Code's (node: js-debug on the inspector port the server prints; debugpy: the Python
// Debugger extension listening, debugpy connecting to it). Starting with the window and the traffic at Info are
// the server manager's part.

import { createServer } from 'node:net';
import { relative } from 'node:path';
import * as vscode from 'vscode';
import type { DevDebugConfig, ResolvedServer } from '../../core/config';
import {
  DEV_ATTACH_TIMEOUT_MS,
  DEV_DEBUG_HOST,
  debugAttachConfiguration,
  debugLaunch,
  inspectorPortIn,
  RestartScheduler,
  splitWatchGlobs,
  watchedBy,
} from '../../core/dev';
import { ServerStartError } from '../../core/errors';
import type { Logger } from '../../core/log';

/**
 * Watches the `dev.watch` globs of a server under its workspace folder: a change (create, change, delete) to a
 * file that matches an include and no `!` exclude asks `restart` for a restart, once per burst of changes.
 */
export function watchForRestart(
  name: string,
  globs: readonly string[],
  folder: vscode.Uri | undefined,
  log: Logger,
  restart: (changed: readonly string[]) => Promise<void>,
): vscode.Disposable {
  if (!folder) {
    log.warn('"dev.watch" is ignored: it is relative to a workspace folder, and this window has none');
    return new vscode.Disposable(() => undefined);
  }
  const { includes, excludes } = splitWatchGlobs(globs);
  const scheduler = new RestartScheduler(restart);
  const onChange = (uri: vscode.Uri): void => {
    const path = relative(folder.fsPath, uri.fsPath).split('\\').join('/');
    // (the watchers match the includes already; the check runs for the excludes)
    if (excludes.length > 0 && !watchedBy(path, globs)) return;
    log.debug(`"dev.watch": ${path} changed`);
    scheduler.changedFile(path);
  };
  const watchers = includes.map((glob) => vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, glob)));
  const subscriptions = watchers.flatMap((w) => [w.onDidChange(onChange), w.onDidCreate(onChange), w.onDidDelete(onChange)]);
  log.info(`dev mode: watching ${includes.join(', ')}${excludes.length ? ` (not ${excludes.join(', ')})` : ''} in ${folder.fsPath} for "${name}"`);
  return new vscode.Disposable(() => {
    scheduler.dispose();
    for (const d of [...subscriptions, ...watchers]) d.dispose();
  });
}

/** What a server is started as in dev mode: its command line under the debugger, and who reads its stderr. */
export interface DevLaunch {
  server: ResolvedServer;
  onStderrLine?: (line: string) => void;
}

/** Whether an installed extension contributes a debugger of one of these types. */
function hasDebugger(...types: string[]): boolean {
  return vscode.extensions.all.some((e) => {
    const debuggers = (e.packageJSON as { contributes?: { debuggers?: Array<{ type?: unknown }> } } | undefined)?.contributes?.debuggers;
    return Array.isArray(debuggers) && debuggers.some((d) => types.includes(String(d.type)));
  });
}

/**
 * The launch of a stdio server with `dev.debug`: node is started paused on an inspector port it picks and prints;
 * when that line comes, VS Code's JavaScript debugger attaches and lets it run. debugpy: the Python Debugger
 * listens first, then the server is started connecting to it. Without the debugger this needs, the start fails
 * saying which extension is missing.
 */
export async function debugLaunchFor(
  name: string,
  resolved: ResolvedServer,
  debug: DevDebugConfig | undefined,
  folder: vscode.WorkspaceFolder | undefined,
  log: Logger,
): Promise<DevLaunch> {
  if (!debug || resolved.transport !== 'stdio') return { server: resolved };
  if (debug.type === 'node') {
    if (!hasDebugger('node', 'pwa-node')) {
      throw new ServerStartError('"dev.debug" type "node" needs VS Code\'s JavaScript Debugger (ms-vscode.js-debug), which is not available in this window');
    }
    const server = debugLaunch(resolved, debug);
    // Each start of the process (the connection may start it again) prints its own port once.
    const onStderrLine = (line: string): void => {
      const port = inspectorPortIn(line);
      if (port === undefined) return;
      log.info(`dev mode: attaching the debugger to ${DEV_DEBUG_HOST}:${port}`);
      void Promise.resolve(vscode.debug.startDebugging(folder, debugAttachConfiguration(name, 'node', port) as vscode.DebugConfiguration)).then(
        (started) => {
          if (!started) reportNotAttached(name, log, `the debugger did not start; the server waits paused on ${DEV_DEBUG_HOST}:${port}`);
        },
        (e: unknown) => reportNotAttached(name, log, (e as Error).message ?? String(e)),
      );
    };
    return { server, onStderrLine };
  }
  if (!hasDebugger('debugpy')) {
    throw new ServerStartError('"dev.debug" type "debugpy" needs the Python Debugger extension (ms-python.debugpy), which is not installed in this window');
  }
  const port = await freePort();
  log.info(`dev mode: the Python debugger listens on ${DEV_DEBUG_HOST}:${port}`);
  let failed: Error | undefined;
  void Promise.resolve(vscode.debug.startDebugging(folder, debugAttachConfiguration(name, 'debugpy', port) as vscode.DebugConfiguration)).then(
    (started) => {
      if (!started) failed = new ServerStartError('the Python debugger did not start');
    },
    (e: unknown) => {
      failed = e instanceof Error ? e : new Error(String(e));
    },
  );
  await untilListening(port, () => failed);
  return { server: debugLaunch(resolved, debug, port) };
}

function reportNotAttached(name: string, log: Logger, why: string): void {
  log.error(`dev mode: the debugger could not attach: ${why}`);
  void vscode.window.showErrorMessage(`MCP server "${name}": the debugger could not attach (${why}).`);
}

/** A port on loopback that nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, DEV_DEBUG_HOST, () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Resolves once the port is taken (the debugger listens there); fails after DEV_ATTACH_TIMEOUT_MS. Tried by listening
 * on it, not by connecting: the debugger would take a connection for debugpy's.
 */
async function untilListening(port: number, failed: () => Error | undefined): Promise<void> {
  const deadline = Date.now() + DEV_ATTACH_TIMEOUT_MS;
  for (;;) {
    const failure = failed();
    if (failure) throw failure;
    const taken = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(true));
      probe.listen(port, DEV_DEBUG_HOST, () => probe.close(() => resolve(false)));
    });
    if (taken) return;
    if (Date.now() > deadline)
      throw new ServerStartError(`the Python debugger did not listen on ${DEV_DEBUG_HOST}:${port} within ${DEV_ATTACH_TIMEOUT_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
