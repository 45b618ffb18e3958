import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { McpHostApi } from '../../../src/extension/activation/extension';
import { fixtureArgv } from '../../fixtures/servers';

export const EXTENSION_ID = 'mcp-host.mcp-host';

export function extension(): vscode.Extension<McpHostApi> {
  const ext = vscode.extensions.getExtension<McpHostApi>(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not loaded`);
  return ext;
}

/** The API MCP Host returns from activate(). */
export async function api(): Promise<McpHostApi> {
  return extension().activate();
}

export function workspaceRoot(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the integration tests need the test workspace open');
  return folder.uri;
}

export function workspaceFile(name: string): string {
  return vscode.Uri.joinPath(workspaceRoot(), name).fsPath;
}

export { viewText as resultText } from '../../helpers/results';

export async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Starts test/fixtures/hostile-http-server.ts (its first path segment picks the behaviour); kill the process after. */
export async function startHostileHttpServer(): Promise<{ base: string; fixture: ChildProcess }> {
  const repo = join(workspaceRoot().fsPath, '../../..');
  const fixture = spawn('node', fixtureArgv('hostile-http-server.ts'), { cwd: repo, stdio: ['pipe', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    let seen = '';
    fixture.stdout!.setEncoding('utf8').on('data', (d: string) => {
      seen += d;
      if (seen.includes('\n')) resolve(seen);
    });
    fixture.once('exit', (c) => reject(new Error(`hostile-http-server exited ${c}`)));
  });
  return { base: `http://127.0.0.1:${/listening (\d+)/.exec(line)![1]}`, fixture };
}
