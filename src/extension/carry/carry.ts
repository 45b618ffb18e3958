// Bringing servers in and carrying them out: MCP: Install MCP Bundle… (a .mcpb from the Explorer, or one the
// registry names), Import into mcp.json… (a server discovered in another app, its secrets turned into password
// inputs) and Export Servers… (the standard client mcp.json of SEP-2633, to the clipboard or a file, inputs left as
// placeholders). Every entry is written keeping the file's comments (core/config/edit.ts).
import * as vscode from 'vscode';
import { addServerEntry, serverNamesIn, uniqueServerName, type InputDefinition, type ServerDefinition } from '../../core/config';
import type { OpenedBundle } from '../../core/bundles';
import { carryModules } from '../../core/carryOnDemand';
import { SOURCE_LABELS } from '../../core/discovery/sourceIds';
import { buildForm, defaultValues, toPayload } from '../../core/forms';
import { readBoundedText } from '../../core/io/boundedRead';
import { FILE_LIMITS } from '../../core/io/limits';
import { describeEntry } from '../../core/registry';
import type { DiscoveredServers } from '../servers/discoveredServers';
import { showFormDialog } from '../panels/formDialog';
import { describeDefinition } from '../servers/serverTrust';
import type { ServerManager } from '../servers/serverManager';

/** Adds a server to a config file (created when missing), its name made unique; returns the name written. */
export async function writeServerEntry(
  manager: ServerManager,
  file: vscode.Uri,
  suggested: string,
  entry: Record<string, unknown>,
  inputs: readonly InputDefinition[],
): Promise<string> {
  const text = await readBoundedText(file.fsPath, FILE_LIMITS.config, 'the config file').catch(() => '');
  const key = uniqueServerName(suggested, [...serverNamesIn(text), ...manager.list().map((s) => s.name)]);
  const updated = addServerEntry(text, key, entry, inputs);
  await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(file, '..'));
  await vscode.workspace.fs.writeFile(file, Buffer.from(updated, 'utf8'));
  await manager.reload();
  return key;
}

/** The user's configuration, or (asked) a workspace folder's. */
async function pickConfigFile(manager: ServerManager, title: string): Promise<vscode.Uri | undefined> {
  const workspace = manager.workspaceConfigUris;
  if (workspace.length === 0) return manager.userConfigUri;
  const picked = await vscode.window.showQuickPick(
    [
      { label: 'User configuration', description: 'every workspace', file: manager.userConfigUri },
      ...workspace.map((file) => ({ label: 'Workspace', description: vscode.workspace.asRelativePath(file), file })),
    ],
    { title, placeHolder: 'Write the server into which mcp.json?' },
  );
  return picked?.file;
}

/** Says what was written, with Start Server and Open Configuration. */
export function afterWrite(manager: ServerManager, key: string, file: vscode.Uri, what: string): void {
  void vscode.window.showInformationMessage(`${what} as "${key}".`, 'Start Server', 'Open Configuration').then(async (choice) => {
    if (choice === 'Start Server') await manager.start(key).catch((e) => manager.reportStartFailure(key, e));
    if (choice === 'Open Configuration') await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file), { preview: true });
  });
}

/** Where the extension keeps installed bundles: its global storage, next to the user configuration. */
export function bundlesFolder(manager: ServerManager): string {
  return vscode.Uri.joinPath(manager.userConfigUri, '..', 'bundles').fsPath;
}

/**
 * Installs a checked bundle: its user_config asked with the form (sensitive values are not: they become
 * `${input:…}` password inputs), the command line shown, then unpacked into global storage and its entry written.
 */
export async function installOpenedBundle(
  manager: ServerManager,
  extensionUri: vscode.Uri,
  opened: OpenedBundle,
  origin: string,
  file?: vscode.Uri,
): Promise<void> {
  const m = opened.manifest;
  const title = `${m.display_name ?? m.name} ${m.version}`;
  const { planBundle, installBundle } = carryModules().bundles;
  const plan = planBundle(m);
  let values: Record<string, unknown> = {};
  const model = buildForm(plan.schema);
  if (model.fields.length > 0) {
    model.title = `Install ${title}`;
    const secrets = plan.fields.some((f) => f.secret);
    model.description = `${m.description}${secrets ? " Its sensitive settings are asked when the server first starts and kept in VS Code's secret storage." : ''}`;
    const answer = await showFormDialog({
      viewType: 'mcpHost.bundleInstall',
      title: `MCP: Install ${title}`,
      extensionUri,
      model,
      values: defaultValues(model),
      init: (v) => ({ kind: 'inputs', heading: { title: `Install ${title}`, server: m.name }, form: model, values: v }),
    });
    if (answer.action !== 'accept') return;
    values = toPayload(model, answer.values);
  }
  const preview = plan.build(values, '<bundle folder>');
  const target = file ?? (await pickConfigFile(manager, `Install ${title}`));
  if (!target) return;
  const confirm = await vscode.window.showWarningMessage(
    `Install the MCP Bundle ${title}?`,
    {
      modal: true,
      detail:
        `${origin}\nIt is unpacked into the extension's storage and runs:\n${describeEntry(preview.entry)}` +
        `${preview.inputs.length ? `\n\nAsked at the first start (kept as secrets): ${preview.inputs.map((i) => i.id).join(', ')}` : ''}`,
    },
    'Install',
  );
  if (confirm !== 'Install') return;
  const folder = await installBundle(opened, bundlesFolder(manager));
  const built = plan.build(values, folder);
  const key = await writeServerEntry(manager, target, plan.suggestedName, built.entry, built.inputs);
  afterWrite(manager, key, target, `Installed the bundle ${title}`);
}

/** MCP: Install MCP Bundle… on a .mcpb (the Explorer's context menu, or a file picked). */
export async function installBundleFile(manager: ServerManager, extensionUri: vscode.Uri, uri?: vscode.Uri): Promise<void> {
  const file = uri ?? (await vscode.window.showOpenDialog({ canSelectMany: false, filters: { 'MCP Bundle': ['mcpb'] }, title: 'Install MCP Bundle' }))?.[0];
  if (!file) return;
  if (file.scheme !== 'file') throw new Error('an MCP Bundle is installed from a file on this machine');
  const opened = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Checking the MCP Bundle…' }, () =>
    carryModules().bundles.openBundleFile(file.fsPath),
  );
  await installOpenedBundle(manager, extensionUri, opened, `${file.fsPath} (sha-256 ${opened.sha256})`);
}

/** MCP: Import into mcp.json…: a discovered server copied into the user's or a workspace's configuration. */
export async function importDiscovered(manager: ServerManager, discovered: DiscoveredServers, name?: string): Promise<void> {
  const all = discovered.all();
  if (all.length === 0) {
    void vscode.window.showInformationMessage('No servers of other apps are shown. Turn a source on in the settings (mcpHost.discovery.*) to see its servers.');
    return;
  }
  const chosen = name
    ? discovered.byName(name)
    : (
        await vscode.window.showQuickPick(
          all.map((e) => ({
            label: e.originalName,
            description: SOURCE_LABELS[e.source],
            detail: describeDefinition(e.definition).split('\n')[0],
            entry: e,
          })),
          { title: 'MCP: Import into mcp.json', placeHolder: 'Which server?' },
        )
      )?.entry;
  if (!chosen) return;
  const def: ServerDefinition = { ...chosen.definition, name: chosen.originalName };
  const imported = carryModules().discovery.importEntry(def);
  const file = await pickConfigFile(manager, `Import ${def.name}`);
  if (!file) return;
  const confirm = await vscode.window.showWarningMessage(
    `Import "${def.name}" from ${SOURCE_LABELS[chosen.source]}?`,
    {
      modal: true,
      detail:
        `${describeDefinition(def)}\n\nInto ${vscode.workspace.asRelativePath(file)}.` +
        `${imported.secrets.length ? `\nNot copied, asked at the first start and kept as secrets: ${imported.secrets.join(', ')}` : ''}`,
    },
    'Import',
  );
  if (confirm !== 'Import') return;
  const key = await writeServerEntry(manager, file, def.name, imported.entry, imported.inputs);
  afterWrite(manager, key, file, `Imported "${def.name}" from ${SOURCE_LABELS[chosen.source]}`);
}

/** MCP: Export Servers…: the standard client mcp.json, to the clipboard or a file; no input's value is looked up. */
export async function exportServers(manager: ServerManager, name?: string): Promise<void> {
  const servers = manager.list();
  if (servers.length === 0) {
    void vscode.window.showInformationMessage('No MCP server is configured: there is nothing to export.');
    return;
  }
  const picked = name
    ? servers.filter((s) => s.name === name)
    : (
        await vscode.window.showQuickPick(
          servers.map((s) => ({ label: s.name, description: vscode.workspace.asRelativePath(s.definition.file), picked: true, server: s })),
          { title: 'MCP: Export Servers', placeHolder: 'Which servers? (the standard mcp.json of SEP-2633)', canPickMany: true },
        )
      )?.map((p) => p.server);
  if (!picked || picked.length === 0) return;
  const { exportStandard, standardText } = carryModules().discovery;
  const result = exportStandard(picked.map((s) => s.definition));
  const text = standardText(result);
  const notes = result.notes.length ? `\n\nLeft out:\n${result.notes.join('\n')}` : '';
  const where = await vscode.window.showInformationMessage(
    `Export ${picked.length === 1 ? `"${picked[0]!.name}"` : `${picked.length} servers`} as a standard mcp.json?`,
    {
      modal: true,
      detail: `Inputs stay placeholders (\${input:…}, \${env:…}); their values are never exported.${notes}`,
    },
    'Copy to Clipboard',
    'Save to File…',
  );
  if (where === 'Copy to Clipboard') {
    await vscode.env.clipboard.writeText(text);
    void vscode.window.showInformationMessage('The servers were copied as a standard mcp.json.');
  } else if (where === 'Save to File…') {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const target = await vscode.window.showSaveDialog({
      title: 'Export MCP Servers',
      filters: { JSON: ['json'] },
      ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, 'mcp.json') } : {}),
    });
    if (!target) return;
    await vscode.workspace.fs.writeFile(target, Buffer.from(text, 'utf8'));
    void vscode.window.showInformationMessage(`Exported to ${vscode.workspace.asRelativePath(target)}.`);
  }
}
