// Checking a chosen file against its slot before anything is read or sent, then reading it once.
// Order matters: stat first (a file over the limit is refused without reading a byte), then a small
// header read to learn the content type, then (only on send) one full read and one base64 pass.

import { promises as fsp } from 'node:fs';
import { basename, extname } from 'node:path';
import { filetypeinfo } from 'magic-bytes.js';
import { lookup as mimeLookup } from 'mime-types';
import { describeAccept, matchesAccept } from './accept';
import { encodeDataUri } from './dataUri';
import { formatBytes, type InlineLimits } from './limits';
import type { FileSlot } from './slots';

/** A file that passed its checks: identity and types, never its bytes. Plain JSON. */
export interface CheckedFile {
  path: string;
  name: string;
  size: number;
  /** The type that will be sent: the content's type when known (the extension's when it refines a container such as zip), else the extension's, else octet-stream. */
  mediaType: string;
  /** From the file name. */
  extensionType?: string;
  /** From the first bytes. */
  contentType?: string;
  mtimeMs: number;
}

export type FileCheck =
  | { ok: true; file: CheckedFile; warnings: string[] }
  | { ok: false; reason: string };

const HEADER_BYTES = 4100;
// Files up to this size are read in one call; larger ones in pieces of it (one giant read measured slower).
const READ_CHUNK_BYTES = 8 * 1024 * 1024;

/** Content types that only say "a container": the extension's more specific type is kept when present. */
const GENERIC_CONTENT = new Set(['application/zip', 'application/xml', 'text/xml', 'application/x-cfb', 'application/x-ole-storage']);

export interface TypeVerdict {
  mediaType: string;
  extensionType?: string;
  contentType?: string;
  /** Set when the name and the bytes disagree. */
  disagreement?: string;
}

/** Decides a file's type from its name and its first bytes. */
export function decideType(fileName: string, header: Uint8Array): TypeVerdict {
  const looked = mimeLookup(fileName);
  const extensionType = looked ? looked.toLowerCase() : undefined;
  const ext = extname(fileName).slice(1).toLowerCase();
  const candidates = header.length > 0 ? filetypeinfo(header).filter((c) => c.mime) : [];
  if (candidates.length === 0) return { mediaType: extensionType ?? 'application/octet-stream', extensionType };
  const agrees = candidates.some((c) => c.mime?.toLowerCase() === extensionType || (ext !== '' && c.extension === ext));
  const contentType = (candidates[0].mime as string).toLowerCase();
  if (extensionType && (agrees || GENERIC_CONTENT.has(contentType))) {
    return { mediaType: extensionType, extensionType, contentType: agrees ? extensionType : contentType };
  }
  const verdict: TypeVerdict = { mediaType: contentType, extensionType, contentType };
  // `.bin` and the like say "some bytes": the content naming a type is no disagreement.
  if (extensionType && extensionType !== 'application/octet-stream') {
    verdict.disagreement = `${fileName} is named like ${extensionType} but its content is ${contentType}; sending it as ${contentType}`;
  }
  return verdict;
}

function refusal(slot: FileSlot, name: string, what: string): FileCheck {
  return { ok: false, reason: `${slot.label}: ${name} ${what}` };
}

/** The most bytes a file may have for this slot, and the reason, in words. */
export function effectiveLimit(slot: FileSlot, limits: InlineLimits): { bytes: number; because: string } {
  if (slot.maxSize !== undefined && slot.maxSize <= limits.ceilingBytes) {
    return { bytes: slot.maxSize, because: `this tool accepts at most ${describeSize(slot.maxSize)}` };
  }
  return {
    bytes: limits.ceilingBytes,
    because: `at most ${describeSize(limits.ceilingBytes)} can be sent inline to a${limits.transport === 'stdio' ? ' stdio' : 'n HTTP'} server (${limits.ceilingReason})`,
  };
}

function describeSize(n: number): string {
  return n < 1024 ? formatBytes(n) : `${formatBytes(n)} (${n.toLocaleString('en-US')} bytes)`;
}

async function readHeader(path: string, size: number): Promise<Uint8Array> {
  const handle = await fsp.open(path, 'r');
  try {
    const buffer = Buffer.alloc(Math.min(HEADER_BYTES, size));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * Checks a local file for a slot: it must be a regular file within min(maxSize, transport ceiling)
 * (decided from `fs.stat`, before any byte is read) and match `accept` (decided from its first bytes
 * and its name). Every refusal names the argument, the file and the limit or the accepted types.
 */
export async function checkFile(path: string, slot: FileSlot, limits: InlineLimits): Promise<FileCheck> {
  const name = basename(path);
  let stats;
  try {
    stats = await fsp.stat(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return refusal(slot, name, code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? String(e)})`);
  }
  if (!stats.isFile()) return refusal(slot, name, `is not a regular file${stats.isDirectory() ? ' (it is a folder)' : ''}`);
  const limit = effectiveLimit(slot, limits);
  if (stats.size > limit.bytes) return refusal(slot, name, `is ${describeSize(stats.size)}; ${limit.because}`);

  let header: Uint8Array;
  try {
    header = await readHeader(path, stats.size);
  } catch (e) {
    return refusal(slot, name, `cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  const verdict = decideType(name, header);
  const warnings: string[] = [];
  if (verdict.disagreement) warnings.push(`${slot.label}: ${verdict.disagreement}`);
  if (!matchesAccept(slot.accept, { mediaType: verdict.mediaType, fileName: name })) {
    return refusal(slot, name, `is ${verdict.mediaType}; this tool accepts ${describeAccept(slot.accept)}`);
  }
  if (slot.maxSize === undefined && stats.size > limits.warnAboveBytes) {
    warnings.push(`${slot.label}: ${name} is ${formatBytes(stats.size)}; the tool declares no size limit, so the server may refuse it`);
  }
  const file: CheckedFile = { path, name, size: stats.size, mediaType: verdict.mediaType, mtimeMs: stats.mtimeMs };
  if (verdict.extensionType) file.extensionType = verdict.extensionType;
  if (verdict.contentType) file.contentType = verdict.contentType;
  return { ok: true, file, warnings };
}

/**
 * Reads a checked file in one pass into one buffer, refusing if it changed since the check
 * (size or modification time) or no longer fits the slot. Throws an Error whose message names the argument.
 */
export async function readCheckedBytes(file: CheckedFile, slot: FileSlot, limits: InlineLimits): Promise<Buffer> {
  const limit = effectiveLimit(slot, limits);
  const changed = (): Error => new Error(`${slot.label}: ${file.name} changed after it was checked; choose it again`);
  if (file.size > limit.bytes) throw new Error(`${slot.label}: ${file.name} is ${describeSize(file.size)}; ${limit.because}`);
  const handle = await fsp.open(file.path, 'r');
  try {
    const stats = await handle.stat();
    if (stats.size !== file.size || stats.mtimeMs !== file.mtimeMs) throw changed();
    // Exactly the size the check saw (fstat above confirmed it).
    const buffer = Buffer.allocUnsafe(file.size);
    let total = 0;
    while (total < buffer.length) {
      const { bytesRead } = await handle.read(buffer, total, Math.min(READ_CHUNK_BYTES, buffer.length - total), total);
      if (bytesRead === 0) throw changed();
      total += bytesRead;
    }
    return buffer;
  } finally {
    await handle.close();
  }
}

/** The checked file as a `data:` URI (legacy `;name=` only when asked). */
export async function readCheckedFile(
  file: CheckedFile,
  slot: FileSlot,
  limits: InlineLimits,
  options: { legacyName?: boolean } = {},
): Promise<string> {
  const bytes = await readCheckedBytes(file, slot, limits);
  return encodeDataUri(bytes, file.mediaType, options.legacyName ? { name: file.name } : undefined);
}

/**
 * The transport ceiling applies to the whole message, not to each file: several files that each fit
 * may not fit together. Returns a refusal naming the total and the ceiling, or undefined when they fit.
 */
export function checkTotalSize(files: readonly CheckedFile[], limits: InlineLimits): string | undefined {
  const total = files.reduce((sum, f) => sum + f.size, 0);
  if (files.length < 2 || total <= limits.ceilingBytes) return undefined;
  const names = files.map((f) => f.name).join(', ');
  return `${files.length} files (${names}) add up to ${describeSize(total)}; at most ${describeSize(limits.ceilingBytes)} can be sent inline to a${limits.transport === 'stdio' ? ' stdio' : 'n HTTP'} server in one call (${limits.ceilingReason})`;
}
