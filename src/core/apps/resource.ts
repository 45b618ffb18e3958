// Reading an app's `ui://` resource: one HTML document of bounded size, with its CSP and permissions.
import type { ReadResourceResult } from '@modelcontextprotocol/client';
import { formatBytes } from '../files/limits';
import { APP_MIME_TYPE } from './discovery';
import { readAppCsp, type AppCsp } from './csp';
import { HostError } from '../errors';

/** The largest app document the host renders (decoded bytes). A bigger one is refused, not loaded. */
export const APP_RESOURCE_MAX_BYTES = 5 * 1024 * 1024;

/** An app ready to render (plain JSON). */
export interface AppResource {
  uri: string;
  html: string;
  csp: AppCsp;
  /** Permissions the resource asked for (camera, microphone, geolocation, clipboardWrite): never granted here. */
  permissionsAsked: string[];
  prefersBorder?: boolean;
  /** Declared origins that were not valid origins and were left out of the policy. */
  warnings: string[];
}

export class AppResourceError extends HostError {
  static override readonly brand: string = 'AppResourceError';
}

interface Reader {
  readResource(uri: string, opts?: { signal?: AbortSignal; timeoutMs?: number }): Promise<ReadResourceResult>;
}

function uiMetaOf(meta: unknown): Record<string, unknown> | undefined {
  const ui = (meta as Record<string, unknown> | undefined)?.ui;
  return ui && typeof ui === 'object' ? (ui as Record<string, unknown>) : undefined;
}

/**
 * Reads `uri` and checks it is an app: `text/html;profile=mcp-app`, text or base64 blob, at most
 * APP_RESOURCE_MAX_BYTES. `listedMeta` is the `_meta` of the resource as `resources/list` gave it: the
 * content's own `_meta.ui` wins over it.
 */
export async function readAppResource(
  server: Reader,
  uri: string,
  opts: { signal?: AbortSignal; timeoutMs?: number; listedMeta?: unknown } = {},
): Promise<AppResource> {
  const read = await server.readResource(uri, opts);
  const contents = Array.isArray(read.contents) ? read.contents : [];
  const item = contents.find((c) => c.uri === uri) ?? contents[0];
  if (!item) throw new AppResourceError(`The app resource ${uri} came back empty.`);
  const mime = (item.mimeType ?? '').replace(/\s+/g, '').toLowerCase();
  if (mime !== APP_MIME_TYPE) {
    throw new AppResourceError(
      `The app resource ${uri} is ${item.mimeType ? `"${item.mimeType.slice(0, 100)}"` : 'of no stated type'}; an app must be ${APP_MIME_TYPE}.`,
    );
  }
  let html: string;
  if ('text' in item && typeof item.text === 'string') {
    const size = Buffer.byteLength(item.text, 'utf8');
    if (size > APP_RESOURCE_MAX_BYTES) throw tooLarge(uri, size);
    html = item.text;
  } else if ('blob' in item && typeof item.blob === 'string') {
    const size = Math.floor((item.blob.length * 3) / 4);
    if (size > APP_RESOURCE_MAX_BYTES) throw tooLarge(uri, size);
    html = Buffer.from(item.blob, 'base64').toString('utf8');
  } else {
    throw new AppResourceError(`The app resource ${uri} has neither text nor blob.`);
  }
  const ui = { ...uiMetaOf(opts.listedMeta), ...uiMetaOf(item._meta) };
  const { csp, dropped } = readAppCsp(ui.csp);
  const permissions = ui.permissions && typeof ui.permissions === 'object' ? Object.keys(ui.permissions).slice(0, 10) : [];
  return {
    uri,
    html,
    csp,
    permissionsAsked: permissions,
    prefersBorder: typeof ui.prefersBorder === 'boolean' ? ui.prefersBorder : undefined,
    warnings: dropped.map((d) => `Not a valid origin, left out of the app's security policy: ${d}`),
  };
}

function tooLarge(uri: string, size: number): AppResourceError {
  return new AppResourceError(
    `The app resource ${uri} is ${formatBytes(size)}; the limit is ${formatBytes(APP_RESOURCE_MAX_BYTES)}. Its text result is shown instead.`,
  );
}

/**
 * App resources kept for the session, per server and URI. A read in flight is shared; a failed read is
 * not kept. `invalidate` drops one server's (list changed, resource updated, restart).
 */
export class AppResourceCache {
  private readonly entries = new Map<string, Promise<AppResource>>();

  get(server: string, uri: string, read: () => Promise<AppResource>): Promise<AppResource> {
    const key = `${server}\u0000${uri}`;
    let entry = this.entries.get(key);
    if (!entry) {
      entry = read();
      this.entries.set(key, entry);
      entry.catch(() => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      });
    }
    return entry;
  }

  has(server: string, uri: string): boolean {
    return this.entries.has(`${server}\u0000${uri}`);
  }

  invalidate(server: string, uri?: string): void {
    for (const key of [...this.entries.keys()]) {
      const [s, u] = key.split('\u0000');
      if (s === server && (uri === undefined || u === uri)) this.entries.delete(key);
    }
  }
}
