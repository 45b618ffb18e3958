// What an MCP App asks to download (ext-apps `ui/download-file`): embedded resources (the bytes come with the
// request) and resource links (read from the app's own server when saved). Checked here, before the person is
// asked anything: a bounded number of items, embedded bytes within a bound and strictly base64, names that are
// file names. Nothing is written here; the host saves each item only where the person chose.

import { isObject } from '../../shared/json';
import { formatBytes } from '../files/limits';
import { parseDataUri } from '../files/dataUri';
import { safeFileName } from '../results/save';
import type { ResultLike } from '../results/view';
import type { SaveItem } from '../../shared/resultModel';
import { oneLine } from '../../shared/format';

export const APP_DOWNLOAD_LIMITS = {
  /** Files in one request. */
  items: 20,
  /** Decoded bytes embedded in one request (all items): larger files are for resource links. */
  embeddedBytes: 16 * 1024 * 1024,
  uriChars: 8192,
};

/** One file an app asks to save: its bytes came with the request, or a resource of the app's own server. */
export type AppDownloadItem =
  | { kind: 'embedded'; name: string; mimeType?: string; size: number; result: ResultLike; save: SaveItem }
  | { kind: 'link'; uri: string; name: string; mimeType?: string; size?: number };

function lastSegment(uri: string): string | undefined {
  const last = uri
    .replace(/[?#].*$/s, '')
    .split(/[/\\]/)
    .filter(Boolean)
    .pop();
  return last && !last.includes(':') ? last : undefined;
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** The request's items, or why it is refused (naming the item and the limit). */
export function appDownloadItems(contents: unknown): { items: AppDownloadItem[] } | { refused: string } {
  if (!Array.isArray(contents) || contents.length === 0) return { refused: 'the app asked to download nothing' };
  if (contents.length > APP_DOWNLOAD_LIMITS.items) {
    return { refused: `the app asked to download ${contents.length} files at once; at most ${APP_DOWNLOAD_LIMITS.items} are taken` };
  }
  const items: AppDownloadItem[] = [];
  let embedded = 0;
  for (const [i, block] of contents.entries()) {
    const what = `item ${i + 1}`;
    if (!isObject(block)) return { refused: `${what} is not a resource` };
    if (block.type === 'resource_link') {
      const uri = str(block.uri);
      if (!uri || uri.length > APP_DOWNLOAD_LIMITS.uriChars)
        return { refused: `${what}: a resource link needs a uri of at most ${APP_DOWNLOAD_LIMITS.uriChars} characters` };
      const name = safeFileName(str(block.name) ?? lastSegment(uri) ?? `download-${i + 1}`, 'download');
      const mimeType = str(block.mimeType);
      items.push({
        kind: 'link',
        uri,
        name,
        ...(mimeType ? { mimeType } : {}),
        ...(typeof block.size === 'number' && block.size >= 0 ? { size: block.size } : {}),
      });
      continue;
    }
    if (block.type !== 'resource' || !isObject(block.resource)) return { refused: `${what} is neither an embedded resource nor a resource link` };
    const resource = block.resource;
    const uri = str(resource.uri) ?? '';
    const mimeType = str(resource.mimeType);
    let size: number;
    if (typeof resource.blob === 'string') {
      // Strict base64 (alphabet, padding): a malformed blob is refused rather than saved as garbage.
      const parsed = parseDataUri(`data:application/octet-stream;base64,${resource.blob}`);
      if (!parsed.ok) return { refused: `${what}: its blob is not valid base64 (${parsed.reason})` };
      size = parsed.size;
    } else if (typeof resource.text === 'string') {
      size = Buffer.byteLength(resource.text, 'utf8');
    } else {
      return { refused: `${what}: an embedded resource needs its text or blob` };
    }
    embedded += size;
    if (embedded > APP_DOWNLOAD_LIMITS.embeddedBytes) {
      return {
        refused: `the files embedded in the request add up to more than ${formatBytes(APP_DOWNLOAD_LIMITS.embeddedBytes)} (at ${what}); an app offers larger files as resource links`,
      };
    }
    const name = safeFileName(lastSegment(uri) ?? `download-${i + 1}`, 'download');
    const save: SaveItem = { ref: 'content/0', name, source: 'inline', size, ...(mimeType ? { mimeType } : {}) };
    items.push({ kind: 'embedded', name, size, ...(mimeType ? { mimeType } : {}), result: { content: [{ type: 'resource', resource }] }, save });
  }
  return { items };
}

/** "report.csv (2 KiB, text/csv)" for the question put to the person. */
export function describeAppDownload(item: AppDownloadItem): string {
  const facts = [item.size !== undefined ? formatBytes(item.size) : undefined, item.mimeType].filter(Boolean);
  return `${item.name}${facts.length ? ` (${facts.join(', ')})` : ''}${item.kind === 'link' ? `, read from ${oneLine(item.uri).slice(0, 200)}` : ''}`;
}
