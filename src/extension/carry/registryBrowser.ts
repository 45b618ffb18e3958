// MCP: Browse Servers…: search an MCP Registry as you type (debounced, one page at a time with "Load more"),
// read a server's details, then Install (user configuration) or Install in Workspace: the package's values asked
// with the form, the exact command line shown before anything is written, the entry written keeping comments.
// The MCP view's registry section (registryTree.ts) installs through the same actOnServer.
import * as vscode from 'vscode';
import { setting } from '../settings';
import { oneLine } from '../../shared/format';
import { serverNamesIn, uniqueServerName } from '../../core/config';
import { errorText } from '../../core/errors';
import { buildForm, defaultValues, toPayload } from '../../core/forms';
import { readBoundedText } from '../../core/io/boundedRead';
import { FILE_LIMITS } from '../../core/io/limits';
import {
  DEFAULT_REGISTRY_URL,
  describeEntry,
  installKinds,
  installTargets,
  InstallError,
  planInstall,
  RegistryClient,
  RegistryPager,
  type InstallTarget,
  type RegistryEntry,
} from '../../core/registry';
import { carryModules } from '../../core/carryOnDemand';
import { afterWrite, installOpenedBundle, writeServerEntry } from './carry';
import { showFormDialog } from '../panels/formDialog';
import { galleryAllowed, galleryOffReason } from './registryPolicy';
import type { ServerManager } from '../servers/serverManager';

/** Quiet time after the last key before the registry is asked. */
const SEARCH_DEBOUNCE_MS = 300;

/** The registry URL: only from user or machine settings (the setting is application-scoped). */
export function registryUrl(): string {
  return setting('registry.url') || DEFAULT_REGISTRY_URL;
}

interface EntryItem extends vscode.QuickPickItem {
  entry?: RegistryEntry;
  more?: true;
}

/** A registry's text in a quick pick row: shown as written (no `$(icon)` rendering), cut short. */
/** A registry's text on one line (its line breaks shown escaped), cut short: shown as written. */
export function registryText(text: string, max = 200): string {
  const line = oneLine(text);
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

/** A registry's text in a quick pick, which would draw `$(name)` as an icon. */
function plain(text: string, max = 200): string {
  return registryText(text, max).replace(/\$\(/g, '\\$(');
}

function entryItem(entry: RegistryEntry): EntryItem {
  const s = entry.server;
  const kinds = installKinds(s).join(', ') || 'nothing to install';
  return {
    label: plain(s.title ? `${s.title} (${s.name})` : s.name),
    description: `${plain(s.version, 40)}${entry.status === 'deprecated' ? ' $(warning) deprecated' : ''} · ${plain(kinds)}`,
    detail: plain(s.description),
    alwaysShow: true,
    entry,
  };
}

const MORE: EntryItem = { label: '$(more) Load more…', alwaysShow: true, more: true };

/** The quick pick: the chosen server, or undefined when closed. */
function pickServer(url: string): Promise<RegistryEntry | undefined> {
  return new Promise((resolve) => {
    const qp = vscode.window.createQuickPick<EntryItem>();
    qp.title = `MCP: Browse Servers (${new URL(url).host})`;
    qp.placeholder = 'Search servers by name';
    qp.matchOnDescription = true;
    let request = new AbortController();
    let pager: RegistryPager | undefined;
    let timer: NodeJS.Timeout | undefined;
    let shown: EntryItem[] = [];
    const load = async (fresh: boolean): Promise<void> => {
      if (fresh) {
        request.abort();
        request = new AbortController();
        pager = new RegistryPager(new RegistryClient(url, { signal: request.signal }), qp.value.trim());
        shown = [];
      }
      const current = request;
      qp.busy = true;
      try {
        const page = await pager!.next();
        if (current.signal.aborted) return;
        const added = page.entries.map(entryItem);
        shown = [...shown, ...added];
        qp.items = [...shown, ...(pager!.done ? [] : [MORE])];
        if (shown.length === 0) qp.items = [{ label: 'No servers found', alwaysShow: true }];
        // After Load more, the list goes on from the first new server (new items would otherwise start at the top).
        else if (!fresh && added.length > 0) qp.activeItems = [added[0]!];
      } catch (e) {
        if (current.signal.aborted) return;
        qp.items = [...shown, { label: '$(error) The registry could not be read', detail: errorText(e), alwaysShow: true }];
      } finally {
        if (!current.signal.aborted) qp.busy = false;
      }
    };
    qp.onDidChangeValue(() => {
      clearTimeout(timer);
      timer = setTimeout(() => void load(true), SEARCH_DEBOUNCE_MS);
    });
    qp.onDidAccept(() => {
      const picked = qp.selectedItems[0];
      if (picked?.more) {
        void load(false);
        return;
      }
      if (!picked?.entry) return;
      resolve(picked.entry);
      qp.hide();
    });
    qp.onDidHide(() => {
      clearTimeout(timer);
      request.abort();
      resolve(undefined);
      qp.dispose();
    });
    qp.show();
    void load(true);
  });
}

function details(entry: RegistryEntry, targets: InstallTarget[]): string {
  const s = entry.server;
  return [
    s.description,
    `Version ${s.version}${entry.status === 'deprecated' ? ` — DEPRECATED${entry.statusMessage ? `: ${entry.statusMessage}` : ''}` : ''}`,
    s.repository ? `Repository: ${s.repository.url}${s.repository.subfolder ? ` (${s.repository.subfolder})` : ''}` : undefined,
    s.websiteUrl ? `Website: ${s.websiteUrl}` : undefined,
    '',
    ...targets.map((t) => `${t.label}${t.unsupported ? ` (cannot install: ${t.unsupported})` : ''}`),
  ]
    .filter((l) => l !== undefined)
    .join('\n');
}

const INSTALL = 'Install';
const INSTALL_WORKSPACE = 'Install in Workspace';
const OPEN_REPOSITORY = 'Open Repository';
export type RegistryAction = typeof INSTALL | typeof INSTALL_WORKSPACE | typeof OPEN_REPOSITORY;

export async function browseServers(manager: ServerManager, extensionUri: vscode.Uri): Promise<void> {
  if (!galleryAllowed()) {
    void vscode.window.showInformationMessage(galleryOffReason());
    return;
  }
  const chosen = await pickServer(registryUrl());
  if (chosen) await actOnServer(manager, extensionUri, chosen);
}

/** Opens a server's repository (https only: the link is the registry's text). */
export async function openRepository(server: RegistryEntry['server']): Promise<void> {
  if (!server.repository) throw new InstallError(`${server.name} names no repository`);
  const repo = vscode.Uri.parse(server.repository.url);
  if (repo.scheme !== 'https') throw new InstallError(`the repository of ${server.name} is not an https link: ${server.repository.url}`);
  await vscode.env.openExternal(repo);
}

/**
 * A server chosen in a list (the browser's, or the MCP view's registry section): its whole server.json asked for
 * by name, then `given` done, or the action chosen in a modal with the server's details.
 */
export async function actOnServer(manager: ServerManager, extensionUri: vscode.Uri, chosen: RegistryEntry, given?: RegistryAction): Promise<void> {
  if (given === OPEN_REPOSITORY) return openRepository(chosen.server);
  // The list holds the latest version; its full server.json is asked for by name.
  const entry = await new RegistryClient(registryUrl()).getServer(chosen.server.name, chosen.server.version);
  const server = entry.server;
  if (entry.status === 'deleted') throw new InstallError(`${server.name} ${server.version} was deleted from the registry`);
  const targets = installTargets(server);
  const runnable = targets.filter((t) => !t.unsupported);
  const actions = [
    ...(runnable.length ? [INSTALL, ...(manager.workspaceConfigUris.length ? [INSTALL_WORKSPACE] : [])] : []),
    ...(server.repository ? [OPEN_REPOSITORY] : []),
  ];
  if (given && !actions.includes(given)) {
    throw new InstallError(
      runnable.length === 0
        ? `${server.name} ${server.version} has no package or remote this host can install`
        : `${server.name} cannot be installed in the workspace: no folder is open`,
    );
  }
  const action =
    given ??
    (await vscode.window.showInformationMessage(
      `${server.title ?? server.name} ${server.version}`,
      { modal: true, detail: details(entry, targets) },
      ...actions,
    ));
  if (action === OPEN_REPOSITORY) return openRepository(server);
  if (action !== INSTALL && action !== INSTALL_WORKSPACE) return;
  await install(manager, extensionUri, entry, runnable, action === INSTALL_WORKSPACE ? manager.workspaceConfigUris[0]! : manager.userConfigUri);
}

async function install(manager: ServerManager, extensionUri: vscode.Uri, entry: RegistryEntry, runnable: InstallTarget[], file: vscode.Uri): Promise<void> {
  const server = entry.server;
  const target =
    runnable.length === 1
      ? runnable[0]
      : (
          await vscode.window.showQuickPick(
            runnable.map((t) => ({ label: plain(t.label), target: t })),
            { title: `Install ${server.name}`, placeHolder: 'Which package or remote?' },
          )
        )?.target;
  if (!target) return;
  if (target.kind === 'mcpb') {
    // A bundle: downloaded, its fileSha256 checked before anything is unpacked, then installed as one from a file.
    const pkg = server.packages[target.index]!;
    const opened = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Downloading ${server.name}…` }, () =>
      carryModules().bundles.downloadBundle(pkg.identifier, pkg.fileSha256!),
    );
    await installOpenedBundle(manager, extensionUri, opened, `${server.name} ${server.version} from the registry (sha-256 checked)`, file);
    return;
  }
  const plan = planInstall(server, target);
  let values: Record<string, unknown> = {};
  const model = buildForm(plan.schema);
  if (model.fields.length > 0) {
    model.title = `Install ${server.title ?? server.name}`;
    const secrets = plan.fields.some((f) => f.secret);
    model.description = `${target.label}.${secrets ? " Its secrets are asked when the server first starts and kept in VS Code's secret storage." : ''}`;
    const answer = await showFormDialog({
      viewType: 'mcpHost.registryInstall',
      title: `MCP: Install ${server.name}`,
      extensionUri,
      model,
      values: defaultValues(model),
      init: (v) => ({ kind: 'inputs', heading: { title: `Install ${server.title ?? server.name}`, server: server.name }, form: model, values: v }),
    });
    if (answer.action !== 'accept') return;
    values = toPayload(model, answer.values);
  }
  const built = plan.build(values);
  const text = await readBoundedText(file.fsPath, FILE_LIMITS.config, 'the config file').catch(() => '');
  const key = uniqueServerName(plan.suggestedName, [...serverNamesIn(text), ...manager.list().map((s) => s.name)]);
  const where = vscode.workspace.asRelativePath(file);
  const confirm = await vscode.window.showWarningMessage(
    `Add "${key}" to ${where}?`,
    {
      modal: true,
      detail:
        `${entry.status === 'deprecated' ? 'This server is deprecated.\n' : ''}It runs:\n${describeEntry(built.entry)}` +
        `${built.inputs.length ? `\n\nAsked at the first start (kept as secrets): ${built.inputs.map((i) => i.id).join(', ')}` : ''}` +
        // The only question before it runs: servers of the user's own configuration are not asked about at their start.
        `${file.toString() === manager.userConfigUri.toString() ? '\n\nIn your user configuration it starts without another question.' : ''}`,
    },
    'Add Server',
  );
  if (confirm !== 'Add Server') return;
  const written = await writeServerEntry(manager, file, key, built.entry, built.inputs);
  afterWrite(manager, written, file, `Installed ${server.name} ${server.version}`);
}
