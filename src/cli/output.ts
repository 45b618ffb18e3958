// How the CLI shows what a server answered: text terminal-safe, other items as one-line summaries.
import type { Tool } from '@modelcontextprotocol/client';
import { toolAppUri } from '../core/apps';
import { formatBytes } from '../core/files';
import { parseJsonBounded } from '../core/io/json';
import type { ResultView } from '../core/results';
import { assertNever } from '../shared/assertNever';
import { usageError, type ParsedArgs } from './options';
import { oneLine } from '../shared/format';
import { terminalLine, terminalName, terminalText } from './terminal';
import { fileOutputLine } from './transfer';

/** A result for a terminal: text as it is (terminal-safe), other items as one-line summaries. */
export function resultText(view: ResultView): string {
  const lines: string[] = [];
  const mime = (m: string | undefined) => (m ? ` (${m})` : '');
  for (const item of view.items) {
    // A prompt's message says whose it is first.
    if (item.role) lines.push(`${item.role}:`);
    switch (item.kind) {
      case 'text':
      case 'resourceText':
        lines.push(item.text);
        break;
      case 'image':
      case 'audio':
        lines.push(`[${item.kind} ${item.mimeType}, ${formatBytes(item.size)}]`);
        break;
      case 'resourceLink':
        lines.push(oneLine(`[resource link ${item.uri}${mime(item.mimeType)}${item.name !== item.uri ? ` "${item.name}"` : ''}]`));
        break;
      case 'resourceBlob':
        lines.push(oneLine(`[resource ${item.uri}${mime(item.mimeType)}, ${formatBytes(item.size)}]`));
        break;
      case 'fileOutput':
        lines.push(oneLine(`[file ${item.name}${mime(item.mimeType)}${item.size !== undefined ? `, ${formatBytes(item.size)}` : ''}]`));
        break;
      case 'file':
        lines.push(fileOutputLine(item));
        break;
      case 'unknown':
        lines.push(oneLine(`[${item.type} content]`));
        break;
      default:
        assertNever(item, 'result item');
    }
  }
  if (!view.items.some((i) => i.kind !== 'fileOutput' && i.kind !== 'file') && view.structured?.json !== undefined) lines.push(view.structured.json);
  return terminalText(lines.join('\n'));
}

export function toolLine(tool: Tool): string {
  const title = tool.title ?? tool.annotations?.title;
  const parts = [terminalName(tool.name, 100)];
  if (title && title !== tool.name) parts.push(`(${terminalName(title, 100)})`);
  if (tool.description) parts.push(`— ${terminalLine(tool.description, 200)}`);
  const app = toolAppUri(tool);
  if (app) parts.push(`[app ${terminalName(app, 200)}]`);
  return parts.join('  ');
}

/**
 * The result as received; for a tool with an app, its `_meta` also carries the tool's `ui` (the app's
 * `resourceUri`), so a script can read the app with `mcp-host resource read`. The result's own keys win.
 */
export function withToolUi<R extends { _meta?: Record<string, unknown> }>(result: R, tool: Tool): R {
  const uri = toolAppUri(tool);
  if (!uri) return result;
  const ui = tool._meta?.ui && typeof tool._meta.ui === 'object' ? tool._meta.ui : { resourceUri: uri };
  return { ...result, _meta: { ui, ...result._meta } };
}

/** `--args`: a JSON object (a tool's arguments, or a prompt's). */
export function parseArgsOption(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = parseJsonBounded(text);
  } catch (e) {
    throw usageError(`--args is not valid JSON: ${(e as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw usageError('--args must be a JSON object, e.g. --args \'{"text":"hi"}\'');
  return value as Record<string, unknown>;
}

/** The one name `call` (a tool) and `prompt` (a prompt) take. */
export function singleName(a: ParsedArgs, what: 'tool' | 'prompt'): string {
  const [name, ...extra] = a.positional;
  if (!name) throw usageError(`${a.command} needs the name of a ${what}`);
  if (extra.length) throw usageError(`unexpected argument ${extra[0]}`);
  return name;
}

/** Text for stdout, ending with a newline unless it is empty. */
export const asLines = (text: string) => (text.endsWith('\n') || text === '' ? text : `${text}\n`);
