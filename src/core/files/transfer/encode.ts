// The "file slots encoded" step for x-mcp-file slots: a checked file becomes the string the server receives,
// a data: URI (inline) or the file URI of an out-of-band upload, as its check decided (CheckedFile.upload).

import { InputRefusedError } from '../../errors';
import { readCheckedFile, type CheckedFile } from '../check';
import type { InlineLimits } from '../limits';
import type { FileSlot } from '../slots';
import { inlineRefusal } from './mode';

/** What encoding needs of a connection's transfer client (FileTransfers). */
export interface FileUploader {
  uploadFile(file: CheckedFile, opts: { signal?: AbortSignal; onBytes?: (sent: number) => void; onDestination?: (host: string) => void }): Promise<string>;
}

export interface EncodeOptions {
  /** The connection's transfer client; without it an upload is refused. */
  uploader?: FileUploader;
  legacyName?: boolean;
  signal?: AbortSignal;
  /** Bytes of this file uploaded so far. */
  onUploadBytes?: (sent: number) => void;
  /** The host the bytes go to, once the server has authorized the upload (before any byte leaves). */
  onDestination?: (host: string) => void;
}

/**
 * The value for one checked file of a slot. Upload failures that the user can act on (the server does not
 * support uploads, or refused the file) become InputRefusedError naming the argument, the file and the limit.
 */
export async function encodeCheckedFile(file: CheckedFile, slot: FileSlot, limits: InlineLimits, opts: EncodeOptions): Promise<string> {
  if (!file.upload) return readCheckedFile(file, slot, limits, { legacyName: opts.legacyName });
  if (!opts.uploader) throw new InputRefusedError(`${slot.label}: ${file.name} must be uploaded, but out-of-band transfer is not available here`, slot.label);
  try {
    return await opts.uploader.uploadFile(file, {
      ...(opts.signal ? { signal: opts.signal } : {}), ...(opts.onUploadBytes ? { onBytes: opts.onUploadBytes } : {}),
      ...(opts.onDestination ? { onDestination: opts.onDestination } : {}),
    });
  } catch (e) {
    const kind = (e as { transferError?: string }).transferError;
    const message = (e as Error).message;
    if (kind === 'unsupported') {
      throw new InputRefusedError(slot.transferModes && !slot.transferModes.includes('inline')
        ? `${slot.label}: ${file.name}: this tool takes files only by out-of-band upload, and ${message}`
        : `${slot.label}: ${file.name} ${inlineRefusal(file.size, limits)}, and ${message}`, slot.label);
    }
    if (kind === 'refused') throw new InputRefusedError(`${slot.label}: ${file.name}: ${message}`, slot.label);
    throw e;
  }
}
