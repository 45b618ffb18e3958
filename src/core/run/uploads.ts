// Uploads authorized before the user confirms (SEP-2631): each file that goes by upload is digested and
// authorized (files/authorizeUpload) first, so the confirmation can say where its bytes go ("uploaded to
// <host>"); none of its content leaves until the run sends it. A "no" abandons them: nothing is sent, and the
// authorizations are left to expire (the draft has no way to withdraw one).

import { CallCancelledError, InputRefusedError, TransferFailedError } from '../errors';
import { checkTotalSize } from '../files/check';
import { formatBytes } from '../files/limits';
import type { PreparedUpload } from '../files/transfer/client';
import { authorizeCheckedFile, type FileUploader } from '../files/transfer/encode';
import type { CheckedFile, FileSlot } from '../files';
import type { SlotFiles } from './fileChoices';
import type { InlineLimits } from '../files/limits';

export interface AuthorizedUploadEntry {
  slot: FileSlot;
  file: CheckedFile;
  prepared: PreparedUpload;
}

export class AuthorizedUploads {
  constructor(
    readonly entries: readonly AuthorizedUploadEntry[],
    private readonly uploader: FileUploader | undefined,
  ) {}

  /** The authorized upload of a file of this run (the same CheckedFile object). */
  get(file: CheckedFile): PreparedUpload | undefined {
    return this.entries.find((e) => e.file === file)?.prepared;
  }

  /** The host each file goes to, by the file. */
  hostOf(file: CheckedFile): string | undefined {
    return this.get(file)?.host;
  }

  /** "doc: recording.bin (48 MiB) uploaded to store.example:443", one line per file. */
  lines(): string[] {
    return this.entries.map((e) => `${e.slot.label}: ${e.file.name} (${formatBytes(e.file.size)}) uploaded to ${e.prepared.host}`);
  }

  /** Whether any file goes somewhere other than the MCP server's own origin. */
  get foreign(): boolean {
    return this.entries.some((e) => e.prepared.foreign);
  }

  /** The user said no: nothing is sent; each authorization is logged as left to expire. */
  abandon(): void {
    for (const e of this.entries) this.uploader?.abandonUpload(e.prepared);
  }
}

/**
 * Authorizes every file of these slots that goes by upload, in order (each digested first, reported by
 * `onDigestBytes` and stopped by `signal`); nothing of their content leaves. Files
 * that only fit the message one by one are refused first, as encoding would. A local refusal (the server does
 * not support uploads, or refused the file) throws InputRefusedError naming the argument; the signal aborted,
 * CallCancelledError; anything else a TransferFailedError. Undefined when no file goes by upload.
 */
export async function authorizeUploads(
  slots: readonly SlotFiles[],
  limits: (slot: FileSlot) => InlineLimits,
  uploader: FileUploader | undefined,
  signal?: AbortSignal,
  onDigestBytes?: (file: CheckedFile, read: number) => void,
): Promise<AuthorizedUploads | undefined> {
  const uploads = slots.flatMap(({ slot, files }) => files.filter((f) => f.upload).map((file) => ({ slot, file })));
  if (uploads.length === 0) return undefined;
  const together = checkTotalSize(
    slots.flatMap((s) => s.files),
    limits(slots[0]!.slot),
  );
  if (together) throw new InputRefusedError(together, slots[0]!.slot.label);
  const entries: AuthorizedUploadEntry[] = [];
  try {
    for (const { slot, file } of uploads) {
      try {
        entries.push({
          slot,
          file,
          prepared: await authorizeCheckedFile(file, slot, limits(slot), {
            uploader,
            ...(signal ? { signal } : {}),
            ...(onDigestBytes ? { onDigestBytes: (read: number) => onDigestBytes(file, read) } : {}),
          }),
        });
      } catch (e) {
        if (e instanceof InputRefusedError) throw e;
        if (signal?.aborted) throw new CallCancelledError(`${slot.label}: authorizing the upload of ${file.name} was cancelled`, { cause: e });
        throw new TransferFailedError(`${slot.label}: ${file.name}: ${(e as Error).message}`);
      }
    }
  } catch (e) {
    new AuthorizedUploads(entries, uploader).abandon();
    throw e;
  }
  return new AuthorizedUploads(entries, uploader);
}
