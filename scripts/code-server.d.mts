import type { BrowserContext, LaunchOptions } from 'playwright-core';

export interface CodeServer {
  url: string;
  port: number;
  pid: number;
  home: string;
  userDataDir: string;
  extensionsDir: string;
  logFile: string;
  workbenchUrl(folder: string, payload?: [string, string][]): string;
  remoteUri(path: string): string;
  stop(): Promise<void>;
}

export interface StartOptions {
  workspace?: string;
  settings?: Record<string, unknown>;
  extensionsDir?: string;
  logFile?: string;
  port?: number;
  env?: Record<string, string>;
  keepDirs?: boolean;
  /** Keep VS Code's workspace trust on (the default passes --disable-workspace-trust). */
  workspaceTrust?: boolean;
}

/** Settings that stop the workbench's animations, for a workbench driven by tests. */
export const motionlessSettings: Record<string, unknown>;
export function freePort(): Promise<number>;
export function installExtension(vsix: string, extensionsDir: string): string;
export function startCodeServer(options?: StartOptions): Promise<CodeServer>;
export function openBrowser(options?: Partial<LaunchOptions>): Promise<BrowserContext>;
export function openBrowserContext(): Promise<BrowserContext>;
