// VS Code's pickers for a form's file fields; the chosen files are kept (checked, summarised, encoded when
// sent) by the core's FileChoices. The webview only ever sees FileSummary objects; paths and bytes stay here.

import { promises as fsp } from 'node:fs';
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { describeAccept, formatBytes, type FileSlot } from '../core/files';
import type { FileChoices } from '../core/run';
import type { FileSource, WebviewNotification } from '../shared/protocol';
import type { McpPanel } from './webviewPanel';
import { byRecency, confirmationDetail, openDialogFilters, workspaceExclude, workspaceGlob } from './fileFilters';

/** The modal confirmation's detail text for the files chosen. */
export function filesConfirmationDetail(files: FileChoices, server: string, target: string): string {
  const list = files.entries().flatMap(({ slot, files: chosen }) =>
    chosen.map((f) => ({ label: slot.label, name: f.name, size: formatBytes(f.size), mediaType: f.mediaType })));
  return confirmationDetail(list, server, target);
}

/** How many workspace files the "From workspace…" pick lists at most. */
const WORKSPACE_PICK_LIMIT = 2000;

/** Runs the picker the webview asked for; the local paths chosen, or undefined when dismissed. */
export function pickFiles(source: FileSource, slot: FileSlot): Promise<string[] | undefined> {
  return source === 'workspace' ? pickFromWorkspace(slot) : browseForFiles(slot);
}

async function browseForFiles(slot: FileSlot): Promise<string[] | undefined> {
  const uris = await vscode.window.showOpenDialog({
    canSelectFiles: true,
    canSelectFolders: false,
    canSelectMany: slot.multiple,
    defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
    filters: openDialogFilters(slot.accept, describeAccept(slot.accept)),
    openLabel: `Choose for ${slot.title ?? slot.label}`,
    title: `${slot.title ?? slot.label}: ${describeAccept(slot.accept)}`,
  });
  const paths = uris?.filter((u) => u.scheme === 'file').map((u) => u.fsPath);
  return paths && paths.length > 0 ? paths : undefined;
}

interface WorkspaceFileItem extends vscode.QuickPickItem {
  path: string;
  mtimeMs: number;
}

async function pickFromWorkspace(slot: FileSlot): Promise<string[] | undefined> {
  const filesExclude = vscode.workspace.getConfiguration('files').get<Record<string, unknown>>('exclude');
  const uris = await vscode.workspace.findFiles(workspaceGlob(slot.accept), workspaceExclude(filesExclude), WORKSPACE_PICK_LIMIT);
  const items: WorkspaceFileItem[] = [];
  await Promise.all(uris.filter((u) => u.scheme === 'file').map(async (uri) => {
    try {
      const stats = await fsp.stat(uri.fsPath);
      items.push({
        label: basename(uri.fsPath),
        description: vscode.workspace.asRelativePath(uri, true),
        detail: formatBytes(stats.size),
        iconPath: vscode.ThemeIcon.File,
        path: uri.fsPath,
        mtimeMs: stats.mtimeMs,
      });
    } catch {
      // Gone since the search: not offered.
    }
  }));
  if (items.length === 0) {
    void vscode.window.showInformationMessage(`No workspace file matches ${describeAccept(slot.accept)}. Use Browse… to choose a file elsewhere.`);
    return undefined;
  }
  const sorted = byRecency(items);
  if (slot.multiple) {
    const picked = await vscode.window.showQuickPick(sorted, {
      canPickMany: true, matchOnDescription: true, title: `${slot.title ?? slot.label}: ${describeAccept(slot.accept)}`,
      placeHolder: 'Choose workspace files (most recently changed first)',
    });
    return picked && picked.length > 0 ? picked.map((p) => p.path) : undefined;
  }
  const picked = await vscode.window.showQuickPick(sorted, {
    matchOnDescription: true, title: `${slot.title ?? slot.label}: ${describeAccept(slot.accept)}`,
    placeHolder: 'Choose a workspace file (most recently changed first)',
  });
  return picked ? [picked.path] : undefined;
}

/** Panels with a picker open. */
const busyPanels = new WeakSet<McpPanel>();

/** Answers a panel's `pickFile` / `removeFile`: runs the picker, checks, and posts the summaries or the refusal. */
export async function handleFileMessage(
  panel: McpPanel,
  files: FileChoices,
  message: Extract<WebviewNotification, { type: 'pickFile' | 'removeFile' }>,
): Promise<void> {
  const slot = files.slot(message.field);
  // A double click must not open a second picker (or change the files while one is open).
  if (!slot || busyPanels.has(panel)) return;
  if (message.type === 'removeFile') {
    panel.post({ type: 'fileSelected', field: message.field, files: files.remove(message.field, message.index) });
    return;
  }
  busyPanels.add(panel);
  try {
    const paths = await pickFiles(message.source, slot);
    if (!paths) return;
    const outcome = await files.add(message.field, paths);
    panel.post(outcome.ok
      ? { type: 'fileSelected', field: message.field, files: outcome.files }
      : { type: 'fileRefused', field: message.field, reason: outcome.reason });
  } finally {
    busyPanels.delete(panel);
  }
}
