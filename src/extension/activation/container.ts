// The window's services, built once in activate() and reached through this one object instead of module-level
// state. Each service is created on first use (a getter), so building the container costs activation nothing;
// disposing it disposes what it created.
import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { Disposable, toDisposable } from '../../core/events';
import { elicitationHandlerFor } from '../panels/elicitationUi';
import { ResourceDocuments } from '../resources/resourceDocuments';
import { RunHistory } from '../replay/runHistory';
import { ToolPanels } from '../panels/toolPanel';
import { runHooksFor, type RunCallerKind, type WindowRunHooks } from '../panels/runHooks';
import { AppModelContexts } from '../../core/apps';
import { SecureValues } from '../servers/secureValues';
import { SandboxRefusals } from '../servers/sandboxRefusals';
import { ServerInputs } from '../servers/serverInputs';
import { killStdioServersOnExit, ServerManager, type ServerServices } from '../servers/serverManager';
import { ServerTrust } from '../servers/serverTrust';
import { ServerSignIns } from '../servers/serverSignIns';
import { TaskRegistry } from '../tasks/taskRegistry';

export class Container extends Disposable implements ServerServices {
  /** The configured servers and their connections. */
  readonly manager: ServerManager;
  /** The tool panels open now and each tool's results of this session. */
  readonly toolPanels: ToolPanels;
  /** Apps' answers to a clipboardWrite permission, per server and app URI: asked once a session. */
  readonly appClipboardAnswers = new Map<string, boolean>();
  /** What apps offered as model context (ui/update-model-context), kept for @mcp's next turn. */
  readonly appModelContexts = new AppModelContexts();
  private history?: RunHistory;
  private secure?: SecureValues;
  private registry?: TaskRegistry;
  private resources?: ResourceDocuments;
  private inputs?: ServerInputs;
  private trust?: ServerTrust;
  private signIns?: ServerSignIns;
  private refusals?: SandboxRefusals;
  private openedFolder?: Promise<string>;
  private openedFolderPath?: string;

  constructor(readonly context: vscode.ExtensionContext) {
    super();
    this.manager = this.register(
      new ServerManager(context, this, (server, log) =>
        elicitationHandlerFor(context.extensionUri, server, log, () => this.manager.get(server.name)?.connection),
      ),
    );
    // The window's process hooks: stdio servers a shutdown left are killed when the host exits or the window goes.
    this.register(killStdioServersOnExit());
    this.toolPanels = this.register(new ToolPanels());
    this.register(
      toDisposable(() => {
        // Files opened without saving go with the window (an editor still showing one keeps its text); removed at
        // once when the folder exists, as the host may exit right after.
        const folder = this.openedFolder;
        this.openedFolder = undefined;
        if (this.openedFolderPath) rmSync(this.openedFolderPath, { recursive: true, force: true });
        else
          void folder?.then(
            (f) => rmSync(f, { recursive: true, force: true }),
            () => undefined,
          );
      }),
    );
  }

  get extensionUri(): vscode.Uri {
    return this.context.extensionUri;
  }

  /** Values of the `${input:…}` variables of the configuration (secrets in SecretStorage). */
  get serverInputs(): ServerInputs {
    return (this.inputs ??= new ServerInputs(this.context, (problem) => this.manager.hostLog.warn(`inputs panel: ${problem}`)));
  }

  /** Whether a workspace server may start, and the question before its first start (the workspace's answers). */
  get serverTrust(): ServerTrust {
    return (this.trust ??= new ServerTrust(
      this.context.workspaceState,
      () => this.manager.userConfigUri.fsPath,
      // The user chose to run it sandboxed: its entry says so now, and it starts from the file.
      (name) =>
        void this.manager
          .reload()
          .then(() => this.manager.start(name))
          .catch((e: unknown) => this.manager.reportStartFailure(name, e)),
    ));
  }

  /** The servers' OAuth sign-ins: their state (SecretStorage) and the client provider each HTTP server signs in with. */
  get serverSignIns(): ServerSignIns {
    return (this.signIns ??= new ServerSignIns(this.context.secrets));
  }

  /** What sandboxed servers were refused this session (the Servers view lists them), and **Allow**. */
  get sandboxRefusals(): SandboxRefusals {
    return (this.refusals ??= this.register(new SandboxRefusals(this.manager, (from, to) => this.serverTrust.carry(from, to))));
  }

  /** The History of tool runs (the workspace's storage). */
  get runHistory(): RunHistory {
    return (this.history ??= this.register(new RunHistory(this.context.workspaceState)));
  }

  /** SEP-3221 secure values remembered for this workspace. */
  get secureValues(): SecureValues {
    return (this.secure ??= new SecureValues(this.context));
  }

  /** Every task-augmented call of this window. */
  get taskRegistry(): TaskRegistry {
    return (this.registry ??= this.register(new TaskRegistry(this.manager)));
  }

  /** The read-only `mcp-host-resource:` documents (the file system provider is registered with it). */
  get resourceDocuments(): ResourceDocuments {
    return (this.resources ??= this.register(new ResourceDocuments(this.manager)));
  }

  /** Where file outputs opened without saving are downloaded: one folder per window, made on first use. */
  openedFilesFolder(): Promise<string> {
    return (this.openedFolder ??= mkdtemp(join(tmpdir(), 'mcp-host-opened-')).then((path) => (this.openedFolderPath = path)));
  }

  /** The run hooks of a call by `caller`: the one place where every caller's calls get the window's pipeline. */
  runHooks(caller: RunCallerKind): WindowRunHooks {
    return runHooksFor(this, caller);
  }
}
