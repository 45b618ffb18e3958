// The one way the host reads a whole file a user named (config, envFile, answers file): opened without
// blocking, refused unless the opened descriptor is a regular file, refused over a stated size.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { formatBytes as formatSize } from '../files/limits';
import { HostError } from '../errors';

/** A file the host would not read: not a regular file, too large, or unreadable. The message names the file. */
export class FileReadError extends HostError {
  static override readonly brand: string = 'FileReadError';
  constructor(
    message: string,
    readonly path: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

function notRegular(path: string, what: string, stats: { isDirectory(): boolean; isFIFO(): boolean }): FileReadError {
  const kind = stats.isDirectory() ? ' (it is a folder)' : stats.isFIFO() ? ' (it is a pipe)' : '';
  return new FileReadError(`${what} ${path} is not a regular file${kind}`, path, 'ENOTREG');
}

// O_NONBLOCK: opening a FIFO with no writer (or a device) returns at once instead of blocking a thread.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/**
 * Opens `path` for reading without blocking and checks (fstat on the opened descriptor, so a file swapped
 * after an earlier check is judged as it is now) that it is a regular file. The caller closes the handle.
 */
export async function openRegularFile(path: string, what = 'the file'): Promise<{ handle: FileHandle; size: number; mtimeMs: number }> {
  let handle: FileHandle;
  try {
    handle = await open(path, OPEN_FLAGS);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new FileReadError(`cannot read ${what} ${path} (${code === 'ENOENT' ? 'it does not exist' : (code ?? (e as Error).message)})`, path, code);
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw notRegular(path, what, stats);
    return { handle, size: stats.size, mtimeMs: stats.mtimeMs };
  } catch (e) {
    await handle.close().catch(() => undefined);
    throw e;
  }
}

/**
 * Reads a whole regular file of at most `maxBytes` (refused before reading when its size says more, and
 * while reading when it grows past the limit). `what` names the file in errors ("the config file").
 */
export async function readBoundedFile(path: string, maxBytes: number, what = 'the file'): Promise<Buffer> {
  const { handle, size } = await openRegularFile(path, what);
  try {
    const tooLarge = (n: string) => new FileReadError(`${what} ${path} is ${n}; at most ${formatSize(maxBytes)} is read`, path, 'EFBIG');
    if (size > maxBytes) throw tooLarge(formatSize(size));
    // One byte more than the size says, to see growth; files that report no size (procfs) grow the buffer.
    let buffer = Buffer.allocUnsafe(Math.min(maxBytes + 1, Math.max(size + 1, 64 * 1024)));
    let total = 0;
    for (;;) {
      if (total === buffer.length) {
        const bigger = Buffer.allocUnsafe(Math.min(maxBytes + 1, buffer.length * 2));
        buffer.copy(bigger, 0, 0, total);
        buffer = bigger;
      }
      const { bytesRead } = await handle.read(buffer, total, buffer.length - total, total);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > maxBytes) throw tooLarge(`over ${formatSize(maxBytes)}`);
    }
    return buffer.subarray(0, total);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** A bounded file as text: UTF-8, a leading byte order mark dropped (as VS Code reads mcp.json). */
export async function readBoundedText(path: string, maxBytes: number, what = 'the file'): Promise<string> {
  const text = (await readBoundedFile(path, maxBytes, what)).toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * `readBoundedText` for callers that must decide before anything else starts (the CLI's options, the extension's
 * server configuration). Opening does not block either: a FIFO or a device is refused from the opened descriptor,
 * before any read.
 */
export function readBoundedTextSync(path: string, maxBytes: number, what = 'the file'): string {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new FileReadError(`cannot read ${what} ${path} (${code === 'ENOENT' ? 'it does not exist' : (code ?? (e as Error).message)})`, path, code);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw notRegular(path, what, stats);
    const tooLarge = (n: string) => new FileReadError(`${what} ${path} is ${n}; at most ${formatSize(maxBytes)} is read`, path, 'EFBIG');
    if (stats.size > maxBytes) throw tooLarge(formatSize(stats.size));
    // sized as readBoundedFile sizes it: a buffer of the limit would be 16 MiB for a config file of a few hundred bytes
    let buffer = Buffer.allocUnsafe(Math.min(maxBytes + 1, Math.max(stats.size + 1, 64 * 1024)));
    let total = 0;
    for (;;) {
      if (total === buffer.length) {
        const bigger = Buffer.allocUnsafe(Math.min(maxBytes + 1, buffer.length * 2));
        buffer.copy(bigger, 0, 0, total);
        buffer = bigger;
      }
      const n = readSync(fd, buffer, total, buffer.length - total, total);
      if (n === 0) break;
      total += n;
      if (total > maxBytes) throw tooLarge(`over ${formatSize(maxBytes)}`);
    }
    const text = buffer.toString('utf8', 0, total);
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } finally {
    closeSync(fd);
  }
}
