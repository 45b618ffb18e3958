// VS Code's pickers for a form's file fields; the chosen files are kept (checked, summarised, encoded when
// sent) by the core's FileChoices. The webview only ever sees FileSummary objects; paths and bytes stay here.

import { promises as fsp } from 'node:fs';
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { describeAccept, formatBytes, type FileSlot } from '../../core/files';
import type { AuthorizedUploads, FileChoices } from '../../core/run';
import type { FileSource, WebviewNotification } from '../../shared/protocol';
import type { WebviewHost } from './webviewHost';
import { byRecency, confirmationDetail, openDialogFilters, workspaceExclude, workspaceGlob } from './fileFilters';

/** The modal confirmation's detail text for the files chosen. */
export function filesConfirmationDetail(files: FileChoices, server: string, target: string, uploads?: AuthorizedUploads): string {
  const list = files.entries().flatMap(({ slot, files: chosen }) =>
    chosen.map((f) => {
      const uploadHost = uploads?.hostOf(f);
      return { label: slot.label, name: f.name, size: formatBytes(f.size), mediaType: f.mediaType, ...(uploadHost ? { uploadHost } : {}) };
    }),
  );
  return confirmationDetail(list, server, target);
}

/** How many workspace files the "From workspace…" pick lists at most. */
const WORKSPACE_PICK_LIMIT = 2000;

/** Runs the picker the webview asked for; the local paths chosen, or undefined when dismissed. */
export function pickFiles(source: FileSource, slot: FileSlot, limitBytes = Infinity): Promise<string[] | undefined> {
  return source === 'workspace' ? pickFromWorkspace(slot, limitBytes) : browseForFiles(slot);
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

/**
 * "From workspace…": the files whose extension fits the slot, newest first. A file over the slot's limit is
 * marked (it would be refused); the title says how many files of other types are not listed, and that
 * Browse… chooses any file.
 */
async function pickFromWorkspace(slot: FileSlot, limitBytes: number): Promise<string[] | undefined> {
  const filesExclude = vscode.workspace.getConfiguration('files').get<Record<string, unknown>>('exclude');
  const exclude = workspaceExclude(filesExclude);
  const glob = workspaceGlob(slot.accept);
  const [uris, all] = await Promise.all([
    vscode.workspace.findFiles(glob, exclude, WORKSPACE_PICK_LIMIT),
    glob === '**/*' ? undefined : vscode.workspace.findFiles('**/*', exclude, WORKSPACE_PICK_LIMIT),
  ]);
  const hidden = all ? Math.max(0, all.length - uris.length) : 0;
  const hiddenNote =
    hidden > 0
      ? `${hidden}${all!.length >= WORKSPACE_PICK_LIMIT ? '+' : ''} ${hidden === 1 ? 'file' : 'files'} of other types not listed; Browse… chooses any file`
      : '';
  const items: WorkspaceFileItem[] = [];
  await Promise.all(
    uris
      .filter((u) => u.scheme === 'file')
      .map(async (uri) => {
        try {
          const stats = await fsp.stat(uri.fsPath);
          const over = stats.size > limitBytes;
          items.push({
            label: basename(uri.fsPath),
            description: vscode.workspace.asRelativePath(uri, true),
            detail: over ? `${formatBytes(stats.size)}: over this slot's ${formatBytes(limitBytes)} limit, it would be refused` : formatBytes(stats.size),
            iconPath: over ? new vscode.ThemeIcon('warning') : vscode.ThemeIcon.File,
            path: uri.fsPath,
            mtimeMs: stats.mtimeMs,
          });
        } catch {
          // Gone since the search: not offered.
        }
      }),
  );
  if (items.length === 0) {
    void vscode.window.showInformationMessage(
      `No workspace file matches ${describeAccept(slot.accept)}${hidden ? ` (${hiddenNote.replace(/; Browse\u2026.*/, '')})` : ''}. Use Browse… to choose a file elsewhere.`,
    );
    return undefined;
  }
  const sorted = byRecency(items);
  const title = `${slot.title ?? slot.label}: ${describeAccept(slot.accept)}${hiddenNote ? ` · ${hiddenNote}` : ''}`;
  if (slot.multiple) {
    const picked = await vscode.window.showQuickPick(sorted, {
      canPickMany: true,
      matchOnDescription: true,
      title,
      placeHolder: 'Choose workspace files (most recently changed first)',
    });
    return picked && picked.length > 0 ? picked.map((p) => p.path) : undefined;
  }
  const picked = await vscode.window.showQuickPick(sorted, {
    matchOnDescription: true,
    title,
    placeHolder: 'Choose a workspace file (most recently changed first)',
  });
  return picked ? [picked.path] : undefined;
}

/** Panels with a picker open. */
const busyPanels = new WeakSet<WebviewHost>();

/** Answers a panel's `pickFile` / `removeFile`: runs the picker, checks, and posts the summaries or the refusal. */
export async function handleFileMessage(
  panel: WebviewHost,
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
    const paths = await pickFiles(message.source, slot, files.limitOf(slot).bytes);
    if (!paths) return;
    const outcome = await files.add(message.field, paths);
    panel.post(
      outcome.ok ? { type: 'fileSelected', field: message.field, files: outcome.files } : { type: 'fileRefused', field: message.field, reason: outcome.reason },
    );
  } finally {
    busyPanels.delete(panel);
  }
}
