// The "file slots encoded" step for x-mcp-file slots: a checked file becomes the string the server receives,
// a data: URI (inline) or the file URI of an out-of-band upload, as its check decided (CheckedFile.upload).
// An upload is two steps: authorized (digest + files/authorizeUpload, nothing of the file leaves) so the user can
// be shown where the bytes go, then sent. A caller that asks first authorizes with authorizeCheckedFile.

import { InputRefusedError } from '../../errors';
import { effectiveLimit, readCheckedFile, type CheckedFile } from '../check';
import { formatBytes, type InlineLimits } from '../limits';
import type { FileSlot } from '../slots';
import type { PreparedUpload, UploadProgress } from './client';
import { TransferRefusedError, TransferUnsupportedError } from './errors';
import { inlineRefusal } from './mode';

/** What encoding needs of a connection's transfer client (FileTransfers). */
export interface FileUploader {
  prepareUpload(file: CheckedFile, opts: { signal?: AbortSignal; onDigestBytes?: (read: number) => void }): Promise<PreparedUpload>;
  sendUpload(prepared: PreparedUpload, opts: UploadProgress): Promise<string>;
  /** An authorized upload that will not be sent (the user said no). */
  abandonUpload(prepared: PreparedUpload): void;
  /** The limits for this server: without upload when it takes none, so a file's check refuses it from stat. */
  limitsFor?(limits: InlineLimits): InlineLimits;
}

export interface EncodeOptions {
  /** The connection's transfer client; without it an upload is refused. */
  uploader?: FileUploader;
  /** The file's upload, authorized already (the user was shown its destination): only sent now. */
  prepared?: PreparedUpload;
  legacyName?: boolean;
  signal?: AbortSignal;
  /** Bytes of this file uploaded so far. */
  onUploadBytes?: (sent: number) => void;
  /** The host the bytes go to, once the server has authorized the upload (before any byte leaves). */
  onDestination?: (host: string) => void;
}

/**
 * Authorizes the upload of a checked file that goes by upload (digest, then files/authorizeUpload); nothing of
 * its content leaves. Refusals the user can act on become InputRefusedError, as in encodeCheckedFile.
 */
export async function authorizeCheckedFile(
  file: CheckedFile,
  slot: FileSlot,
  limits: InlineLimits,
  opts: { uploader?: FileUploader; signal?: AbortSignal; onDigestBytes?: (read: number) => void },
): Promise<PreparedUpload> {
  const uploader = requireUploader(file, slot, opts.uploader);
  // What the tool accepts (its maxSize) is checked again from the size the check saw, before the file is digested.
  const limit = effectiveLimit(slot, limits);
  if (file.size > limit.bytes)
    throw new InputRefusedError(`${slot.label}: ${file.name} is ${formatBytes(file.size)} (${file.size} bytes); ${limit.because}`, slot.label);
  try {
    return await uploader.prepareUpload(file, {
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.onDigestBytes ? { onDigestBytes: opts.onDigestBytes } : {}),
    });
  } catch (e) {
    throw uploadRefusal(e, file, slot, limits);
  }
}

/**
 * The value for one checked file of a slot. Upload failures that the user can act on (the server does not
 * support uploads, or refused the file) become InputRefusedError naming the argument, the file and the limit.
 */
export async function encodeCheckedFile(file: CheckedFile, slot: FileSlot, limits: InlineLimits, opts: EncodeOptions): Promise<string> {
  if (!file.upload) return readCheckedFile(file, slot, limits, { legacyName: opts.legacyName });
  const uploader = requireUploader(file, slot, opts.uploader);
  try {
    const prepared = opts.prepared ?? (await uploader.prepareUpload(file, opts.signal ? { signal: opts.signal } : {}));
    return await uploader.sendUpload(prepared, {
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.onUploadBytes ? { onBytes: opts.onUploadBytes } : {}),
      ...(opts.onDestination ? { onDestination: opts.onDestination } : {}),
    });
  } catch (e) {
    throw uploadRefusal(e, file, slot, limits);
  }
}

function requireUploader(file: CheckedFile, slot: FileSlot, uploader: FileUploader | undefined): FileUploader {
  if (!uploader) throw new InputRefusedError(`${slot.label}: ${file.name} must be uploaded, but out-of-band transfer is not available here`, slot.label);
  return uploader;
}

/** A transfer error as the user should see it: unsupported and refused ones name the argument and the limit. */
function uploadRefusal(e: unknown, file: CheckedFile, slot: FileSlot, limits: InlineLimits): unknown {
  const message = (e as Error).message;
  if (e instanceof TransferUnsupportedError) {
    return new InputRefusedError(
      slot.transferModes && !slot.transferModes.includes('inline')
        ? `${slot.label}: ${file.name}: this tool takes files only by out-of-band upload, and ${message}`
        : `${slot.label}: ${file.name} ${inlineRefusal(file.size, limits)}, and ${message}`,
      slot.label,
    );
  }
  if (e instanceof TransferRefusedError) return new InputRefusedError(`${slot.label}: ${file.name}: ${message}`, slot.label);
  return e;
}
