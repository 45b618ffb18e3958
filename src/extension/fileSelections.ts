// The files a user chose for a form's file fields: picked with VS Code's pickers, checked by the
// file engine (stat, size, type), summarised for the webview, read and encoded only when sent.
// The webview only ever sees FileSummary objects; paths and bytes stay here.

import { promises as fsp } from 'node:fs';
import { basename } from 'node:path';
import * as vscode from 'vscode';
import {
  checkFile, describeAccept, effectiveLimit, encodeCheckedFile, fileInputValue, formatBytes, getAtPath, setAtPath,
  type CheckedFile, type FileSlot, type FileUploader, type InlineLimits,
} from '../core/files';
import { startUploadProgress, type UploadProgress } from './uploadProgress';
import { pointer } from '../core/forms';
import type { ChosenFiles, FileSource, FileSummary, FormValues, WebviewNotification } from '../shared/protocol';
import type { McpPanel } from './webviewPanel';
import { byRecency, confirmationDetail, openDialogFilters, workspaceExclude, workspaceGlob } from './fileFilters';

interface ChosenFile {
  file: CheckedFile;
  warnings: string[];
}

export type AddOutcome = { ok: true; files: FileSummary[] } | { ok: false; reason: string };

/** How many workspace files the "From workspace…" pick lists at most. */
const WORKSPACE_PICK_LIMIT = 2000;

export class FileSelections {
  private readonly chosen = new Map<string, ChosenFile[]>();
  private readonly slotsById: Map<string, FileSlot>;

  constructor(slots: readonly FileSlot[], private readonly limits: (slot: FileSlot) => InlineLimits) {
    this.slotsById = new Map(slots.map((s) => [pointer(s.path), s]));
  }

  /** The field id (JSON pointer) of each slot; the webview addresses files by it. */
  get fieldIds(): string[] {
    return [...this.slotsById.keys()];
  }

  slot(field: string): FileSlot | undefined {
    return this.slotsById.get(field);
  }

  /** The most bytes a file of this slot may have (its maxSize, or the transport's ceiling), and why. */
  limitOf(slot: FileSlot): { bytes: number; because: string } {
    return effectiveLimit(slot, this.limits(slot));
  }

  summaries(): ChosenFiles {
    const out: ChosenFiles = {};
    for (const [field, files] of this.chosen) out[field] = files.map(summary);
    return out;
  }

  /** Every chosen file, slot by slot. */
  entries(): { slot: FileSlot; files: CheckedFile[] }[] {
    return [...this.chosen].flatMap(([field, files]) => {
      const slot = this.slotsById.get(field);
      return slot && files.length > 0 ? [{ slot, files: files.map((f) => f.file) }] : [];
    });
  }

  /** Paths by field id, for answers that the core reads itself (elicitation). */
  paths(): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const [field, files] of this.chosen) if (files.length > 0) out[field] = files.map((f) => f.file.path);
    return out;
  }

  /** Checks the files and adds them (a single-file field is replaced); nothing is added when one is refused. */
  async add(field: string, paths: readonly string[]): Promise<AddOutcome> {
    const slot = this.slotsById.get(field);
    if (!slot) return { ok: false, reason: `${field} is not a file field` };
    const checked: ChosenFile[] = [];
    for (const path of paths) {
      const check = await checkFile(path, slot, this.limits(slot));
      if (!check.ok) return { ok: false, reason: check.reason };
      checked.push({ file: check.file, warnings: check.warnings });
    }
    const next = slot.multiple ? [...(this.chosen.get(field) ?? []), ...checked] : checked.slice(-1);
    if (slot.maxItems !== undefined && next.length > slot.maxItems) {
      return { ok: false, reason: `${slot.label}: takes at most ${slot.maxItems} files` };
    }
    this.chosen.set(field, next);
    return { ok: true, files: next.map(summary) };
  }

  remove(field: string, index: number): FileSummary[] {
    const files = this.chosen.get(field) ?? [];
    files.splice(index, 1);
    return files.map(summary);
  }

  clear(): void {
    this.chosen.clear();
  }

  /** The values with each file field set to its files' names, so form validation sees which are filled. */
  withFileNames(values: FormValues): FormValues {
    const copy = structuredClone(values);
    for (const [field, slot] of this.slotsById) {
      const names = (this.chosen.get(field) ?? []).map((f) => f.file.name);
      if (names.length > 0) setAtPath(copy, slot.path, slot.multiple ? names : names[0]);
    }
    return copy;
  }

  /** Errors the form validator cannot see: counts of files in array slots. */
  countErrors(): Record<string, string> {
    const errors: Record<string, string> = {};
    for (const [field, slot] of this.slotsById) {
      const n = this.chosen.get(field)?.length ?? 0;
      if (slot.required && n === 0) errors[field] = `Choose a file (${describeAccept(slot.accept)}).`;
      else if (n > 0 && slot.minItems !== undefined && n < slot.minItems) errors[field] = `Choose at least ${slot.minItems} files.`;
    }
    return errors;
  }

  /** The modal confirmation's detail text. */
  confirmationDetail(server: string, target: string): string {
    const files = this.entries().flatMap(({ slot, files: list }) =>
      list.map((f) => ({ label: slot.label, name: f.name, size: formatBytes(f.size), mediaType: f.mediaType, upload: f.upload === true })));
    return confirmationDetail(files, server, target);
  }

  /** Bytes of the files chosen for a field. */
  totalBytes(field: string): number {
    return (this.chosen.get(field) ?? []).reduce((n, f) => n + f.file.size, 0);
  }

  get count(): number {
    let n = 0;
    for (const files of this.chosen.values()) n += files.length;
    return n;
  }

  /**
   * Reads each chosen file once and sets its encoded value into `args` (a data URI, or a FileInput object),
   * with the filename companion when the user left it empty. The caller drops `args` after dispatch.
   */
  async encodeInto(args: Record<string, unknown>, options: EncodeOptions): Promise<void> {
    const uploads = [...this.entries()].flatMap((e) => e.files.filter((f) => f.upload));
    // Files that go by upload are sent first, under one progress notification with Cancel.
    const progress = uploads.length ? await startUploadProgress(uploads, options.signal) : undefined;
    try {
      await this.encodeEach(args, { ...options, ...(progress ? { signal: progress.signal } : {}) }, progress);
    } finally {
      progress?.done();
    }
  }

  private async encodeEach(args: Record<string, unknown>, options: EncodeOptions, progress: UploadProgress | undefined): Promise<void> {
    for (const { slot, files } of this.entries()) {
      const values: unknown[] = [];
      for (const file of files) values.push(await encodeFile(file, slot, this.limits(slot), options, progress));
      setAtPath(args, slot.path, slot.multiple ? values : values[0]);
      const companion = slot.filenameCompanion;
      if (companion && files.length === 1 && [undefined, ''].includes(getAtPath(args, companion) as string | undefined)) {
        setAtPath(args, companion, files[0].name);
      }
    }
  }
}

export interface EncodeOptions {
  legacyName: boolean;
  workspaceRoots: string[];
  serverIsLocalStdio: boolean;
  /** SEP-2631: the connection's transfer client, for files their check marked for upload. */
  uploader?: FileUploader;
  signal?: AbortSignal;
}

async function encodeFile(file: CheckedFile, slot: FileSlot, limits: InlineLimits, options: EncodeOptions, progress?: UploadProgress): Promise<unknown> {
  if (slot.origin !== 'file-input-object') {
    return encodeCheckedFile(file, slot, limits, {
      legacyName: options.legacyName,
      ...(options.uploader ? { uploader: options.uploader } : {}), ...(options.signal ? { signal: options.signal } : {}),
      ...(progress ? { onUploadBytes: (sent: number) => progress.report(file, sent), onDestination: (host: string) => progress.destination(host) } : {}),
    });
  }
  const modes = slot.objectModes ?? [];
  const mode = modes.includes('content') ? 'content' : modes.includes('path') ? 'path' : 's3';
  return fileInputValue(file, slot, { mode, workspaceRoots: options.workspaceRoots, serverIsLocalStdio: options.serverIsLocalStdio, limits });
}

function summary(chosen: ChosenFile): FileSummary {
  return { name: chosen.file.name, size: chosen.file.size, mediaType: chosen.file.mediaType, warnings: chosen.warnings };
}

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
  const hiddenNote = hidden > 0
    ? `${hidden}${all!.length >= WORKSPACE_PICK_LIMIT ? '+' : ''} ${hidden === 1 ? 'file' : 'files'} of other types not listed; Browse… chooses any file`
    : '';
  const items: WorkspaceFileItem[] = [];
  await Promise.all(uris.filter((u) => u.scheme === 'file').map(async (uri) => {
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
  }));
  if (items.length === 0) {
    void vscode.window.showInformationMessage(`No workspace file matches ${describeAccept(slot.accept)}${hidden ? ` (${hiddenNote.replace(/; Browse….*/, '')})` : ''}. Use Browse… to choose a file elsewhere.`);
    return undefined;
  }
  const sorted = byRecency(items);
  const title = `${slot.title ?? slot.label}: ${describeAccept(slot.accept)}${hiddenNote ? ` · ${hiddenNote}` : ''}`;
  if (slot.multiple) {
    const picked = await vscode.window.showQuickPick(sorted, {
      canPickMany: true, matchOnDescription: true, title,
      placeHolder: 'Choose workspace files (most recently changed first)',
    });
    return picked && picked.length > 0 ? picked.map((p) => p.path) : undefined;
  }
  const picked = await vscode.window.showQuickPick(sorted, {
    matchOnDescription: true, title,
    placeHolder: 'Choose a workspace file (most recently changed first)',
  });
  return picked ? [picked.path] : undefined;
}

/** Panels with a picker open. */
const busyPanels = new WeakSet<McpPanel>();

/** Answers a panel's `pickFile` / `removeFile`: runs the picker, checks, and posts the summaries or the refusal. */
export async function handleFileMessage(
  panel: McpPanel,
  files: FileSelections,
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
    panel.post(outcome.ok
      ? { type: 'fileSelected', field: message.field, files: outcome.files }
      : { type: 'fileRefused', field: message.field, reason: outcome.reason });
  } finally {
    busyPanels.delete(panel);
  }
}
