// The progress notification of SEP-2631 uploads: bytes sent, of how many, and the rate, with Cancel. Cancel
// (or the caller's own signal, the panel's Cancel) aborts the upload; the tool is then not called.

import * as vscode from 'vscode';
import { formatBytes, type CheckedFile } from '../../core/files';
import { linkAbort } from '../../core/events';

export interface UploadProgress {
  /** Aborted by the notification's Cancel or by the caller's signal. */
  signal: AbortSignal;
  report(file: CheckedFile, sent: number): void;
  /** The host the bytes go to (shown in the notification). */
  destination(host: string): void;
  done(): void;
}

/** Shows one notification for the uploads of one call; resolves once it is on screen. */
export async function startUploadProgress(files: readonly CheckedFile[], outer?: AbortSignal): Promise<UploadProgress> {
  const abort = linkAbort(outer);
  const total = files.reduce((n, f) => n + f.size, 0);
  const sentBefore = new Map<CheckedFile, number>();
  let offset = 0;
  for (const f of files) {
    sentBefore.set(f, offset);
    offset += f.size;
  }
  const started = Date.now();
  let finish!: () => void;
  let shown!: (p: vscode.Progress<{ message?: string; increment?: number }>) => void;
  const onScreen = new Promise<vscode.Progress<{ message?: string; increment?: number }>>((r) => {
    shown = r;
  });
  const title = files.length === 1 ? `Uploading ${files[0]!.name}` : `Uploading ${files.length} files`;
  void vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (progress, token) => {
    token.onCancellationRequested(() => abort.abort());
    shown(progress);
    return new Promise<void>((resolve) => {
      finish = resolve;
    });
  });
  const progress = await onScreen;
  let reportedPercent = 0;
  let lastAt = 0;
  let to = '';
  return {
    signal: abort.signal,
    report(file, sent) {
      const now = Date.now();
      const done = (sentBefore.get(file) ?? 0) + sent;
      if (now - lastAt < 200 && done < total) return;
      lastAt = now;
      const percent = total > 0 ? (done / total) * 100 : 100;
      const rate = done / Math.max((now - started) / 1000, 0.001);
      progress.report({
        increment: percent - reportedPercent,
        message: `${to}${formatBytes(done)} of ${formatBytes(total)}, ${formatBytes(Math.round(rate))}/s`,
      });
      reportedPercent = percent;
    },
    destination(host) {
      to = `to ${host}: `;
      progress.report({ message: `${to}starting` });
    },
    done() {
      abort.dispose();
      finish();
    },
  };
}

/**
 * Reports the digesting of files before their upload is authorized into a progress notification: "digesting
 * NAME: 12 GiB of 64 GiB", at most five times a second, with increments so the bar moves.
 */
export function digestProgressReporter(
  files: readonly CheckedFile[],
  progress: vscode.Progress<{ message?: string; increment?: number }>,
): (file: CheckedFile, read: number) => void {
  const total = files.reduce((n, f) => n + f.size, 0);
  const readBefore = new Map<CheckedFile, number>();
  let offset = 0;
  for (const f of files) {
    readBefore.set(f, offset);
    offset += f.size;
  }
  let reportedPercent = 0;
  let lastAt = 0;
  return (file, read) => {
    const now = Date.now();
    if (now - lastAt < 200 && read < file.size) return;
    lastAt = now;
    const percent = total > 0 ? (((readBefore.get(file) ?? 0) + read) / total) * 100 : 100;
    progress.report({ increment: percent - reportedPercent, message: `digesting ${file.name}: ${formatBytes(read)} of ${formatBytes(file.size)}` });
    reportedPercent = percent;
  };
}
