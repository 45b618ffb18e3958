// The files chosen for a form's file slots: checked by the file engine (stat, size, type) when chosen,
// summarised for the webview, read and encoded only when sent (encodeFileSlots). No picker here: the
// extension's pickers and the CLI's --file options fill it.

import { checkFile, describeAccept, effectiveLimit, setAtPath, type CheckedFile, type FileSlot, type InlineLimits } from '../files';
import { pointer } from '../forms/build';
import type { FieldErrors, FormValues } from '../../shared/formModel';
import type { ChosenFiles, FileSummary } from '../../shared/protocol';

interface ChosenFile {
  file: CheckedFile;
  warnings: string[];
}

export type AddOutcome = { ok: true; files: FileSummary[] } | { ok: false; reason: string };

/** Checked files of one slot, in the order chosen. */
export interface SlotFiles {
  slot: FileSlot;
  files: CheckedFile[];
}

export class FileChoices {
  private readonly chosen = new Map<string, ChosenFile[]>();
  private readonly slotsById: Map<string, FileSlot>;

  constructor(
    slots: readonly FileSlot[],
    readonly limits: (slot: FileSlot) => InlineLimits,
  ) {
    this.slotsById = new Map(slots.map((s) => [pointer(s.path), s]));
  }

  /** The field id (JSON pointer) of each slot; the webview addresses files by it. */
  get fieldIds(): string[] {
    return [...this.slotsById.keys()];
  }

  slot(field: string): FileSlot | undefined {
    return this.slotsById.get(field);
  }

  /** The most bytes a file of this slot may have (its maxSize, or the transport's ceiling), and why. */
  limitOf(slot: FileSlot): { bytes: number; because: string } {
    return effectiveLimit(slot, this.limits(slot));
  }

  summaries(): ChosenFiles {
    const out: ChosenFiles = {};
    for (const [field, files] of this.chosen) out[field] = files.map(summary);
    return out;
  }

  /** Every chosen file, slot by slot. */
  entries(): SlotFiles[] {
    return [...this.chosen].flatMap(([field, files]) => {
      const slot = this.slotsById.get(field);
      return slot && files.length > 0 ? [{ slot, files: files.map((f) => f.file) }] : [];
    });
  }

  /** Paths by field id, for answers that the core reads itself (elicitation). */
  paths(): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const [field, files] of this.chosen) if (files.length > 0) out[field] = files.map((f) => f.file.path);
    return out;
  }

  /** Checks the files and adds them (a single-file field is replaced); nothing is added when one is refused. */
  async add(field: string, paths: readonly string[]): Promise<AddOutcome> {
    const slot = this.slotsById.get(field);
    if (!slot) return { ok: false, reason: `${field} is not a file field` };
    const checked: ChosenFile[] = [];
    for (const path of paths) {
      const check = await checkFile(path, slot, this.limits(slot));
      if (!check.ok) return { ok: false, reason: check.reason };
      checked.push({ file: check.file, warnings: check.warnings });
    }
    const next = slot.multiple ? [...(this.chosen.get(field) ?? []), ...checked] : checked.slice(-1);
    if (slot.maxItems !== undefined && next.length > slot.maxItems) {
      return { ok: false, reason: `${slot.label}: takes at most ${slot.maxItems} files` };
    }
    this.chosen.set(field, next);
    return { ok: true, files: next.map(summary) };
  }

  /** Sets a slot's files, already checked by the caller (the CLI checks every --file before refusing any). */
  put(slot: FileSlot, files: readonly CheckedFile[]): void {
    this.chosen.set(
      pointer(slot.path),
      files.map((file) => ({ file, warnings: [] })),
    );
  }

  remove(field: string, index: number): FileSummary[] {
    const files = this.chosen.get(field) ?? [];
    files.splice(index, 1);
    return files.map(summary);
  }

  clear(): void {
    this.chosen.clear();
  }

  /** The values with each file field set to its files' names, so form validation sees which are filled. */
  withFileNames(values: FormValues): FormValues {
    const copy = structuredClone(values);
    for (const [field, slot] of this.slotsById) {
      const names = (this.chosen.get(field) ?? []).map((f) => f.file.name);
      if (names.length > 0) setAtPath(copy, slot.path, slot.multiple ? names : names[0]);
    }
    return copy;
  }

  /** Errors the form validator cannot see: counts of files in array slots. */
  countErrors(): FieldErrors {
    const errors: FieldErrors = {};
    for (const [field, slot] of this.slotsById) {
      const n = this.chosen.get(field)?.length ?? 0;
      if (slot.required && n === 0) errors[field] = `Choose a file (${describeAccept(slot.accept)}).`;
      else if (n > 0 && slot.minItems !== undefined && n < slot.minItems) errors[field] = `Choose at least ${slot.minItems} files.`;
    }
    return errors;
  }

  /** Bytes of the files chosen for a field. */
  totalBytes(field: string): number {
    return (this.chosen.get(field) ?? []).reduce((n, f) => n + f.file.size, 0);
  }

  get count(): number {
    let n = 0;
    for (const files of this.chosen.values()) n += files.length;
    return n;
  }
}

function summary(chosen: ChosenFile): FileSummary {
  return { name: chosen.file.name, size: chosen.file.size, mediaType: chosen.file.mediaType, warnings: chosen.warnings };
}
