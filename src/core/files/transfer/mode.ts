// Choosing how a file travels to its slot (SEP-2631 transferModes): inline as a data: URI, or uploaded out of
// band (files/authorizeUpload) with its file URI sent instead. Decided from the slot and the file's size alone,
// before any request is made.

import { formatBytes, type InlineLimits } from '../limits';
import type { FileSlot } from '../slots';
import type { TransferMode } from './protocol';

/** Whether the slot is one SEP-2631 applies to (x-mcp-file and its older spellings; not FileInput objects or SEP-1306 fields). */
export function takesFileUri(slot: FileSlot): boolean {
  return slot.origin !== 'file-input-object' && slot.origin !== 'binary-elicitation';
}

/** The modes the host may use for this slot: the slot's allowed modes, less upload when the host does not upload. */
export function usableModes(slot: FileSlot, limits: InlineLimits): TransferMode[] {
  if (!takesFileUri(slot)) return ['inline'];
  const allowed = slot.transferModes ?? ['inline', 'upload'];
  return allowed.filter((m) => m === 'inline' || limits.upload !== undefined);
}

/** Whether a file too large to inline could still be sent to this slot (by upload). */
export function mayUpload(slot: FileSlot, limits: InlineLimits): boolean {
  return usableModes(slot, limits).includes('upload');
}

/** The largest file sent inline when the host may choose: the transport's ceiling, and the user's inline size. */
export function inlineThreshold(limits: InlineLimits): number {
  return Math.min(limits.ceilingBytes, limits.upload?.inlineUpToBytes ?? Number.POSITIVE_INFINITY);
}

export type TransferPlan = { mode: TransferMode } | { refused: string };

/**
 * `["inline"]` → inline; `["upload"]` → upload (never inline, even when small); absent or both → inline up to
 * the inline threshold, upload above it. Size limits (maxSize, the inline ceiling) are checked by the caller.
 */
export function planTransfer(slot: FileSlot, size: number, limits: InlineLimits): TransferPlan {
  const modes = usableModes(slot, limits);
  if (modes.length === 0) {
    return {
      refused: `this tool takes this file only by out-of-band upload (SEP-2631 transferModes ["upload"]), and ${limits.noUploadReason ?? "the host's file transfer is turned off"}`,
    };
  }
  if (!modes.includes('upload')) return { mode: 'inline' };
  if (!modes.includes('inline')) return { mode: 'upload' };
  return { mode: size <= inlineThreshold(limits) ? 'inline' : 'upload' };
}

/** For refusals: why a file of this size cannot travel inline. */
export function inlineRefusal(size: number, limits: InlineLimits): string {
  const server = limits.transport === 'stdio' ? 'a stdio server' : 'an HTTP server';
  return `is ${formatBytes(size)}; at most ${formatBytes(limits.ceilingBytes)} can be sent inline to ${server} (${limits.ceilingReason})`;
}
