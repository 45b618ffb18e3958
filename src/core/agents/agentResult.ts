// A tool's result as a model receives it: text as text, images and audio as data parts (when the editor's API
// has them), structured content as JSON text with what its validation against the output schema found, and
// file outputs named (their bytes are saved only when the user says so). Content meant only for the user
// (audience ["user"]) is left out. A result larger than the model's budget becomes a bounded preview with a
// handle to read the whole in ranges (boundedAgentResultParts).

import { formatBytes } from '../files';
import { headOf, KeptPart, readableParts, resultPartUri, tailOf, type KeptPartInput, type KeptResult } from '../results/modelView';
import type { ResultLike } from '../results/view';
import type { ResultItem, ResultView, StructuredStatus } from '../../shared/resultModel';

export type AgentPart = { kind: 'text'; text: string } | { kind: 'data'; mimeType: string; base64: string };

const STRUCTURED_STATUS: Record<StructuredStatus, string> = {
  valid: "valid against the tool's output schema",
  invalid: "does NOT match the tool's output schema",
  missing: 'missing: the tool declares an output schema but returned none',
  unchecked: 'not checked: the tool declares no usable output schema',
  skipped: 'not checked: the tool reported an error',
};

function sizeOf(item: { mimeType?: string; size?: number }): string {
  return [item.mimeType, item.size !== undefined ? formatBytes(item.size) : undefined].filter(Boolean).join(', ');
}

function partOf(item: ResultItem, media: boolean): AgentPart | undefined {
  switch (item.kind) {
    case 'text':
      return { kind: 'text', text: item.truncated ? `${item.text}\n[truncated: ${item.truncated.totalChars} characters in all]` : item.text };
    case 'image':
    case 'audio':
      return media && item.data
        ? { kind: 'data', mimeType: item.mimeType, base64: item.data }
        : { kind: 'text', text: `[${item.kind}: ${sizeOf(item)}; shown to the user, not passed to the model]` };
    case 'resourceLink':
      return {
        kind: 'text',
        text: `Resource link: ${item.title ?? item.name} <${item.uri}>${sizeOf(item) ? ` (${sizeOf(item)})` : ''}${item.description ? ` — ${item.description}` : ''}`,
      };
    case 'resourceText':
      return { kind: 'text', text: `Resource <${item.uri}>${item.mimeType ? ` (${item.mimeType})` : ''}:\n${item.text}` };
    case 'resourceBlob':
      return media && item.data && item.mimeType?.startsWith('image/')
        ? { kind: 'data', mimeType: item.mimeType, base64: item.data }
        : { kind: 'text', text: `Resource <${item.uri}>: ${sizeOf(item) || 'binary'}; not passed to the model.` };
    case 'fileOutput':
    case 'file':
      return { kind: 'text', text: `File output: ${item.name}${sizeOf(item) ? ` (${sizeOf(item)})` : ''}.` };
    case 'unknown':
      return { kind: 'text', text: `[content of type ${item.type}]: ${item.json}` };
  }
}

/** The parts a model gets for a result; `media` when data parts can be sent. */
export function agentResultParts(view: ResultView, options: { media: boolean }): AgentPart[] {
  const parts: AgentPart[] = [];
  if (view.isError) parts.push({ kind: 'text', text: 'The tool reported an error:' });
  for (const item of view.items) {
    if (item.annotations?.audience && !item.annotations.audience.includes('assistant')) continue;
    const part = partOf(item, options.media);
    if (part) parts.push(part);
  }
  if (view.structured) {
    const s = view.structured;
    const errors = s.errors?.length ? `\nProblems: ${s.errors.join('; ')}` : '';
    parts.push({ kind: 'text', text: `Structured content (${STRUCTURED_STATUS[s.status]}):${s.json !== undefined ? `\n${s.json}` : ''}${errors}` });
  }
  if (parts.length === 0) parts.push({ kind: 'text', text: view.isError ? 'The tool reported an error without details.' : 'The tool returned no content.' });
  return parts;
}

/** What a bounded result needs from its caller: the character budget, and where the whole result is kept. */
export interface BoundedResultOptions {
  media: boolean;
  /** The most characters of text the model is given for one result. */
  maxChars: number;
  /** Keeps the readable parts; undefined when they cannot be kept (too large for the session's store). */
  keep: (parts: KeptPartInput[]) => KeptResult | undefined;
  /** The tool that reads a range by handle, named in the preview. */
  readTool: string;
}

/** The smallest head plus tail worth showing of one long part. */
const MIN_PART_PREVIEW = 240;
const PART_OVERHEAD = 400;

function partLabel(part: KeptPart): string {
  const what =
    part.kind === 'structured' ? 'structured content, JSON' : part.kind === 'resourceText' ? `resource${part.mimeType ? `, ${part.mimeType}` : ''}` : 'text';
  const lines = part.linesIfCheap;
  return `[part ${part.id}: ${what}, ${part.chars.toLocaleString('en-US')} characters, ${formatBytes(part.bytes.length)}${lines !== undefined ? `, ${lines.toLocaleString('en-US')} line${lines === 1 ? '' : 's'}` : ''}]`;
}

/** A part whole when it fits `budget`, else its head and tail with the byte offsets of what is left out. */
function previewOf(part: KeptPart, text: string, budget: number, readTool: string, handle: string | undefined): string {
  if (text.length <= budget) return text;
  const head = headOf(text, Math.ceil((budget * 2) / 3));
  const tail = tailOf(text, budget - head.length);
  const from = Buffer.byteLength(head, 'utf8');
  const to = part.bytes.length - Buffer.byteLength(tail, 'utf8');
  const how = handle ? `; read them with ${readTool} {"handle": "${handle}", "part": "${part.id}", "startByte": ${from}, "endByte": ${to}} or by lines` : '';
  return `${head}\n[… ${(text.length - head.length - tail.length).toLocaleString('en-US')} characters (bytes ${from}-${to}) left out${how} …]\n${tail}`;
}

/**
 * The parts a model gets for a result, within `maxChars` characters of text: the result as
 * `agentResultParts` gives it when it fits; otherwise a preview naming every part with its type and size,
 * the head and tail of each long text, and a handle to read any range of the whole (kept in memory).
 */
export function boundedAgentResultParts(result: ResultLike, view: ResultView, options: BoundedResultOptions): { parts: AgentPart[]; kept?: KeptResult } {
  const readable = readableParts(result);
  let textChars = 0;
  for (const p of readable) textChars += p.text.length;
  if (textChars <= options.maxChars * 0.9) return { parts: agentResultParts(view, options) };

  const kept = options.keep(readable);
  const keptParts = kept?.parts ?? readable.map((p) => new KeptPart(p.id, p.kind, p.text, p.mimeType, p.uri));
  const byId = new Map(keptParts.map((p, i) => [p.id, { part: p, text: readable[i]!.text }]));
  const handle = kept?.handle;
  const first = keptParts[0];
  const intro =
    handle && first
      ? `This result (${textChars.toLocaleString('en-US')} characters of text in ${keptParts.length} part${keptParts.length === 1 ? '' : 's'}) is larger than the ${options.maxChars.toLocaleString('en-US')} characters given at once, so this is a preview: every part with its type and size, long texts by their head and tail. The whole result is kept as handle "${handle}": read any range of a part with ${options.readTool} {"handle": "${handle}", "part": "${first.id}", "startLine": 1, "endLine": 100} (or "startByte"/"endByte"). The user can open it whole as ${resultPartUri(handle, first)}.`
      : `This result (${textChars.toLocaleString('en-US')} characters of text) is larger than the ${options.maxChars.toLocaleString('en-US')} characters given at once, and too large to keep for reading in parts: this is a preview of its head and tail.`;

  const parts: AgentPart[] = [{ kind: 'text', text: intro }];
  if (view.isError) parts.push({ kind: 'text', text: 'The tool reported an error:' });
  let budget = options.maxChars - intro.length;
  // Each shown part also carries its label and the note on what was left out (PART_OVERHEAD characters).
  const shown = view.items.filter((item) => !item.annotations?.audience || item.annotations.audience.includes('assistant')).length + (view.structured ? 1 : 0);
  const share = Math.max(MIN_PART_PREVIEW, Math.floor(budget / Math.max(1, shown)) - PART_OVERHEAD);
  let left = 0;
  const add = (text: string): void => {
    // What is left keeps room for the closing note on the parts not shown.
    if (budget - text.length < 120) {
      left++;
      return;
    }
    parts.push({ kind: 'text', text });
    budget -= text.length;
  };
  view.items.forEach((item, i) => {
    if (item.annotations?.audience && !item.annotations.audience.includes('assistant')) return;
    const readablePart = byId.get(String(i + 1));
    if (readablePart && (item.kind === 'text' || item.kind === 'resourceText')) {
      const { part, text } = readablePart;
      const uri = item.kind === 'resourceText' ? ` <${item.uri}>` : '';
      add(`${partLabel(part)}${uri}\n${previewOf(part, text, Math.min(share, Math.max(MIN_PART_PREVIEW, budget - PART_OVERHEAD)), options.readTool, handle)}`);
      return;
    }
    const part = partOf(item, options.media);
    if (part?.kind === 'data') parts.push(part);
    else if (part) add(`[part ${i + 1}: ${item.kind}] ${part.text}`);
  });
  const structured = byId.get('structured');
  if (view.structured) {
    const s = view.structured;
    const errors = s.errors?.length ? `\nProblems: ${s.errors.join('; ')}` : '';
    const body = structured
      ? `\n${partLabel(structured.part)}\n${previewOf(structured.part, structured.text, Math.min(share, Math.max(MIN_PART_PREVIEW, budget - PART_OVERHEAD)), options.readTool, handle)}`
      : '';
    add(`Structured content (${STRUCTURED_STATUS[s.status]}):${body}${errors}`);
  }
  if (left > 0)
    parts.push({
      kind: 'text',
      text: `[${left} more part${left === 1 ? '' : 's'} left out of this preview${handle ? `; read them by handle "${handle}"` : ''}.]`,
    });
  return kept ? { parts, kept } : { parts };
}
