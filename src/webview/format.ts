// Pure formatting helpers shared by the form and the results (no DOM here, so they run in node tests).

import { describeAccept, formatBytes } from '../shared/format';
import type { FileField } from '../shared/formModel';

/** The line under a file slot: accepted types and the size limit. */
export function describeFileSlot(field: Pick<FileField, 'accept' | 'maxSize' | 'multiple'>): string {
  const parts = [`Accepts ${describeAccept(field.accept)}`];
  if (field.maxSize !== undefined) parts.push(`up to ${formatBytes(field.maxSize)}${field.multiple ? ' each' : ''}`);
  if (field.multiple) parts.push('several files allowed');
  return parts.join(' · ');
}

/** "report.pdf · 1.5 KiB · application/pdf". */
export function describeFile(file: { name: string; size: number; mediaType: string }): string {
  return `${file.name} · ${formatBytes(file.size)} · ${file.mediaType || 'unknown type'}`;
}

/** Progress as a percentage, or undefined when the total is unknown. */
export function percent(progress: number, total?: number): number | undefined {
  if (total === undefined || !(total > 0)) return undefined;
  return Math.max(0, Math.min(100, Math.round((progress / total) * 100)));
}

/** ISO date-time -> the value of an `<input type="datetime-local">` in local time ("" when unparsable). */
export function toLocalDateTimeInput(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** The value of an `<input type="datetime-local">` -> RFC 3339 in UTC ("" stays ""). */
export function fromLocalDateTimeInput(local: string): string {
  if (!local) return '';
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? local : d.toISOString().replace(/\.000Z$/, 'Z');
}
