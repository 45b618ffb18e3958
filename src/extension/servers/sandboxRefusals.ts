// Explain and allow: what a sandboxed server was refused this session (the MCP view lists it under the server), a
// notification for each refusal, and **Allow**, which adds exactly the entry that allows it to the server's own
// `sandbox` block in the file it came from (comments kept) and restarts the server.
import * as vscode from 'vscode';
import { parseMcpConfig, type ServerDefinition } from '../../core/config';
import { readBoundedText } from '../../core/io/boundedRead';
import { FILE_LIMITS } from '../../core/io/limits';
import { describeAllowEntry, describeRefusal, type SandboxRefusal } from '../../core/sandbox/refusals';
import { addSandboxEntry } from './configEdits';

export const ALLOW = 'Allow';

/** What **Allow** needs of the server manager. */
export interface SandboxHost {
  get(name: string): { definition: ServerDefinition; channel: vscode.LogOutputChannel } | undefined;
  reload(): Promise<void>;
  start(name: string): Promise<unknown>;
  reportStartFailure(name: string, error: unknown): void;
}

/** Most refusals kept per server for the view (each one is also in the server's log). */
const MAX_LISTED = 100;

export class SandboxRefusals implements vscode.Disposable {
  private readonly byServer = new Map<string, SandboxRefusal[]>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly host: SandboxHost,
    /** `to` is trusted when `from` was (serverTrust.ts). */
    private readonly carryTrust: (from: ServerDefinition, to: ServerDefinition) => Promise<void>,
  ) {}

  of(server: string): readonly SandboxRefusal[] {
    return this.byServer.get(server) ?? [];
  }

  /** A refusal of a running server: listed, and shown with **Allow** when an entry would allow it. */
  report(server: string, refusal: SandboxRefusal): void {
    const list = this.byServer.get(server) ?? [];
    if (!list.some((r) => r.kind === refusal.kind && r.target === refusal.target)) {
      if (list.length >= MAX_LISTED) list.shift();
      list.push(refusal);
      this.byServer.set(server, list);
      this.changed.fire();
    }
    // A read or write comes from the server's own error output, which the server could have written to be allowed more.
    const text =
      refusal.reportedBy === 'sandbox'
        ? `The sandbox refused MCP server "${server}": ${describeRefusal(refusal)}.`
        : `MCP server "${server}" says the sandbox refused it: ${refusal.kind} ${refusal.target} (from its own error output; allow it only if the server needs it).`;
    const actions = refusal.allow ? [ALLOW, 'Show Output'] : ['Show Output'];
    void vscode.window
      .showWarningMessage(
        refusal.allow ? `${text} Allow adds ${describeAllowEntry(refusal.allow)} and restarts it.` : `${text} A denyWrite entry covers it.`,
        ...actions,
      )
      .then((choice) => {
        if (choice === ALLOW) void this.allow(server, refusal).catch((e: unknown) => void vscode.window.showErrorMessage(`MCP: ${(e as Error).message}`));
        if (choice === 'Show Output') this.host.get(server)?.channel.show(true);
      });
  }

  /** Adds the refusal's entry to the server's block in its file, then restarts the server. */
  async allow(server: string, refusal: SandboxRefusal): Promise<void> {
    const managed = this.host.get(server);
    if (!managed || !refusal.allow) return;
    const file = managed.definition.file;
    const text = await readBoundedText(file, FILE_LIMITS.config, 'the config file');
    const { section, key, value } = refusal.allow;
    const updated = addSandboxEntry(text, server, section, key, value);
    const next = parseMcpConfig(updated, file).servers.find((s) => s.name === server);
    // The user's trust in the definition holds for the same definition with the entry they allowed.
    if (next) await this.carryTrust(managed.definition, next);
    await vscode.workspace.fs.writeFile(vscode.Uri.file(file), Buffer.from(updated, 'utf8'));
    managed.channel.info(`[sandbox] allowed: added ${describeAllowEntry(refusal.allow)} to ${file}; restarting`);
    const list = this.byServer.get(server)?.filter((r) => r !== refusal);
    if (list) this.byServer.set(server, list);
    this.changed.fire();
    // The reload restarts a running server whose definition changed; one that had stopped is started.
    await this.host.reload();
    await this.host.start(server).catch((e: unknown) => this.host.reportStartFailure(server, e));
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** A refusal in the MCP view: what was refused, and (inline) **Allow** when an entry would allow it. */
export function sandboxRefusalItem(refusal: SandboxRefusal): vscode.TreeItem {
  const item = new vscode.TreeItem(`Refused: ${describeRefusal(refusal)}`, vscode.TreeItemCollapsibleState.None);
  item.description = 'sandbox';
  item.iconPath = new vscode.ThemeIcon('shield', new vscode.ThemeColor('problemsWarningIcon.foreground'));
  const who = refusal.reportedBy === 'sandbox' ? 'The sandbox refused this.' : "The server's error output says the sandbox refused this.";
  item.tooltip = refusal.allow
    ? `${who} Allow adds ${describeAllowEntry(refusal.allow)} to the server's entry and restarts it.`
    : `${who} A denyWrite entry of the server covers it.`;
  // (without it, screen readers announce the tooltip)
  item.accessibilityInformation = { label: `Refused: ${describeRefusal(refusal)}${refusal.reportedBy === 'sandbox' ? ', by the sandbox' : ''}` };
  item.contextValue = refusal.allow ? 'mcpSandboxRefusal.allowable' : 'mcpSandboxRefusal';
  return item;
}
