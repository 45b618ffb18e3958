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

/** `what` at `path` is `size` ("20 MiB", "over 16 MiB"), more than `maxBytes`. */
function tooLargeError(path: string, what: string, size: string, maxBytes: number): FileReadError {
  return new FileReadError(`${what} ${path} is ${size}; at most ${formatSize(maxBytes)} is read`, path, 'EFBIG');
}

/**
 * The buffer a bounded read starts with: one byte more than the file's size, to see it grow, and not the whole limit
 * (16 MiB for a config file of a few hundred bytes); files that report no size (procfs) start at 64 KiB.
 */
function firstBuffer(size: number, maxBytes: number): Buffer {
  return Buffer.allocUnsafe(Math.min(maxBytes + 1, Math.max(size + 1, 64 * 1024)));
}

/** `buffer`, or a copy twice as large (up to one byte over the limit) when its `filled` bytes leave no room. */
function roomAfter(buffer: Buffer, filled: number, maxBytes: number): Buffer {
  if (filled < buffer.length) return buffer;
  const bigger = Buffer.allocUnsafe(Math.min(maxBytes + 1, buffer.length * 2));
  buffer.copy(bigger, 0, 0, filled);
  return bigger;
}

/**
 * Reads a whole regular file of at most `maxBytes` (refused before reading when its size says more, and
 * while reading when it grows past the limit). `what` names the file in errors ("the config file").
 */
export async function readBoundedFile(path: string, maxBytes: number, what = 'the file'): Promise<Buffer> {
  const { handle, size } = await openRegularFile(path, what);
  try {
    const tooLarge = (size: string) => tooLargeError(path, what, size, maxBytes);
    if (size > maxBytes) throw tooLarge(formatSize(size));
    let buffer = firstBuffer(size, maxBytes);
    let total = 0;
    for (;;) {
      buffer = roomAfter(buffer, total, maxBytes);
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
    const tooLarge = (size: string) => tooLargeError(path, what, size, maxBytes);
    if (stats.size > maxBytes) throw tooLarge(formatSize(stats.size));
    let buffer = firstBuffer(stats.size, maxBytes);
    let total = 0;
    for (;;) {
      buffer = roomAfter(buffer, total, maxBytes);
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
