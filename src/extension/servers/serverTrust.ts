// Whether a server may start: a server from a workspace's .vscode/mcp.json is a command line written by
// whoever wrote the repository, so it starts only in a trusted workspace (not in Restricted Mode) and only
// after the user said yes to that exact definition once. The yes is remembered in the workspace's state by a
// hash of the definition: a changed command asks again. Servers from the user's own configuration never ask.

import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { parseMcpConfig, type ServerDefinition } from '../../core/config';
import { readBoundedText } from '../../core/io/boundedRead';
import { FILE_LIMITS } from '../../core/io/limits';
import { enableSandbox } from './configEdits';
import { readSettings } from '../settings';
import { HostError } from '../../core/errors';

const TRUSTED_KEY = 'mcpHost.trustedServerDefinitions';
export const TRUST_AND_START = 'Trust and start';
export const TRUST_AND_RUN_SANDBOXED = 'Trust and run sandboxed';

/** Why a server did not start: the workspace is in Restricted Mode, or the user did not trust it (`declined`). */
export class ServerNotTrustedError extends HostError {
  static override readonly brand: string = 'ServerNotTrustedError';
  constructor(
    message: string,
    readonly declined = false,
  ) {
    super(message);
  }
}

/** The hash a trust answer is remembered by: everything that decides what runs or where it connects. */
export function definitionHash(def: ServerDefinition): string {
  const { name: _name, file: _file, ...what } = def;
  return createHash('sha256').update(JSON.stringify(what)).digest('hex');
}

/** The command line (or URL) as written in the configuration, for the user to read before trusting it. */
export function describeDefinition(def: ServerDefinition): string {
  if (def.type !== 'stdio') {
    const headers = Object.keys(def.headers);
    return `${def.type === 'sse' ? 'Connects (legacy SSE) to' : 'Connects to'} ${def.url}${headers.length ? `\nwith the headers ${headers.join(', ')}` : ''}`;
  }
  const quote = (a: string) => (/^[\w@%+=:,./${}-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);
  const env = Object.keys(def.env);
  return [
    `Runs: ${[def.command, ...def.args].map(quote).join(' ')}`,
    def.cwd ? `in ${def.cwd}` : undefined,
    env.length ? `with the environment variables ${env.join(', ')}` : undefined,
    def.envFile ? `and the variables of ${def.envFile}` : undefined,
    def.sandboxEnabled
      ? 'Sandboxed: it reads what its sandbox block does not deny (never ~/.ssh), writes only its folder and what the block allows, ' +
        'and reaches only the hosts the block allows.'
      : 'Not sandboxed: it runs with your full rights (your files, your keys, any host).',
  ]
    .filter(Boolean)
    .join('\n');
}

export class ServerTrust {
  constructor(
    private readonly workspaceState: vscode.Memento,
    private readonly userConfigFile: () => string,
    /** The user chose to run the server sandboxed: its entry now says so; start it from the file. */
    private readonly startFromFile: (name: string) => void = () => undefined,
  ) {}

  /** A server from the user's own mcp.json (never asked about). */
  isUserLevel(def: ServerDefinition): boolean {
    return def.file === this.userConfigFile();
  }

  /** Whether `def` may start without asking (user-level, trusted before, or trusted by setting). */
  isTrusted(def: ServerDefinition): boolean {
    if (this.isUserLevel(def)) return true;
    if (!vscode.workspace.isTrusted) return false;
    return readSettings().trustWorkspaceServers || this.trusted().includes(definitionHash(def));
  }

  /**
   * Resolves when the server may start; asks the user the first time a workspace definition starts.
   * Throws ServerNotTrustedError in Restricted Mode or when the user does not trust it.
   */
  async ensureTrusted(def: ServerDefinition): Promise<void> {
    if (this.isTrusted(def)) return;
    if (!vscode.workspace.isTrusted) {
      throw new ServerNotTrustedError('servers defined in a workspace do not start in Restricted Mode (trust the workspace first)');
    }
    const where = vscode.workspace.asRelativePath(def.file);
    const choice = await vscode.window.showWarningMessage(
      `Start the MCP server "${def.name}" defined in ${where}?`,
      {
        modal: true,
        detail:
          `${describeDefinition(def)}\n\nDefined in ${def.file}. A workspace's configuration comes from whoever wrote it: ` +
          'start it only if you trust them. You are asked again if this definition changes.',
      },
      ...(def.type === 'stdio' && !def.sandboxEnabled ? [TRUST_AND_START, TRUST_AND_RUN_SANDBOXED] : [TRUST_AND_START]),
    );
    if (choice === TRUST_AND_RUN_SANDBOXED) {
      await this.runSandboxed(def);
      // This start was of the unsandboxed definition: it ends here, and the server starts from the file.
      throw new ServerNotTrustedError('it will start sandboxed', true);
    }
    if (choice !== TRUST_AND_START) throw new ServerNotTrustedError('its definition was not trusted', true);
    await this.workspaceState.update(TRUSTED_KEY, [...new Set([...this.trusted(), definitionHash(def)])]);
  }

  /** Writes `sandboxEnabled: true` into the server's entry (comments kept), trusts that definition, and starts it. */
  private async runSandboxed(def: ServerDefinition): Promise<void> {
    const text = await readBoundedText(def.file, FILE_LIMITS.config, 'the config file');
    const updated = enableSandbox(text, def.name);
    const sandboxed = parseMcpConfig(updated, def.file).servers.find((s) => s.name === def.name);
    if (!sandboxed) throw new Error(`could not enable the sandbox of "${def.name}" in ${def.file}`);
    await this.workspaceState.update(TRUSTED_KEY, [...new Set([...this.trusted(), definitionHash(sandboxed)])]);
    await vscode.workspace.fs.writeFile(vscode.Uri.file(def.file), Buffer.from(updated, 'utf8'));
    this.startFromFile(def.name);
  }

  /** `to` is trusted when `from` was (a change the user made themselves, such as **Allow** of a sandbox refusal). */
  async carry(from: ServerDefinition, to: ServerDefinition): Promise<void> {
    if (this.isUserLevel(to) || !this.trusted().includes(definitionHash(from))) return;
    await this.workspaceState.update(TRUSTED_KEY, [...new Set([...this.trusted(), definitionHash(to)])]);
  }

  private trusted(): string[] {
    return this.workspaceState.get<string[]>(TRUSTED_KEY, []);
  }
}
