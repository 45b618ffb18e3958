// Large results kept for a model to read in pieces: the text parts of a tool result (text blocks, embedded
// resource texts, structured content as JSON) held in memory under a handle, bounded in count and bytes, with
// range reads by lines or bytes that return exactly the original's bytes, and head/tail previews.
// Nothing here touches the disk: a result reaches the workspace only when the person saves it.

import { MiB } from '../io/limits';
import { isObject } from '../../shared/json';
import type { ResultLike } from './view';

export const KEPT_RESULT_LIMITS = {
  /** Results kept at once (the oldest goes first). */
  results: 50,
  /** UTF-8 bytes of all kept results together. */
  bytes: 256 * MiB,
};

const CHEAP_LINE_COUNT_BYTES = 4 * MiB;

/** The URI scheme of the read-only documents that show a kept result's parts. */
export const RESULT_SCHEME = 'mcp-result';

export type KeptPartKind = 'text' | 'resourceText' | 'structured';

export interface KeptPartInput {
  /** "1", "2", … (the content block's position, from 1) or "structured". */
  id: string;
  kind: KeptPartKind;
  text: string;
  mimeType?: string;
  uri?: string;
}

export class KeptPart {
  readonly bytes: Buffer;
  readonly chars: number;
  private starts?: Uint32Array | number[];

  constructor(
    readonly id: string,
    readonly kind: KeptPartKind,
    text: string,
    readonly mimeType?: string,
    readonly uri?: string,
  ) {
    this.bytes = Buffer.from(text, 'utf8');
    this.chars = text.length;
  }

  /** Byte offsets where each line starts (computed on first use). */
  lineStarts(): ArrayLike<number> {
    if (!this.starts) {
      const starts: number[] = [0];
      for (let at = this.bytes.indexOf(0x0a); at !== -1; at = this.bytes.indexOf(0x0a, at + 1)) {
        if (at + 1 < this.bytes.length) starts.push(at + 1);
      }
      this.starts = this.bytes.length <= 0xffffffff ? Uint32Array.from(starts) : starts;
    }
    return this.starts;
  }

  get lines(): number {
    return this.bytes.length === 0 ? 0 : this.lineStarts().length;
  }

  /** The line count when it is known or cheap to know (a long part's lines are counted on its first line read). */
  get linesIfCheap(): number | undefined {
    return this.starts || this.bytes.length <= CHEAP_LINE_COUNT_BYTES ? this.lines : undefined;
  }

  /** The document name of this part: `part-1.txt`, `structured.json`. */
  get fileName(): string {
    return this.id === 'structured' ? 'structured.json' : `part-${this.id}${this.mimeType === 'application/json' ? '.json' : '.txt'}`;
  }
}

export interface KeptResult {
  handle: string;
  /** What produced it, e.g. `report on "files"`. */
  title: string;
  parts: KeptPart[];
  bytes: number;
  /** The text the model was given for it (the preview), shown to the user beside the whole. */
  modelText?: string;
}

/** The text parts of a result a model may read: content blocks meant for the assistant, and structured content. */
export function readableParts(result: ResultLike): KeptPartInput[] {
  const parts: KeptPartInput[] = [];
  const blocks = Array.isArray(result?.content) ? result.content : [];
  blocks.forEach((block, i) => {
    if (!isObject(block)) return;
    const audience = isObject(block.annotations) && Array.isArray(block.annotations.audience) ? block.annotations.audience : undefined;
    if (audience && !audience.includes('assistant')) return;
    const id = String(i + 1);
    if (block.type === 'text' && typeof block.text === 'string') parts.push({ id, kind: 'text', text: block.text });
    const r = block.type === 'resource' && isObject(block.resource) ? block.resource : undefined;
    if (r && typeof r.text === 'string') {
      parts.push({
        id,
        kind: 'resourceText',
        text: r.text,
        ...(typeof r.mimeType === 'string' ? { mimeType: r.mimeType } : {}),
        ...(typeof r.uri === 'string' ? { uri: r.uri } : {}),
      });
    }
  });
  if (result?.structuredContent !== undefined) {
    parts.push({ id: 'structured', kind: 'structured', text: JSON.stringify(result.structuredContent, null, 2) ?? 'null', mimeType: 'application/json' });
  }
  return parts;
}

/** Kept results in memory for the session, bounded in count and bytes; the least recently used go first. */
export class KeptResults {
  private readonly kept = new Map<string, KeptResult>();
  private bytes = 0;
  private next = 1;

  constructor(private readonly limits = KEPT_RESULT_LIMITS) {}

  /** Keeps the parts under a new handle; undefined when they alone exceed the byte limit. */
  keep(title: string, inputs: readonly KeptPartInput[]): KeptResult | undefined {
    // A UTF-8 text has at least as many bytes as UTF-16 code units: a cheap first refusal.
    let chars = 0;
    for (const p of inputs) chars += p.text.length;
    if (chars > this.limits.bytes) return undefined;
    const parts = inputs.map((p) => new KeptPart(p.id, p.kind, p.text, p.mimeType, p.uri));
    let size = 0;
    for (const p of parts) size += p.bytes.length;
    if (size > this.limits.bytes) return undefined;
    const entry: KeptResult = { handle: `r${this.next++}`, title, parts, bytes: size };
    while (this.kept.size > 0 && (this.kept.size >= this.limits.results || this.bytes + size > this.limits.bytes)) {
      this.drop(this.kept.keys().next().value!);
    }
    this.kept.set(entry.handle, entry);
    this.bytes += size;
    return entry;
  }

  /** The kept results, the most recently used last. */
  list(): KeptResult[] {
    return [...this.kept.values()];
  }

  get(handle: string): KeptResult | undefined {
    const entry = this.kept.get(handle);
    if (entry) {
      this.kept.delete(handle);
      this.kept.set(handle, entry);
    }
    return entry;
  }

  get size(): number {
    return this.kept.size;
  }

  get totalBytes(): number {
    return this.bytes;
  }

  clear(): void {
    this.kept.clear();
    this.bytes = 0;
  }

  private drop(handle: string): void {
    const entry = this.kept.get(handle);
    if (!entry) return;
    this.kept.delete(handle);
    this.bytes -= entry.bytes;
  }
}

/** `mcp-result:/r3/part-1.txt` and back. */
export function resultPartUri(handle: string, part: KeptPart): string {
  return `${RESULT_SCHEME}:/${handle}/${part.fileName}`;
}

/** The document of what the model was given for a kept result. */
export function modelPreviewUri(handle: string): string {
  return `${RESULT_SCHEME}:/${handle}/${MODEL_PREVIEW}`;
}

const MODEL_PREVIEW = 'model-preview.txt';

/** A part's id, or `preview` for what the model was given. */
export function parseResultPartPath(path: string): { handle: string; part: string } | undefined {
  const m = /^\/?(r\d+)\/(?:part-(\d+)\.(?:txt|json)|(structured)\.json|(model-preview)\.txt)$/.exec(path);
  return m ? { handle: m[1]!, part: m[2] ?? m[3] ?? (m[4] ? 'preview' : '') } : undefined;
}

// ---- range reads ----

export type RangeRequest = { unit: 'lines'; start: number; end?: number } | { unit: 'bytes'; start: number; end?: number };

export interface RangeRead {
  /** Exactly the original's bytes from `start` (inclusive) to `end` (exclusive), decoded. */
  text: string;
  unit: 'lines' | 'bytes';
  /** Lines are numbered from 1 and `end` is the last line included; bytes count from 0 and `end` is excluded. */
  start: number;
  end: number;
  /** Byte offsets of what was returned (also for line reads). */
  byteStart: number;
  byteEnd: number;
  total: number;
  /** Why fewer than asked were returned. */
  cut?: string;
}

const isContinuation = (b: number | undefined): boolean => b !== undefined && (b & 0xc0) === 0x80;

/** The nearest character start at or before `at` (a UTF-8 sequence is at most 4 bytes). */
function charStartAtOrBefore(bytes: Buffer, at: number): number {
  let i = Math.min(Math.max(at, 0), bytes.length);
  for (let n = 0; n < 3 && i > 0 && i < bytes.length && isContinuation(bytes[i]); n++) i--;
  return i;
}

function charStartAfter(bytes: Buffer, at: number): number {
  let i = Math.min(at + 1, bytes.length);
  while (i < bytes.length && isContinuation(bytes[i])) i++;
  return i;
}

function checkedInteger(name: string, v: number | undefined, min: number): void {
  if (v !== undefined && (!Number.isInteger(v) || v < min)) throw new Error(`"${name}" must be a whole number of at least ${min} (got ${JSON.stringify(v)}).`);
}

/**
 * Reads a range of a kept part, returning at most `maxBytes` bytes. Byte offsets that fall inside a
 * multi-byte character move back to that character's start, so consecutive reads (each starting at the
 * previous `end`) put the original together byte for byte.
 */
export function readRange(part: KeptPart, range: RangeRequest, maxBytes: number): RangeRead {
  const bytes = part.bytes;
  if (range.unit === 'bytes') {
    checkedInteger('startByte', range.start, 0);
    checkedInteger('endByte', range.end, 0);
    if (range.start > bytes.length) throw new Error(`"startByte" ${range.start} is past the end of part ${part.id} (${bytes.length} bytes).`);
    const wantedEnd = Math.min(range.end ?? bytes.length, bytes.length);
    if (wantedEnd < range.start) throw new Error(`"endByte" ${wantedEnd} is before "startByte" ${range.start}.`);
    const start = charStartAtOrBefore(bytes, range.start);
    let end = charStartAtOrBefore(bytes, Math.min(wantedEnd, start + maxBytes));
    // A range inside one character still returns that whole character.
    if (end <= start && wantedEnd > start) end = charStartAfter(bytes, start);
    const cut = end < wantedEnd && wantedEnd - start > maxBytes ? `at most ${maxBytes} bytes are returned at once` : undefined;
    return {
      text: bytes.toString('utf8', start, end),
      unit: 'bytes',
      start,
      end,
      byteStart: start,
      byteEnd: end,
      total: bytes.length,
      ...(cut ? { cut } : {}),
    };
  }
  checkedInteger('startLine', range.start, 1);
  checkedInteger('endLine', range.end, 1);
  const starts = part.lineStarts();
  const lines = part.lines;
  if (range.start > Math.max(lines, 1)) throw new Error(`"startLine" ${range.start} is past the end of part ${part.id} (${lines} lines).`);
  const last = Math.min(range.end ?? lines, lines);
  if (last < range.start && lines > 0) throw new Error(`"endLine" ${last} is before "startLine" ${range.start}.`);
  const byteStart = lines === 0 ? 0 : starts[range.start - 1]!;
  const lineEnd = (n: number): number => (n < lines ? starts[n]! : bytes.length);
  let end = range.start - 1;
  while (end < last && lineEnd(end + 1) - byteStart <= maxBytes) end++;
  if (end < range.start && lines > 0) {
    // One line longer than a read: its head, and the byte offset to go on from.
    const head = readRange(part, { unit: 'bytes', start: byteStart, end: lineEnd(range.start) }, maxBytes);
    return {
      ...head,
      unit: 'lines',
      start: range.start,
      end: range.start,
      cut: `line ${range.start} alone is longer than ${maxBytes} bytes: this is its head (bytes ${head.byteStart}-${head.byteEnd}); read on by bytes from ${head.byteEnd}`,
    };
  }
  const byteEnd = lines === 0 ? 0 : lineEnd(end);
  const cut = end < last ? `at most ${maxBytes} bytes are returned at once` : undefined;
  return {
    text: bytes.toString('utf8', byteStart, byteEnd),
    unit: 'lines',
    start: range.start,
    end,
    byteStart,
    byteEnd,
    total: lines,
    ...(cut ? { cut } : {}),
  };
}

// ---- previews ----

/** The first `chars` characters of `text`, never ending inside a surrogate pair. */
export function headOf(text: string, chars: number): string {
  if (chars >= text.length) return text;
  const end = chars > 0 && isHighSurrogate(text.charCodeAt(chars - 1)) ? chars - 1 : chars;
  return text.slice(0, Math.max(0, end));
}

/** The last `chars` characters of `text`, never starting inside a surrogate pair. */
export function tailOf(text: string, chars: number): string {
  if (chars >= text.length) return text;
  let start = text.length - chars;
  if (chars > 0 && isLowSurrogate(text.charCodeAt(start))) start++;
  return text.slice(start);
}

const isHighSurrogate = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLowSurrogate = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;
