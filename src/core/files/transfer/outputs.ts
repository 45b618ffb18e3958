// Recognising SEP-2631 file outputs: `{type: "file", file: FileValue}` content blocks, FileValue objects in
// structuredContent, and FileResourceContents (`{uri, mimeType?, content: {uri}}`) in resources/read answers.

import type { FileValue } from './protocol';
import { isObject } from '../../../shared/json';

const FILE_VALUE_KEYS = new Set(['uri', 'name', 'mimeType', 'size', 'digest', '_meta']);

/**
 * A FileValue, or undefined: `uri` a non-empty string, only FileValue keys, and at least one of name, mimeType,
 * size or digest (so a plain `{uri}` object of some other meaning is not taken for a file).
 */
export function asFileValue(v: unknown): FileValue | undefined {
  if (!isObject(v) || typeof v.uri !== 'string' || v.uri === '' || /^data:/i.test(v.uri)) return undefined;
  if (!Object.keys(v).every((k) => FILE_VALUE_KEYS.has(k))) return undefined;
  if (v.name !== undefined && typeof v.name !== 'string') return undefined;
  if (v.mimeType !== undefined && typeof v.mimeType !== 'string') return undefined;
  if (v.size !== undefined && !(typeof v.size === 'number' && Number.isInteger(v.size) && v.size >= 0)) return undefined;
  if (v.digest !== undefined && !(isObject(v.digest) && typeof v.digest.algorithm === 'string' && typeof v.digest.value === 'string')) return undefined;
  if (v.name === undefined && v.mimeType === undefined && v.size === undefined && v.digest === undefined) return undefined;
  const out: FileValue = { uri: v.uri };
  if (v.name !== undefined) out.name = v.name;
  if (v.mimeType !== undefined) out.mimeType = v.mimeType;
  if (v.size !== undefined) out.size = v.size;
  if (v.digest !== undefined) out.digest = { algorithm: (v.digest as { algorithm: string }).algorithm, value: (v.digest as { value: string }).value };
  return out;
}

/** The FileValue of a `{type: "file", file}` content block. */
export function fileOfBlock(block: unknown): FileValue | undefined {
  return isObject(block) && block.type === 'file'
    ? (asFileValue(block.file) ?? (isObject(block.file) && typeof block.file.uri === 'string' && block.file.uri ? { uri: block.file.uri } : undefined))
    : undefined;
}

/** Every FileValue in structured content, with its JSON path (at most `limit`, depth-bounded). */
export function findFileValues(structured: unknown, limit = 1000): Array<{ path: string[]; file: FileValue }> {
  const found: Array<{ path: string[]; file: FileValue }> = [];
  const walk = (v: unknown, path: string[], depth: number): void => {
    if (found.length >= limit || depth > 32) return;
    const file = asFileValue(v);
    if (file) {
      found.push({ path, file });
      return;
    }
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, String(i)], depth + 1));
    else if (isObject(v)) for (const [k, x] of Object.entries(v)) walk(x, [...path, k], depth + 1);
  };
  walk(structured, [], 0);
  return found;
}

/** A FileResourceContents entry of resources/read: the file it stands for. */
export function fileOfResourceContents(item: unknown): FileValue | undefined {
  if (!isObject(item) || !isObject(item.content) || typeof item.content.uri !== 'string' || item.content.uri === '') return undefined;
  if (typeof item.text === 'string' || typeof item.blob === 'string') return undefined;
  const file: FileValue = { uri: item.content.uri };
  // The resource URI's last path segment, its query and fragment left out.
  const name =
    typeof item.uri === 'string'
      ? item.uri
          .replace(/[?#].*$/s, '')
          .split(/[/\\]/)
          .filter(Boolean)
          .pop()
      : undefined;
  if (name && !name.includes(':')) file.name = name;
  if (typeof item.mimeType === 'string') file.mimeType = item.mimeType;
  const more = asFileValue({ ...item.content, name: file.name ?? 'file' });
  if (more?.size !== undefined) file.size = more.size;
  if (more?.digest) file.digest = more.digest;
  return file;
}
