// Checking a chosen file against its slot before anything is read or sent, then reading it once.
// Order matters: stat first (a file over the limit is refused without reading a byte), then a small
// header read to learn the content type, then (only on send) one full read and one base64 pass.

import * as crypto from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { openRegularFile, type FileReadError } from '../io/boundedRead';
import { basename, extname } from 'node:path';
import { describeAccept, matchesAccept } from './accept';
import { encodeDataUri } from './dataUri';
import { formatBytes, type InlineLimits } from './limits';
import type { FileSlot } from './slots';
import { mayUpload, planTransfer, takesFileUri } from './transfer/mode';
import { mimeTable, signatureTable } from './typeTables';

/** A file that passed its checks: identity and types, never its bytes. Plain JSON. */
export interface CheckedFile {
  path: string;
  name: string;
  size: number;
  /** The slot's label: the argument (or elicitation field) the file was checked for. */
  argument: string;
  /** Its bytes travel inside the message (false for a FileInput object that only takes a path, and for a file uploaded out of band). */
  inline: boolean;
  /** SEP-2631: the file goes by out-of-band upload and its file URI is sent (decided at check time from slot and size). */
  upload?: boolean;
  /** The type that will be sent: the content's type when known (the extension's when it refines a container such as zip), else the extension's, else octet-stream. */
  mediaType: string;
  /** From the file name. */
  extensionType?: string;
  /** From the first bytes. */
  contentType?: string;
  mtimeMs: number;
  /** sha256 of the first bytes the type was decided from: the read refuses a file whose start changed since. */
  headerSha256: string;
}

export type FileCheck = { ok: true; file: CheckedFile; warnings: string[] } | { ok: false; reason: string };

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

/** Formats whose signature is itself text (`%PDF-`, `{\rtf`, `<svg`): the only signatures trusted in bytes that read as text. */
const TEXT_SIGNATURES = new Set(['application/pdf', 'application/postscript', 'application/rtf', 'application/xml', 'image/svg+xml', 'text/vtt']);

/**
 * Whether the bytes read as text: no NUL and no control characters other than tab, line breaks, form feed
 * and escape. Binary formats have them within their first bytes (PNG \x1a, GIF/BMP/MP3 sizes with \x00).
 */
function readsAsText(header: Uint8Array): boolean {
  for (const byte of header) {
    if ((byte < 32 && byte !== 9 && byte !== 10 && byte !== 11 && byte !== 12 && byte !== 13 && byte !== 27) || byte === 127) return false;
  }
  return true;
}

/** Decides a file's type from its name and its first bytes. */
export function decideType(fileName: string, header: Uint8Array): TypeVerdict {
  const looked = mimeTable().lookup(fileName);
  const extensionType = looked ? looked.toLowerCase() : undefined;
  const ext = extname(fileName).slice(1).toLowerCase();
  let candidates =
    header.length > 0
      ? signatureTable()
          .filetypeinfo(header)
          .filter((c) => c.mime)
      : [];
  // Short signatures match text by chance: "BMW sales" starts like a bitmap, "ID3 tags" like an MP3.
  if (candidates.length > 0 && readsAsText(header)) candidates = candidates.filter((c) => TEXT_SIGNATURES.has((c.mime as string).toLowerCase()));
  if (candidates.length === 0) return { mediaType: extensionType ?? 'application/octet-stream', extensionType };
  const agrees = candidates.some((c) => c.mime?.toLowerCase() === extensionType || (ext !== '' && c.extension === ext));
  const contentType = (candidates[0]!.mime as string).toLowerCase();
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

/**
 * Whether a slot's files travel inside the message. A FileInput object is sent as `content` when it offers
 * that, else by `path` (or S3), which puts no bytes in the message.
 */
export function sendsInline(slot: FileSlot): boolean {
  return slot.origin !== 'file-input-object' || (slot.objectModes ?? ['content']).includes('content');
}

/** The most bytes a file may have for this slot, and the reason, in words. */
export function effectiveLimit(slot: FileSlot, limits: InlineLimits): { bytes: number; because: string } {
  if (!sendsInline(slot) || mayUpload(slot, limits)) {
    return slot.maxSize === undefined
      ? limitOf(Number.POSITIVE_INFINITY, () => (sendsInline(slot) ? 'an uploaded file has no inline limit' : 'a file passed by path has no inline limit'))
      : limitOf(slot.maxSize, () => `this tool accepts at most ${describeSize(slot.maxSize!)}`);
  }
  if (slot.maxSize !== undefined && slot.maxSize <= limits.ceilingBytes) {
    return limitOf(slot.maxSize, () => `this tool accepts at most ${describeSize(slot.maxSize!)}`);
  }
  // A SEP-1306 field is uploaded, not sent inline: its ceiling is the host's upload limit, which says so itself.
  if (slot.origin === 'binary-elicitation') return limitOf(limits.ceilingBytes, () => limits.ceilingReason);
  return limitOf(
    limits.ceilingBytes,
    () =>
      `at most ${describeSize(limits.ceilingBytes)} can be sent inline to a${limits.transport === 'stdio' ? ' stdio' : 'n HTTP'} server (${limits.ceilingReason})` +
      (limits.noUploadReason && takesFileUri(slot) ? `, and ${limits.noUploadReason}` : ''),
  );
}

/** `because` is written only when read: most limits are never reported, and the number formatting costs more than the check. */
function limitOf(bytes: number, because: () => string): { bytes: number; because: string } {
  return {
    bytes,
    get because() {
      return because();
    },
  };
}

function describeSize(n: number): string {
  return n < 1024 ? formatBytes(n) : `${formatBytes(n)} (${n.toLocaleString('en-US')} bytes)`;
}

function sha256(bytes: Uint8Array): string {
  // crypto.hash (Node 20.12+) skips the Hash object: a few times faster on a 4 KiB header.
  return crypto.hash ? crypto.hash('sha256', bytes, 'base64') : crypto.createHash('sha256').update(bytes).digest('base64');
}

/**
 * Why a file on disk is no longer the one that was checked (gone, or another size, time or start), or
 * undefined. Reads only its first bytes.
 */
export async function changedSinceCheck(file: CheckedFile): Promise<string | undefined> {
  try {
    return statChangedSinceCheck(file, await fsp.stat(file.path)) ?? startChangedSinceCheck(file, await readHeader(file.path, file.size));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? 'no longer exists' : code === 'ENOTREG' ? 'is no longer a regular file' : `cannot be read (${code ?? String(e)})`;
  }
}

/** Why a file is no longer the one that was checked, judged by a stat of it now (size, modification time), or undefined. */
function statChangedSinceCheck(file: CheckedFile, now: { size: number; mtimeMs: number }): string | undefined {
  return now.size !== file.size || now.mtimeMs !== file.mtimeMs ? 'changed after it was checked' : undefined;
}

/**
 * Why a file is no longer the one that was checked, judged by its bytes from the start (at least the
 * first 4100, or all of a smaller file): the bytes its type was decided from must be the same. Same size
 * and time do not prove same content (a rewrite within the clock's resolution, a restored mtime).
 */
function startChangedSinceCheck(file: CheckedFile, start: Uint8Array): string | undefined {
  const header = start.subarray(0, HEADER_BYTES);
  if (sha256(header) === file.headerSha256) return undefined;
  // The same first bytes give the same type: only a changed start needs sniffing again, to say what it is now.
  const type = decideType(file.name, header).mediaType;
  return type === file.mediaType ? 'changed after it was checked' : `changed after it was checked (it was ${file.mediaType}, its content is now ${type})`;
}

async function readHeader(path: string, size: number): Promise<Uint8Array> {
  const { handle } = await openRegularFile(path);
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
  const plan = planTransfer(slot, stats.size, limits);
  if ('refused' in plan) return refusal(slot, name, `cannot be sent: ${plan.refused}`);
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
  const upload = plan.mode === 'upload';
  const inline = sendsInline(slot) && !upload;
  if (inline && slot.maxSize === undefined && stats.size > limits.warnAboveBytes) {
    warnings.push(`${slot.label}: ${name} is ${formatBytes(stats.size)}; the tool declares no size limit, so the server may refuse it`);
  }
  const file: CheckedFile = {
    path,
    name,
    size: stats.size,
    argument: slot.label,
    inline,
    mediaType: verdict.mediaType,
    mtimeMs: stats.mtimeMs,
    headerSha256: sha256(header),
  };
  if (upload) file.upload = true;
  if (verdict.extensionType) file.extensionType = verdict.extensionType;
  if (verdict.contentType) file.contentType = verdict.contentType;
  return { ok: true, file, warnings };
}

/**
 * Reads a checked file in one pass into one buffer, refusing if it changed since the check (size,
 * modification time, or the first bytes its type was decided from) or no longer fits the slot. Throws an Error whose
 * message names the argument and the file.
 */
export async function readCheckedBytes(file: CheckedFile, slot: FileSlot, limits: InlineLimits): Promise<Buffer> {
  const limit = effectiveLimit(slot, limits);
  const changed = (why = 'changed after it was checked'): Error => new Error(`${slot.label}: ${file.name} ${why}; choose it again`);
  if (file.size > limit.bytes) throw new Error(`${slot.label}: ${file.name} is ${describeSize(file.size)}; ${limit.because}`);
  // Opened without blocking, and judged by the opened descriptor: a file swapped for a FIFO is refused, not waited on.
  let opened;
  try {
    opened = await openRegularFile(file.path);
  } catch (e) {
    const code = (e as FileReadError).code;
    throw changed(code === 'ENOTREG' ? 'is no longer a regular file' : code === 'ENOENT' ? 'no longer exists' : `cannot be read (${code ?? String(e)})`);
  }
  const { handle } = opened;
  try {
    if (statChangedSinceCheck(file, opened)) throw changed();
    // Exactly the size the check saw (fstat above confirmed it).
    const buffer = Buffer.allocUnsafe(file.size);
    let total = 0;
    while (total < buffer.length) {
      const { bytesRead } = await handle.read(buffer, total, Math.min(READ_CHUNK_BYTES, buffer.length - total), total);
      if (bytesRead === 0) throw changed();
      total += bytesRead;
    }
    const startChanged = startChangedSinceCheck(file, buffer);
    if (startChanged) throw changed(startChanged);
    if (!matchesAccept(slot.accept, { mediaType: file.mediaType, fileName: file.name })) {
      throw new Error(`${slot.label}: ${file.name} is ${file.mediaType}; this tool accepts ${describeAccept(slot.accept)}`);
    }
    return buffer;
  } finally {
    await handle.close();
  }
}

/** The checked file as a `data:` URI (legacy `;name=` only when asked). */
export async function readCheckedFile(file: CheckedFile, slot: FileSlot, limits: InlineLimits, options: { legacyName?: boolean } = {}): Promise<string> {
  const bytes = await readCheckedBytes(file, slot, limits);
  return encodeDataUri(bytes, file.mediaType, options.legacyName ? { name: file.name } : undefined);
}

/**
 * The transport ceiling applies to the whole message, not to each file: several files that each fit
 * may not fit together. Files passed by path put no bytes in the message and do not count. Returns a
 * refusal naming the arguments, the files, the total and the ceiling, or undefined when they fit.
 */
export function checkTotalSize(files: readonly CheckedFile[], limits: InlineLimits): string | undefined {
  const sent = files.filter((f) => f.inline);
  const total = sent.reduce((sum, f) => sum + f.size, 0);
  if (sent.length < 2 || total <= limits.ceilingBytes) return undefined;
  const byArgument = new Map<string, string[]>();
  for (const f of sent) byArgument.set(f.argument, [...(byArgument.get(f.argument) ?? []), f.name]);
  const names =
    byArgument.size === 1 ? sent.map((f) => f.name).join(', ') : [...byArgument].map(([argument, list]) => `${argument}: ${list.join(', ')}`).join('; ');
  return `${[...byArgument.keys()].join(', ')}: ${sent.length} files (${names}) add up to ${describeSize(total)}; at most ${describeSize(limits.ceilingBytes)} can be sent inline to a${limits.transport === 'stdio' ? ' stdio' : 'n HTTP'} server in one call (${limits.ceilingReason})`;
}
