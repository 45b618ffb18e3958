// Object-typed file values (protobuf FileInput / FileOutput, digest §7) and argument paths.

import { promises as fsp } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { readCheckedBytes, type CheckedFile } from './check';
import { decodedSize } from './redact';
import { inlineLimitsFor, type InlineLimits } from './limits';
import { resolveSchema, type FileInputMode, type FileSlot } from './slots';
import { isObject } from '../../shared/json';

export interface FileInputOptions {
  /** `content` sends the bytes; `path` sends a path the server reads itself. */
  mode: Exclude<FileInputMode, 's3'> | 's3';
  /** Folders the user works in; a `path` must resolve (symlinks followed) inside one of them. */
  workspaceRoots: string[];
  /** `path` is only meaningful to a server on this machine, started over stdio. */
  serverIsLocalStdio: boolean;
  limits?: InlineLimits;
}

async function insideRoots(real: string, roots: string[]): Promise<boolean> {
  for (const root of roots) {
    let realRoot: string;
    try {
      realRoot = await fsp.realpath(root);
    } catch {
      continue;
    }
    const rel = relative(realRoot, real);
    if (rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))) return true;
  }
  return false;
}

/** The value for a FileInput slot: `{content, filename, mime_type}` or `{path, filename, mime_type}`. */
export async function fileInputValue(file: CheckedFile, slot: FileSlot, options: FileInputOptions): Promise<Record<string, unknown>> {
  const offered = slot.objectModes ?? ['content'];
  if (options.mode === 's3') {
    throw new Error(`${slot.label}: an S3 source needs a presigned URL from the server's storage; it cannot be filled from a local file`);
  }
  if (!offered.includes(options.mode)) {
    throw new Error(`${slot.label}: this tool does not accept a file ${options.mode} (it offers ${offered.join(', ')})`);
  }
  const meta = { filename: file.name, mime_type: file.mediaType };
  if (options.mode === 'content') {
    const bytes = await readCheckedBytes(file, slot, options.limits ?? inlineLimitsFor('stdio'));
    return { content: bytes.toString('base64'), ...meta };
  }
  if (!options.serverIsLocalStdio) {
    throw new Error(`${slot.label}: a file path can only be given to a server running on this machine over stdio`);
  }
  return { path: await pathInsideRoots(slot, file.path, options.workspaceRoots, file.name), ...meta };
}

/**
 * The real path of `path` when it resolves (symlinks followed) inside one of `roots`; otherwise throws an Error
 * naming the argument. The one rule for every FileInput `path` the host sends, chosen or typed.
 */
export async function pathInsideRoots(slot: FileSlot, path: string, roots: string[], shown = path): Promise<string> {
  let real: string;
  try {
    real = await fsp.realpath(resolve(path));
  } catch (e) {
    throw new Error(`${slot.label}: ${shown} cannot be passed by path (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  if (!(await insideRoots(real, roots))) {
    throw new Error(`${slot.label}: ${shown} resolves to a place outside the workspace folders; only files inside the workspace can be passed by path`);
  }
  return real;
}

export type FileOutputSource = { kind: 'content'; base64: string; size: number } | { kind: 'path'; path: string } | { kind: 's3'; url: string };

/** A FileOutput object found in a tool result. */
export interface FileOutput {
  /** Where it sits in structuredContent. */
  path: string[];
  filename: string;
  mimeType?: string;
  sizeBytes?: number;
  source: FileOutputSource;
}

const FILE_OUTPUT_KEYS = new Set(['content', 'path', 's3', 'filename', 'mime_type', 'size_bytes']);
const MARKER = 'x-mcp-file-mode';

/**
 * `value` as a FileOutput: `filename` and exactly one destination (base64 `content`, `path`, or
 * `s3.presigned_url`). Unless its schema marks it (`marked`), it must also have nothing but FileOutput fields
 * and carry `mime_type` or `size_bytes` (or be an S3 reference): `{filename, path}` alone is what any file
 * listing or search result looks like.
 */
function asFileOutput(value: Record<string, unknown>, path: string[], marked: boolean): FileOutput | undefined {
  if (typeof value.filename !== 'string') return undefined;
  const destinations = (['content', 'path', 's3'] as const).filter((k) => value[k] !== undefined && value[k] !== null);
  if (destinations.length !== 1) return undefined;
  let source: FileOutputSource | undefined;
  if (typeof value.content === 'string' && /^[A-Za-z0-9+/]*={0,2}$/.test(value.content)) {
    source = { kind: 'content', base64: value.content, size: decodedSize(value.content, true) };
  } else if (typeof value.path === 'string') {
    source = { kind: 'path', path: value.path };
  } else if (isObject(value.s3) && typeof value.s3.presigned_url === 'string') {
    source = { kind: 's3', url: value.s3.presigned_url };
  }
  if (!source) return undefined;
  if (!marked) {
    if (!Object.keys(value).every((k) => FILE_OUTPUT_KEYS.has(k))) return undefined;
    if (source.kind !== 's3' && !('mime_type' in value) && !('size_bytes' in value)) return undefined;
  }
  const out: FileOutput = { path, filename: value.filename, source };
  if (typeof value.mime_type === 'string' && value.mime_type) out.mimeType = value.mime_type;
  const size = typeof value.size_bytes === 'string' ? Number(value.size_bytes) : value.size_bytes;
  if (typeof size === 'number' && Number.isFinite(size) && size >= 0) out.sizeBytes = size;
  return out;
}

/** The schema of `key` (a property name, or an index when `value` is an array) under `schema`. */
function childSchema(root: unknown, schema: unknown, value: unknown, key: string): unknown {
  const s = resolveSchema(root, schema);
  if (!isObject(s)) return undefined;
  if (Array.isArray(value)) {
    const positional: unknown = Array.isArray(s.prefixItems) ? s.prefixItems[Number(key)] : undefined;
    return positional ?? (isObject(s.items) ? s.items : undefined);
  }
  if (isObject(s.properties) && Object.hasOwn(s.properties, key)) return s.properties[key];
  return isObject(s.additionalProperties) ? s.additionalProperties : undefined;
}

type SchemaPlace = { root: unknown; at: unknown };

/** With `schema`, only the objects it marks count (nothing below a place it does not describe); without, the strict shape. */
function walk(value: unknown, path: string[], depth: number, schema: SchemaPlace | undefined): FileOutput[] {
  if (depth > 16 || (schema && schema.at === undefined)) return [];
  if (isObject(value)) {
    const resolved = schema ? resolveSchema(schema.root, schema.at) : undefined;
    const marked = isObject(resolved) && resolved[MARKER] === 'output';
    if (marked || !schema) {
      const own = asFileOutput(value, path, marked);
      if (own) return [own];
      if (marked) return [];
    }
  } else if (!Array.isArray(value)) {
    return [];
  }
  const entries: Array<[string, unknown]> = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  return entries.flatMap(([k, v]) => walk(v, [...path, k], depth + 1, schema && { root: schema.root, at: childSchema(schema.root, schema.at, value, k) }));
}

/**
 * FileOutput objects in a result's structuredContent. With an `outputSchema` that uses the
 * `x-mcp-file-mode: "output"` marker: exactly the objects at the places it marks. Otherwise (no schema, or
 * the marker was stripped, as protoc-gen-go-mcp's WithFileMode does): objects with the strict FileOutput shape.
 */
export function findFileOutputs(structuredContent: unknown, outputSchema?: unknown): FileOutput[] {
  const usesMarker = isObject(outputSchema) && JSON.stringify(outputSchema).includes(`"${MARKER}":"output"`);
  return walk(structuredContent, [], 0, usesMarker ? { root: outputSchema, at: outputSchema } : undefined);
}

/** The FileOutput at a place already found by findFileOutputs (its shape is not judged again). */
export function fileOutputAt(value: unknown): FileOutput | undefined {
  return isObject(value) ? asFileOutput(value, [], true) : undefined;
}

/** Sets `value` at `path` inside `args`, creating plain objects on the way. */
export function setAtPath(args: Record<string, unknown>, path: readonly string[], value: unknown): void {
  if (path.length === 0) throw new Error('setAtPath needs a non-empty path');
  let target: Record<string, unknown> = args;
  for (const key of path.slice(0, -1)) {
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') throw new Error(`refusing to set "${key}"`);
    const next = target[key];
    if (!isObject(next)) target[key] = {};
    target = target[key] as Record<string, unknown>;
  }
  const last = path[path.length - 1];
  if (last === '__proto__' || last === 'constructor' || last === 'prototype') throw new Error(`refusing to set "${last}"`);
  target[last!] = value;
}

/** The value at `path`, or undefined. */
export function getAtPath(args: unknown, path: readonly string[]): unknown {
  let current = args;
  for (const key of path) {
    if (!isObject(current) || !Object.hasOwn(current, key)) return undefined;
    current = current[key];
  }
  return current;
}
