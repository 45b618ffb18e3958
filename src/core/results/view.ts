// CallToolResult -> ResultView, and the way back from a SaveItem to the bytes it stands for.

import { decodedSize } from '../files/redact';
import { fileOutputAt, findFileOutputs, type FileOutput } from '../files/fileObjects';
import { pointer } from '../forms/build';
import { fileOfBlock, fileOfResourceContents, findFileValues } from '../files/transfer/outputs';
import type { FileValue } from '../files/transfer/protocol';
import { ajvMessages, checkValue, compileSchema } from '../forms/validate';
import { cutDeep } from '../io/json';
import { MAX_SERVER_JSON_DEPTH } from '../io/limits';
import type { ContentAnnotations, ResultItem, ResultView, SaveItem, StructuredView } from '../../shared/resultModel';
import { isObject } from '../../shared/json';
import { getOwn } from '../io/own';

export const RESULT_LIMITS = {
  /** Decoded bytes of an image/audio/blob kept for the preview. */
  previewBytes: 8 * 1024 * 1024,
  /** Characters of text (or JSON) kept for display. */
  textChars: 1024 * 1024,
  blocks: 5000,
};

export interface ResultLike {
  content?: unknown[];
  structuredContent?: unknown;
  isError?: boolean;
}
export interface ToolLike {
  name: string;
  outputSchema?: unknown;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function capText(text: string): { text: string; truncated?: { totalChars: number } } {
  return text.length <= RESULT_LIMITS.textChars ? { text } : { text: text.slice(0, RESULT_LIMITS.textChars), truncated: { totalChars: text.length } };
}

function annotationsOf(block: Record<string, unknown>): ContentAnnotations | undefined {
  const a = block.annotations;
  if (!isObject(a)) return undefined;
  const out: ContentAnnotations = {};
  if (Array.isArray(a.audience)) {
    const audience = a.audience.filter((x): x is 'user' | 'assistant' => x === 'user' || x === 'assistant');
    if (audience.length) out.audience = audience;
  }
  if (typeof a.priority === 'number' && a.priority >= 0 && a.priority <= 1) out.priority = a.priority;
  if (typeof a.lastModified === 'string') out.lastModified = a.lastModified.slice(0, 64);
  return Object.keys(out).length ? out : undefined;
}

function extensionFor(mimeType: string | undefined): string {
  const sub = (mimeType ?? '').split(';')[0]!.split('/')[1] ?? '';
  const known: Record<string, string> = { jpeg: 'jpg', 'svg+xml': 'svg', plain: 'txt', mpeg: 'mp3', 'x-wav': 'wav', markdown: 'md' };
  const ext = known[sub] ?? sub.replace(/[^a-z0-9]/gi, '');
  return ext ? `.${ext.slice(0, 10)}` : '.bin';
}

function nameFromUri(uri: string | undefined): string | undefined {
  if (!uri) return undefined;
  const last = uri
    .split(/[/\\?#]/)
    .filter(Boolean)
    .pop();
  return last && !last.includes(':') ? last : undefined;
}

function base64Item(data: unknown, mimeType: string | undefined, ref: string, name: string) {
  const text = typeof data === 'string' ? data : '';
  const size = decodedSize(text, true);
  const save: SaveItem = { ref, name, source: 'inline', size, ...(mimeType ? { mimeType } : {}) };
  return size <= RESULT_LIMITS.previewBytes ? { size, data: text, save } : { size, tooLargeToPreview: true, save };
}

function blockView(block: unknown, index: number): ResultItem {
  const ref = `content/${index}`;
  if (!isObject(block)) return { kind: 'unknown', type: typeof block, json: capText(JSON.stringify(block) ?? String(block)).text };
  const annotations = annotationsOf(block);
  const withAnn = <T extends object>(item: T): T => (annotations ? { ...item, annotations } : item);
  switch (block.type) {
    case 'text': {
      const text = str(block.text) ?? '';
      const capped = capText(text);
      const save: SaveItem | undefined = capped.truncated
        ? { ref, name: `text-${index + 1}.txt`, mimeType: 'text/plain', source: 'inline', size: Buffer.byteLength(text) }
        : undefined;
      return withAnn({ kind: 'text', ...capped, ...(save ? { save } : {}) });
    }
    case 'image':
    case 'audio': {
      const mimeType = str(block.mimeType) ?? 'application/octet-stream';
      return withAnn({ kind: block.type, mimeType, ...base64Item(block.data, mimeType, ref, `${block.type}-${index + 1}${extensionFor(mimeType)}`) });
    }
    case 'resource_link': {
      const uri = str(block.uri) ?? '';
      const item: ResultItem = { kind: 'resourceLink', uri, name: str(block.name) ?? nameFromUri(uri) ?? uri };
      for (const k of ['title', 'description', 'mimeType'] as const) {
        const v = str(block[k]);
        if (v !== undefined) item[k] = capText(v).text;
      }
      if (typeof block.size === 'number') item.size = block.size;
      return withAnn(item);
    }
    case 'resource': {
      const r = isObject(block.resource) ? block.resource : {};
      // A resource whose contents are a file (SEP-2631 FileResourceContents, e.g. a template read): Save and Open.
      const file = fileOfResourceContents(r);
      if (file) return withAnn(fileItem(file, ref, index));
      const uri = str(r.uri) ?? '';
      const mimeType = str(r.mimeType);
      if (typeof r.blob === 'string') {
        const name = nameFromUri(uri) ?? `resource-${index + 1}${extensionFor(mimeType)}`;
        return withAnn({ kind: 'resourceBlob', uri, ...(mimeType ? { mimeType } : {}), ...base64Item(r.blob, mimeType, ref, name) });
      }
      const text = str(r.text) ?? '';
      const capped = capText(text);
      const save: SaveItem | undefined = capped.truncated
        ? { ref, name: nameFromUri(uri) ?? `resource-${index + 1}.txt`, source: 'inline', size: Buffer.byteLength(text), ...(mimeType ? { mimeType } : {}) }
        : undefined;
      return withAnn({ kind: 'resourceText', uri, ...(mimeType ? { mimeType } : {}), ...capped, ...(save ? { save } : {}) });
    }
    case 'file': {
      const file = fileOfBlock(block);
      if (file) return withAnn(fileItem(file, ref, index));
      return withAnn({ kind: 'unknown', type: 'file', json: capText(JSON.stringify(block)).text });
    }
    default:
      return withAnn({ kind: 'unknown', type: String(block.type).slice(0, 100), json: capText(JSON.stringify(block)).text });
  }
}

/** A SEP-2631 file output as an item: shown by name, type and size, downloaded (and verified) only on Save. */
function fileItem(file: FileValue, ref: string, index: number): ResultItem {
  const name = file.name ?? nameFromUri(file.uri) ?? `file-${index + 1}${extensionFor(file.mimeType)}`;
  const save: SaveItem = {
    ref,
    name,
    source: 'file',
    fileUri: file.uri,
    ...(file.mimeType ? { mimeType: file.mimeType } : {}),
    ...(file.size !== undefined ? { size: file.size } : {}),
    ...(file.digest ? { digest: file.digest } : {}),
  };
  return {
    kind: 'file',
    name: capText(name).text.slice(0, 300),
    uri: file.uri.slice(0, 2000),
    digest: file.digest !== undefined,
    ...(file.mimeType ? { mimeType: file.mimeType.slice(0, 200) } : {}),
    ...(file.size !== undefined ? { size: file.size } : {}),
    save,
  };
}

function saveForFileOutput(out: FileOutput): SaveItem {
  const base = { ref: `structured${pointer(out.path)}`, name: out.filename, ...(out.mimeType ? { mimeType: out.mimeType } : {}) };
  const size = out.sizeBytes !== undefined ? { size: out.sizeBytes } : {};
  switch (out.source.kind) {
    case 'content':
      return { ...base, source: 'inline', size: out.source.size };
    case 'path':
      return { ...base, ...size, source: 'path', path: out.source.path };
    case 's3':
      return { ...base, ...size, source: 'url', url: out.source.url };
  }
}

function structuredAt(structured: unknown, ref: string): FileOutput | undefined {
  let v = structured;
  const path = ref
    .split('/')
    .slice(1)
    .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'));
  for (const key of path) v = Array.isArray(v) ? v[Number(key)] : isObject(v) ? getOwn(v, key) : undefined;
  return fileOutputAt(v);
}

function structuredView(result: ResultLike, tool: ToolLike | undefined): StructuredView | undefined {
  const has = result.structuredContent !== undefined;
  const schema = tool?.outputSchema;
  if (!has && schema === undefined) return undefined;
  if (!has) {
    return result.isError
      ? undefined
      : { status: 'missing', errors: [`The tool "${tool!.name}" declares an output schema but returned no structured content.`] };
  }
  // Cut where it nests past the host's limit (the connection cuts it as it arrives; a value from elsewhere is cut here).
  const { value, cut } = cutDeep(result.structuredContent);
  const { text, truncated } = capText(JSON.stringify(value, null, 2) ?? 'null');
  const view: StructuredView = { status: 'unchecked', json: text, ...(truncated ? { truncated } : {}) };
  if (cut) {
    return { ...view, notes: [schema !== undefined && !result.isError ? `${CUT_NOTE} It was not checked against the output schema.` : CUT_NOTE] };
  }
  if (schema === undefined) return view;
  if (result.isError) return { ...view, status: 'skipped' };
  const validate = compileSchema(schema);
  if (typeof validate === 'string') return { ...view, errors: [`The tool's output schema could not be used: ${validate}.`] };
  const check = checkValue(validate, value);
  const notes = check.unchecked.length ? { notes: check.unchecked } : {};
  if (check.valid) return { ...view, status: 'valid', ...notes };
  return { ...view, status: 'invalid', errors: ajvMessages(check.errors), ...notes };
}

/** Why a result breaks (or lacks) the structured output its tool declares, or undefined (also when that could not be checked). */
export function structuredOutputProblem(result: ResultLike, tool: ToolLike | undefined): string | undefined {
  const structured = structuredView(result, tool);
  if (structured?.status === 'missing') return structured.errors?.[0];
  if (structured?.status === 'invalid') return `the structured content does not match the tool's output schema: ${(structured.errors ?? []).join('; ')}`;
  return undefined;
}

const CUT_NOTE = `The structured content nests more than ${MAX_SERVER_JSON_DEPTH} levels deep, the host's limit: it is shown cut at that depth.`;

/** The display model of a tool result; `tool` (with its outputSchema) enables structured-content validation. */
export function toResultView(result: ResultLike, tool?: ToolLike): ResultView {
  const blocks = Array.isArray(result?.content) ? result.content : [];
  const warnings: string[] = [];
  if (result && result.content !== undefined && !Array.isArray(result.content)) warnings.push("The result's content is not a list; it was ignored.");
  if (blocks.length > RESULT_LIMITS.blocks) warnings.push(`Only the first ${RESULT_LIMITS.blocks} of ${blocks.length} content blocks are shown.`);
  const items = blocks.slice(0, RESULT_LIMITS.blocks).map(blockView);
  for (const save of findFileOutputs(result?.structuredContent, tool?.outputSchema).slice(0, 1000).map(saveForFileOutput)) {
    items.push({
      kind: 'fileOutput',
      name: save.name,
      ...(save.mimeType ? { mimeType: save.mimeType } : {}),
      ...(save.size !== undefined ? { size: save.size } : {}),
      save,
    });
  }
  // A file the content already shows (a `file` block) is not listed again for its structured copy.
  const shown = new Set(items.flatMap((i) => (i.kind === 'file' ? [i.uri] : [])));
  for (const { path, file } of findFileValues(result?.structuredContent)) {
    if (!shown.has(file.uri)) items.push(fileItem(file, `structured${pointer(path)}`, items.length));
    shown.add(file.uri);
  }
  for (const item of items) {
    if ('truncated' in item && item.truncated && item.kind === 'text') warnings.push(`A text of ${item.truncated.totalChars} characters is shown in part.`);
    if ('tooLargeToPreview' in item && item.tooLargeToPreview)
      warnings.push(`A ${item.kind} of ${item.size} bytes is too large to preview; save it to view it.`);
  }
  const view: ResultView = {
    isError: result?.isError === true,
    items,
    saves: items.flatMap((i) => (i.save ? [i.save] : [])),
    warnings,
  };
  const structured = structuredView(result ?? {}, tool);
  if (structured) view.structured = structured;
  return view;
}

/**
 * A prompts/get answer shown like a tool result: its messages' content blocks as `result` (what saving
 * reads from) and their view, each item labelled with its message's role.
 */
export function promptResultView(answer: { messages?: unknown }): { result: ResultLike; view: ResultView } {
  const messages = Array.isArray(answer?.messages) ? answer.messages.filter(isObject) : [];
  const result = { content: messages.map((m) => m.content) };
  const view = toResultView(result);
  view.items.forEach((item, i) => {
    const role = messages[i]?.role;
    if (role === 'user' || role === 'assistant') item.role = role;
  });
  return { result, view };
}

/** Items for the contents of a `resources/read` answer (a resource link read on demand). */
export function resourceContentsView(read: { contents?: unknown[] }): ResultItem[] {
  const contents = Array.isArray(read?.contents) ? read.contents.slice(0, RESULT_LIMITS.blocks) : [];
  return contents.map((resource, i) => blockView({ type: 'resource', resource }, i));
}

export type SaveSource = { kind: 'bytes'; bytes: Buffer } | { kind: 'path'; path: string } | { kind: 'url'; url: string } | { kind: 'file'; file: FileValue };

/** What a save item stands for, read from the original result (the view keeps no full bytes). */
export function resolveSave(result: ResultLike, save: SaveItem): SaveSource {
  const [root, ...rest] = save.ref.split('/');
  if (save.source === 'file' && save.fileUri) {
    // The item names the file; the result is the authority for its size and digest.
    const file: FileValue = { uri: save.fileUri, name: save.name };
    if (save.mimeType) file.mimeType = save.mimeType;
    if (save.size !== undefined) file.size = save.size;
    if (save.digest) file.digest = save.digest;
    return { kind: 'file', file };
  }
  if (root === 'content') {
    const block = result.content?.[Number(rest[0])];
    if (isObject(block)) {
      if (typeof block.data === 'string') return { kind: 'bytes', bytes: Buffer.from(block.data, 'base64') };
      if (block.type === 'text' && typeof block.text === 'string') return { kind: 'bytes', bytes: Buffer.from(block.text, 'utf8') };
      const r = isObject(block.resource) ? block.resource : {};
      if (typeof r.blob === 'string') return { kind: 'bytes', bytes: Buffer.from(r.blob, 'base64') };
      if (typeof r.text === 'string') return { kind: 'bytes', bytes: Buffer.from(r.text, 'utf8') };
    }
  } else if (root === 'structured') {
    const out = structuredAt(result.structuredContent, save.ref.slice('structured'.length));
    if (out?.source.kind === 'content') return { kind: 'bytes', bytes: Buffer.from(out.source.base64, 'base64') };
    if (out?.source.kind === 'path') return { kind: 'path', path: out.source.path };
    if (out?.source.kind === 's3') return { kind: 'url', url: out.source.url };
  }
  throw new Error(`Nothing to save at ${save.ref} in this result.`);
}

/**
 * The view with `mask` applied to every text it shows (texts, names, links, structured content, errors and
 * warnings), so the host's own secrets a server echoes back are not displayed. Bytes and save references
 * are kept as they are.
 */
export function maskView(view: ResultView, mask: (text: string) => string): ResultView {
  const items = view.items.map((item): ResultItem => {
    switch (item.kind) {
      case 'text':
      case 'resourceText':
        return { ...item, text: mask(item.text) };
      case 'resourceLink':
        return {
          ...item,
          name: mask(item.name),
          ...(item.title !== undefined ? { title: mask(item.title) } : {}),
          ...(item.description !== undefined ? { description: mask(item.description) } : {}),
        };
      case 'fileOutput':
      case 'file':
        return { ...item, name: mask(item.name) };
      case 'unknown':
        return { ...item, json: mask(item.json) };
      default:
        return item;
    }
  });
  const structured = view.structured && {
    ...view.structured,
    ...(view.structured.json !== undefined ? { json: mask(view.structured.json) } : {}),
    ...(view.structured.errors ? { errors: view.structured.errors.map(mask) } : {}),
  };
  return { ...view, items, ...(structured ? { structured } : {}), warnings: view.warnings.map(mask) };
}
