// SEP-2631 in the CLI: the upload progress line on stderr, the file outputs of a result as lines, and
// `--save-files DIR` (each file output downloaded, verified, and saved under a free name).

import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ServerConnection } from '../core/connection';
import { formatBytes } from '../core/files';
import { FILE_OUTPUT_MAX_BYTES } from '../core/files/transfer/http';
import { planSave, resolveSave, resourceContentsView, type ResultLike, type ResultView } from '../core/results';
import type { AuthorizedUploads } from '../core/run';
import { LineReader } from './elicit';
import { terminalText } from './terminal';
import { oneLine } from '../shared/format';

import { TransferFailedError } from '../core/errors';

export { TransferFailedError };

/**
 * A progress reporter for one upload: "uploading NAME: 12 MiB of 200 MiB (6%), 85 MiB/s" on one stderr line,
 * rewritten at most four times a second (on a terminal; elsewhere only every 10%), ended with a newline.
 */
export function uploadProgressLine(stderr: NodeJS.WritableStream, terminal: boolean, name: string, total: number): { onBytes(sent: number): void; destination(host: string): void; done(): void } {
  const started = Date.now();
  let last = 0;
  let lastTenth = -1;
  let shown = false;
  let to = '';
  const line = (sent: number) => {
    const seconds = Math.max((Date.now() - started) / 1000, 0.001);
    const percent = total > 0 ? Math.floor((sent / total) * 100) : 100;
    return `uploading ${terminalText(name)}${to}: ${formatBytes(sent)} of ${formatBytes(total)} (${percent}%), ${formatBytes(Math.round(sent / seconds))}/s`;
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
    destination(host) { to = ` to ${terminalText(host)}`; },
    done() { if (shown) stderr.write('\n'); },
  };
}

/**
 * The CLI's confirmation of authorized uploads, before any byte leaves: "doc: a.bin (200 MiB) uploaded to HOST"
 * for each file on stderr. On a terminal, when a file goes somewhere other than the MCP server's own origin, the
 * user is asked; elsewhere the --file option is the consent. False: the user said no (nothing is sent).
 */
export async function confirmUploads(uploads: AuthorizedUploads, io: { stderr: NodeJS.WritableStream; stdin?: NodeJS.ReadableStream; interactive: boolean },
  server: string, signal?: AbortSignal): Promise<boolean> {
  for (const line of uploads.lines()) io.stderr.write(`${terminalText(line)}\n`);
  if (!io.interactive || !uploads.foreign) return true;
  io.stderr.write(`These files go to storage that ${terminalText(server)} authorized, not to the MCP server itself; your MCP credentials are not sent there.\n`);
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

/** One FileResourceContents downloaded to `target` (a new file), verified. */
export async function saveResourceFile(item: FileItem, connection: ServerConnection, target: string, signal?: AbortSignal): Promise<void> {
  // A file item names its file itself (uri, size, digest): nothing else of the answer is needed.
  const source = resolveSave({}, item.save!);
  if (source.kind !== 'file') throw new TransferFailedError(`${oneLine(item.name)} is not a file to download`);
  try {
    await connection.files.saveFile(source.file, target, { maxBytes: FILE_OUTPUT_MAX_BYTES, ...(signal ? { signal } : {}) });
  } catch (e) {
    throw new TransferFailedError(`saving ${oneLine(item.name)} failed: ${(e as Error).message}; nothing was saved for it`);
  }
}

/**
 * Saves every file output of a result into `dir` (created if needed) under a free name: downloaded through
 * files/authorizeDownload, verified, then linked into place. Returns the saved paths; throws at the first failure.
 */
export async function saveFileOutputs(view: ResultView, result: ResultLike, connection: ServerConnection, dir: string, signal?: AbortSignal): Promise<string[]> {
  const items = fileItems(view);
  if (items.length === 0) return [];
  const folder = resolve(dir);
  await mkdir(folder, { recursive: true });
  const saved: string[] = [];
  for (const item of items) {
    const source = resolveSave(result, item.save!);
    if (source.kind !== 'file') continue;
    const target = await planSave(item.save!, folder);
    try {
      await connection.files.saveFile(source.file, target, { maxBytes: FILE_OUTPUT_MAX_BYTES, ...(signal ? { signal } : {}) });
    } catch (e) {
      throw new TransferFailedError(`saving ${oneLine(item.name)} failed: ${(e as Error).message}; nothing was saved for it`);
    }
    saved.push(target);
  }
  return saved;
}
