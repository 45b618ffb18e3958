// A tool's result as a model receives it: text as text, images and audio as data parts (when the editor's API
// has them), structured content as JSON text with what its validation against the output schema found, and
// file outputs named (their bytes are saved only when the user says so). Content meant only for the user
// (audience ["user"]) is left out.

import { formatBytes } from '../files';
import type { ResultItem, ResultView, StructuredStatus } from '../../shared/resultModel';

export type AgentPart =
  | { kind: 'text'; text: string }
  | { kind: 'data'; mimeType: string; base64: string };

const STRUCTURED_STATUS: Record<StructuredStatus, string> = {
  valid: 'valid against the tool\'s output schema',
  invalid: 'does NOT match the tool\'s output schema',
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
      return { kind: 'text', text: `Resource link: ${item.title ?? item.name} <${item.uri}>${sizeOf(item) ? ` (${sizeOf(item)})` : ''}${item.description ? ` — ${item.description}` : ''}` };
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
