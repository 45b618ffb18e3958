// What the user can do with a result: save a file output into the workspace (never overwriting
// silently), open a SEP-2631 file output without saving it (a verified download into a folder of this
// window's own, removed when the extension stops), open a server-named file inside the workspace, download a
// presigned URL after consent, and read a resource link.

import { basename, dirname } from 'node:path';
import { unlink } from 'node:fs/promises';
import * as vscode from 'vscode';
import { formatBytes } from '../../core/files';
import {
  downloadToFile,
  pathInsideWorkspace,
  planSave,
  resolveSave,
  resourceContentsView,
  safeFileName,
  writeNewFile,
  type ResultLike,
  type SaveItem,
} from '../../core/results';
import type { ServerConnection } from '../../core/connection';
import type { FileValue } from '../../core/files';
import { readSettings } from '../settings';
import type { Container } from '../activation/container';
import { oneLine } from '../../shared/format';

/** Downloads name the setting that limits them when they stop at it. */
const MAX_DOWNLOAD_SETTING = 'mcpHost.files.maxDownloadMiB';

function workspaceRoots(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}

/**
 * Asks where to save (a free name in the workspace proposed); a chosen existing file is replaced only
 * after an explicit yes. Returns the path, or undefined when the user backed out.
 */
async function chooseSaveTarget(item: SaveItem, sizeText: string | undefined): Promise<string | undefined> {
  const root = workspaceRoots()[0];
  const proposed = root ? await planSave(item, root) : safeFileName(item.name);
  const target = await vscode.window.showSaveDialog({
    defaultUri: root ? vscode.Uri.file(proposed) : undefined,
    saveLabel: 'Save',
    title: `Save ${safeFileName(item.name)}${sizeText ? ` (${sizeText})` : ''}`,
  });
  if (!target || target.scheme !== 'file') return undefined;
  const exists = await vscode.workspace.fs.stat(target).then(
    () => true,
    () => false,
  );
  if (exists) {
    const choice = await vscode.window.showWarningMessage(`${vscode.workspace.asRelativePath(target)} already exists. Replace it?`, { modal: true }, 'Replace');
    if (choice !== 'Replace') return undefined;
    await unlink(target.fsPath);
  }
  return target.fsPath;
}

export async function saveResultItem(result: ResultLike, item: SaveItem, connect?: () => Promise<ServerConnection>): Promise<string | undefined> {
  const source = resolveSave(result, item);
  if (source.kind === 'file') {
    if (!connect) throw new Error('This file output can only be saved from its tool panel.');
    return saveFileOutput(source.file, item, connect);
  }
  if (source.kind === 'path') {
    if (!(await pathInsideWorkspace(source.path, workspaceRoots()))) {
      void vscode.window.showWarningMessage(`The server names a file outside the workspace (${source.path}); it is not opened.`);
      return undefined;
    }
    await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(source.path));
    return source.path;
  }
  if (source.kind === 'url') {
    let host: string;
    try {
      host = new URL(source.url).host;
    } catch {
      void vscode.window.showErrorMessage('The server gave a download URL that is not valid.');
      return undefined;
    }
    const size = item.size !== undefined ? ` (${formatBytes(item.size)})` : '';
    const consent = await vscode.window.showWarningMessage(
      `Download ${safeFileName(item.name)}${size} from ${host}?`,
      { modal: true, detail: source.url },
      'Download',
    );
    if (consent !== 'Download') return undefined;
    const target = await chooseSaveTarget(item, item.size !== undefined ? formatBytes(item.size) : undefined);
    if (!target) return undefined;
    await downloadToFile(source.url, target, {
      consent: true,
      maxBytes: readSettings().maxDownloadBytes,
      maxBytesName: MAX_DOWNLOAD_SETTING,
      timeoutMs: readSettings().requestTimeoutMs || undefined,
    });
    void vscode.window.showInformationMessage(`Saved ${vscode.workspace.asRelativePath(target)}.`);
    return target;
  }
  const target = await chooseSaveTarget(item, formatBytes(source.bytes.byteLength));
  if (!target) return undefined;
  await vscode.workspace.fs.createDirectory(vscode.Uri.file(dirname(target)));
  await writeNewFile(target, source.bytes);
  void vscode.window.showInformationMessage(`Saved ${vscode.workspace.asRelativePath(target)}.`);
  return target;
}

/**
 * A SEP-2631 file output: nothing is downloaded until the user chose where to save it; then it is downloaded
 * with progress and Cancel, verified (size, sha-256) in a temporary file beside the target, and linked into place.
 */
async function saveFileOutput(file: FileValue, item: SaveItem, connect: () => Promise<ServerConnection>): Promise<string | undefined> {
  const sizeText = file.size !== undefined ? formatBytes(file.size) : undefined;
  const target = await chooseSaveTarget(item, sizeText);
  if (!target) return undefined;
  await downloadWithProgress(file, item, target, await connect());
  void vscode.window
    .showInformationMessage(`Saved ${vscode.workspace.asRelativePath(target)}${file.digest ? ' (sha-256 verified)' : ''}.`, 'Open')
    .then((open) => {
      if (open === 'Open') void vscode.commands.executeCommand('vscode.open', vscode.Uri.file(target));
    });
  return target;
}

/**
 * Opens a SEP-2631 file output in an editor without asking where to save it: downloaded and verified (size,
 * sha-256) like Save…, into this window's own temporary folder (`folder`, removed when the window goes).
 */
export async function openFileOutput(item: SaveItem, connect: () => Promise<ServerConnection>, folder: () => Promise<string>): Promise<void> {
  const source = resolveSave({}, item);
  if (source.kind !== 'file') throw new Error(`${item.name} is not a file output that can be opened.`);
  const target = await planSave(item, await folder());
  await downloadWithProgress(source.file, item, target, await connect());
  await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(target));
}

/** The verified download of a file output to `target` (a new path), under a notification with Cancel. */
async function downloadWithProgress(file: FileValue, item: SaveItem, target: string, connection: ServerConnection): Promise<void> {
  await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `Downloading ${safeFileName(item.name)}`,
      cancellable: true,
    },
    async (progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      let reported = 0;
      await connection.transfers.saveFile(file, target, {
        maxBytes: readSettings().maxDownloadBytes,
        maxBytesName: MAX_DOWNLOAD_SETTING,
        signal: abort.signal,
        onBytes: (n) => {
          if (file.size && n - reported >= file.size / 100) {
            progress.report({ increment: ((n - reported) / file.size) * 100, message: `${formatBytes(n)} of ${formatBytes(file.size)}` });
            reported = n;
          }
        },
      });
    },
  );
}

/** Reads a resource and shows it: text in its read-only `mcp-host-resource:` editor, bytes offered for saving. */
export async function readResourceInEditor(
  window: Pick<Container, 'manager' | 'resourceDocuments' | 'openedFilesFolder'>,
  server: string,
  uri: string,
): Promise<void> {
  const connection = await window.manager.start(server);
  const read = await connection.readResource(uri);
  if ((read.contents ?? []).some((c) => 'text' in c && typeof c.text === 'string')) await window.resourceDocuments.open(server, uri, read);
  // A resource that is a file (SEP-2631): nothing is downloaded until the user picks Save… or Open.
  for (const item of resourceContentsView(read)) {
    if (item.kind !== 'file' || !item.save) continue;
    const size = item.size !== undefined ? `, ${formatBytes(item.size)}` : '';
    const choice = await vscode.window.showInformationMessage(`${server}: ${oneLine(uri)} is a file: ${oneLine(item.name)}${size}.`, 'Save…', 'Open');
    if (choice === 'Save…') await saveResultItem({}, item.save, () => Promise.resolve(connection));
    else if (choice === 'Open')
      await openFileOutput(
        item.save,
        () => Promise.resolve(connection),
        () => window.openedFilesFolder(),
      );
  }
  for (const content of read.contents ?? []) {
    if ('blob' in content && typeof content.blob === 'string') {
      const name = safeFileName(basename(content.uri.replace(/[?#].*$/, '')), 'resource');
      const item: SaveItem = { ref: 'content/0', name, mimeType: content.mimeType, source: 'inline' };
      await saveResultItem({ content: [{ type: 'resource', resource: content }] }, item);
    }
  }
}
