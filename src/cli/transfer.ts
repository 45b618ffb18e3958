// SEP-2631 in the CLI: the upload progress line on stderr, the file outputs of a result as lines, and
// `--save-files DIR` (each file output downloaded, verified, and saved under a free name).

import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ServerConnection } from '../core/connection';
import { formatBytes } from '../core/files';
import type { SaveFileOptions } from '../core/files/transfer/client';
import { removeStaleParts } from '../core/files/transfer/http';
import { planSave, resolveSave, resourceContentsView, type ResultLike, type ResultView } from '../core/results';
import type { AuthorizedUploads } from '../core/run';
import { LineReader } from './elicit';
import { terminalText } from './terminal';
import { oneLine } from '../shared/format';

import { CallCancelledError, TransferFailedError } from '../core/errors';

export { TransferFailedError };

/**
 * A progress reporter for one upload: "uploading NAME: 12 MiB of 200 MiB (6%), 85 MiB/s" on one stderr line,
 * rewritten at most four times a second (on a terminal; elsewhere only every 10%), ended with a newline.
 */
export function uploadProgressLine(
  stderr: NodeJS.WritableStream,
  terminal: boolean,
  name: string,
  total: number,
  verb = 'uploading',
): { onBytes(sent: number): void; destination(host: string): void; done(): void } {
  const started = Date.now();
  let last = 0;
  let lastTenth = -1;
  let shown = false;
  let to = '';
  const line = (sent: number) => {
    const seconds = Math.max((Date.now() - started) / 1000, 0.001);
    const percent = total > 0 ? Math.floor((sent / total) * 100) : 100;
    return `${verb} ${terminalText(name)}${to}: ${formatBytes(sent)} of ${formatBytes(total)} (${percent}%), ${formatBytes(Math.round(sent / seconds))}/s`;
  };
  return {
    onBytes(sent) {
      const now = Date.now();
      if (terminal) {
        if (now - last < 250 && sent < total) return;
        last = now;
        stderr.write(`\r${line(sent)}\x1b[K`);
        shown = true;
      } else {
        const tenth = total > 0 ? Math.floor((sent / total) * 10) : 10;
        if (tenth === lastTenth) return;
        lastTenth = tenth;
        stderr.write(`${line(sent)}\n`);
      }
    },
    destination(host) {
      to = ` to ${terminalText(host)}`;
    },
    done() {
      if (shown) stderr.write('\n');
    },
  };
}

/** Files at least this large show a line while they are digested before their upload is authorized. */
const DIGEST_PROGRESS_FROM_BYTES = 64 * 1024 * 1024;

/**
 * The progress of digesting files before their upload is authorized: "digesting NAME (sha-256): 12 GiB of 64 GiB
 * (18%), 1.2 GiB/s" on stderr, like the upload line (interrupt stops it). Small files show nothing.
 */
export function digestProgressLines(
  stderr: NodeJS.WritableStream,
  terminal: boolean,
): { onDigestBytes(file: { name: string; size: number }, read: number): void; done(): void } {
  let current: { file: { name: string; size: number }; line: ReturnType<typeof uploadProgressLine> } | undefined;
  return {
    onDigestBytes(file, read) {
      if (file.size < DIGEST_PROGRESS_FROM_BYTES) return;
      if (current?.file !== file) {
        current?.line.done();
        current = { file, line: uploadProgressLine(stderr, terminal, `${file.name} (sha-256)`, file.size, 'digesting') };
      }
      current.line.onBytes(read);
    },
    done() {
      current?.line.done();
      current = undefined;
    },
  };
}

/**
 * The CLI's confirmation of authorized uploads, before any byte leaves: "doc: a.bin (200 MiB) uploaded to HOST"
 * for each file on stderr. On a terminal, when a file goes somewhere other than the MCP server's own origin, the
 * user is asked; elsewhere the --file option is the consent. False: the user said no (nothing is sent).
 */
export async function confirmUploads(
  uploads: AuthorizedUploads,
  io: { stderr: NodeJS.WritableStream; stdin?: NodeJS.ReadableStream; interactive: boolean },
  server: string,
  signal?: AbortSignal,
): Promise<boolean> {
  for (const line of uploads.lines()) io.stderr.write(`${terminalText(line)}\n`);
  if (!io.interactive || !uploads.foreign) return true;
  io.stderr.write(
    `These files go to storage that ${terminalText(server)} authorized, not to the MCP server itself; your MCP credentials are not sent there.\n`,
  );
  const reader = new LineReader(io.stdin ?? process.stdin);
  for (;;) {
    io.stderr.write('Upload and call? [y]es, [n]o: ');
    const answer = (await reader.next(signal ?? new AbortController().signal)).trim().toLowerCase();
    if (answer.startsWith('y')) return true;
    if (answer.startsWith('n')) return false;
  }
}

function fileItems(view: ResultView) {
  return view.items.filter((i): i is Extract<ResultView['items'][number], { kind: 'file' }> => i.kind === 'file');
}

/** `[file NAME, SIZE, TYPE, URI]` for each file output, on one line (terminal-safe by the caller). */
export function fileOutputLine(item: { name: string; uri: string; mimeType?: string; size?: number; digest: boolean }): string {
  const size = item.size !== undefined ? `${formatBytes(item.size)}` : 'size not given';
  return oneLine(`[file ${item.name}, ${size}, ${item.mimeType ?? 'type not given'}, ${item.uri}${item.digest ? '' : ', no digest'}]`);
}

type FileItem = ReturnType<typeof fileItems>[number];

/** The FileResourceContents of a resources/read answer, as the result view's file items. */
export function resourceFiles(read: { contents?: unknown[] }): FileItem[] {
  return resourceContentsView(read).filter((i): i is FileItem => i.kind === 'file');
}

/** File items as a result view, for saveFileOutputs. */
export function resultOfItems(items: FileItem[]): ResultView {
  return { isError: false, items, saves: [], warnings: [] };
}

/** How file outputs are downloaded: the size limit for files of no stated size (--max-download) and the deadline's base (--timeout). */
export type DownloadLimits = Pick<SaveFileOptions, 'maxBytes' | 'timeoutMs'>;

/** The download limits of the CLI's options: --max-download, and --timeout as the deadline's base. */
export function downloadLimits(options: { maxDownload?: number; timeoutMs?: number }): DownloadLimits {
  return {
    ...(options.maxDownload !== undefined ? { maxBytes: options.maxDownload } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  };
}

function saveOptions(limits: DownloadLimits, signal: AbortSignal | undefined): SaveFileOptions {
  return {
    ...(limits.maxBytes !== undefined ? { maxBytes: limits.maxBytes, maxBytesName: '--max-download' } : { maxBytesName: 'the default of --max-download' }),
    ...(limits.timeoutMs !== undefined ? { timeoutMs: limits.timeoutMs } : {}),
    ...(signal ? { signal } : {}),
  };
}

/** A download that did not end in a saved file: cancelled (Ctrl-C, exit 130) or failed (exit 5); nothing was kept. */
function saveFailure(name: string, e: unknown, signal: AbortSignal | undefined): Error {
  if (signal?.aborted) return new CallCancelledError(`saving ${oneLine(name)} was cancelled; nothing was saved for it`, { cause: e });
  return new TransferFailedError(`saving ${oneLine(name)} failed: ${(e as Error).message}; nothing was saved for it`);
}

/** One FileResourceContents downloaded to `target` (a new file), verified. */
export async function saveResourceFile(
  item: FileItem,
  connection: ServerConnection,
  target: string,
  signal?: AbortSignal,
  limits: DownloadLimits = {},
): Promise<void> {
  // A file item names its file itself (uri, size, digest): nothing else of the answer is needed.
  const source = resolveSave({}, item.save!);
  if (source.kind !== 'file') throw new TransferFailedError(`${oneLine(item.name)} is not a file to download`);
  try {
    await connection.transfers.saveFile(source.file, target, saveOptions(limits, signal));
  } catch (e) {
    throw saveFailure(item.name, e, signal);
  }
}

/**
 * Saves every file output of a result into `dir` (created if needed) under a free name (first removing the
 * partial downloads a killed run left there): downloaded through
 * files/authorizeDownload, verified, then linked into place. Returns the saved paths; throws at the first failure.
 */
export async function saveFileOutputs(
  view: ResultView,
  result: ResultLike,
  connection: ServerConnection,
  dir: string,
  signal?: AbortSignal,
  limits: DownloadLimits = {},
): Promise<string[]> {
  const items = fileItems(view);
  const folder = resolve(dir);
  // What a killed earlier run left in the folder goes, even when this result has no file to save.
  await removeStaleParts(folder);
  if (items.length === 0) return [];
  await mkdir(folder, { recursive: true });
  const saved: string[] = [];
  for (const item of items) {
    const source = resolveSave(result, item.save!);
    if (source.kind !== 'file') continue;
    const target = await planSave(item.save!, folder);
    try {
      await connection.transfers.saveFile(source.file, target, saveOptions(limits, signal));
    } catch (e) {
      throw saveFailure(item.name, e, signal);
    }
    saved.push(target);
  }
  return saved;
}
