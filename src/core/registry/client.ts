// A client of an MCP Registry's read API (v0.1): one page of servers at a time, one server version. Every request
// is bounded in time and size, and paging stops at a count of pages and at a cursor seen before.
import { formatBytes } from '../files/limits';
import { boundedFetch, MessageTooLargeError } from '../io/boundedFetch';
import { parseJsonBounded } from '../io/json';
import { MiB } from '../io/limits';
import { parseServerList, parseServerResponse, ServerJsonError } from './parse';
import type { RegistryEntry, RegistryPage } from './types';
import { HostError } from '../errors';

export const DEFAULT_REGISTRY_URL = 'https://registry.modelcontextprotocol.io';

export const REGISTRY_LIMITS = {
  /** One request, answer read whole. */
  timeoutMs: 15_000,
  /** One answer's body. */
  maxAnswerBytes: 4 * MiB,
  /** Servers asked for per page, and the most one page may hold. */
  pageSize: 30,
  maxPageEntries: 100,
  /** Pages one listing may walk through. */
  maxPages: 50,
};

export class RegistryError extends HostError {
  static override readonly brand: string = 'RegistryError';
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

export interface RegistryClientOptions {
  timeoutMs?: number;
  maxAnswerBytes?: number;
  maxPageEntries?: number;
  /** Ends every request (the user closed the picker, Ctrl-C). */
  signal?: AbortSignal;
  fetch?: Fetch;
}

/** The registry's base URL checked: http(s), no credentials, no query; a trailing slash dropped. */
export function registryBaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RegistryError(`the registry URL "${url}" is not a URL`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new RegistryError(`the registry URL "${url}" is not http or https`);
  if (parsed.username || parsed.password) throw new RegistryError('the registry URL must not hold a user name or password');
  if (parsed.search || parsed.hash) throw new RegistryError(`the registry URL "${url}" must not have a query or fragment`);
  return parsed.href.replace(/\/+$/, '');
}

export class RegistryClient {
  readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly maxAnswerBytes: number;
  private readonly maxPageEntries: number;

  constructor(
    baseUrl: string,
    private readonly options: RegistryClientOptions = {},
  ) {
    this.baseUrl = registryBaseUrl(baseUrl);
    this.timeoutMs = options.timeoutMs ?? REGISTRY_LIMITS.timeoutMs;
    this.maxAnswerBytes = options.maxAnswerBytes ?? REGISTRY_LIMITS.maxAnswerBytes;
    this.maxPageEntries = options.maxPageEntries ?? REGISTRY_LIMITS.maxPageEntries;
  }

  /** One page of `GET /v0.1/servers` (latest versions only). */
  async listServers(query: { search?: string; cursor?: string; limit?: number } = {}): Promise<RegistryPage> {
    const url = new URL(`${this.baseUrl}/v0.1/servers`);
    if (query.search) url.searchParams.set('search', query.search);
    if (query.cursor) url.searchParams.set('cursor', query.cursor);
    url.searchParams.set('limit', String(Math.min(query.limit ?? REGISTRY_LIMITS.pageSize, this.maxPageEntries)));
    url.searchParams.set('version', 'latest');
    const body = await this.getJson(url, 'the server list');
    try {
      return parseServerList(body, this.maxPageEntries);
    } catch (e) {
      if (e instanceof ServerJsonError) throw new RegistryError(`the registry's server list is not valid: ${e.message}`);
      throw e;
    }
  }

  /** `GET /v0.1/servers/{name}/versions/{version}`; `latest` is the registry's latest version. */
  async getServer(name: string, version = 'latest'): Promise<RegistryEntry> {
    const url = new URL(`${this.baseUrl}/v0.1/servers/${encodeURIComponent(name)}/versions/${encodeURIComponent(version)}`);
    const body = await this.getJson(url, `the server "${name}"`);
    try {
      return parseServerResponse(body, name);
    } catch (e) {
      if (e instanceof ServerJsonError) throw new RegistryError(`the registry's server.json of "${name}" is not valid: ${e.message}`);
      throw e;
    }
  }

  private async getJson(url: URL, what: string): Promise<unknown> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = this.options.signal ? AbortSignal.any([timeout, this.options.signal]) : timeout;
    const fetchBounded = boundedFetch({ maxMessageBytes: this.maxAnswerBytes, signal }, this.options.fetch ?? fetch);
    const where = `${this.baseUrl} (${what})`;
    try {
      const response = await fetchBounded(url, { headers: { accept: 'application/json' }, redirect: 'follow' });
      const text = await response.text();
      if (response.status === 404) throw new RegistryError(`${what} was not found in the registry ${this.baseUrl}`, 404);
      if (!response.ok) throw new RegistryError(`the registry ${where} answered ${response.status}${errorDetail(text)}`, response.status);
      try {
        return parseJsonBounded(text);
      } catch {
        throw new RegistryError(`the registry ${where} did not answer JSON`);
      }
    } catch (e) {
      if (e instanceof RegistryError) throw e;
      if (this.options.signal?.aborted) throw new RegistryError(`asking the registry ${where} was cancelled`);
      if (timeout.aborted) throw new RegistryError(`the registry ${where} did not answer within ${this.timeoutMs / 1000} s`);
      if (e instanceof MessageTooLargeError || (e instanceof Error && e.cause instanceof MessageTooLargeError)) {
        throw new RegistryError(`the registry ${where} sent an answer over ${formatBytes(this.maxAnswerBytes)}, the limit; nothing of it was used`);
      }
      throw new RegistryError(
        `cannot reach the registry ${where}: ${e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e)}`,
      );
    }
  }
}

/** The `error` of a registry's JSON error answer, cut short; nothing when there is none. */
function errorDetail(text: string): string {
  try {
    const o = JSON.parse(text) as { error?: unknown; detail?: unknown; title?: unknown };
    const message = [o.title, o.detail, o.error].find((m): m is string => typeof m === 'string');
    return message ? `: ${message.slice(0, 300)}` : '';
  } catch {
    return '';
  }
}

/**
 * Walks the pages of one search. `next()` gives the next page; paging ends at the last page, and fails clearly on a
 * cursor the registry gave before (it would loop) or past `maxPages`.
 */
export class RegistryPager {
  private cursor: string | undefined;
  private readonly seen = new Set<string>();
  private pages = 0;
  private finished = false;

  constructor(
    private readonly client: RegistryClient,
    private readonly search: string,
    private readonly maxPages = REGISTRY_LIMITS.maxPages,
    private readonly limit?: number,
  ) {}

  get done(): boolean {
    return this.finished;
  }

  async next(): Promise<RegistryPage> {
    if (this.finished) return { entries: [], skipped: [] };
    if (this.pages >= this.maxPages)
      throw new RegistryError(`the registry ${this.client.baseUrl} has more than ${this.maxPages} pages for this search; narrow it`);
    const page = await this.client.listServers({
      search: this.search,
      ...(this.cursor ? { cursor: this.cursor } : {}),
      ...(this.limit ? { limit: this.limit } : {}),
    });
    this.pages++;
    if (page.nextCursor === undefined) {
      this.finished = true;
    } else {
      if (this.seen.has(page.nextCursor) || page.nextCursor === this.cursor) {
        this.finished = true;
        throw new RegistryError(
          `the registry ${this.client.baseUrl} gave the cursor "${page.nextCursor.slice(0, 80)}" again after ${this.pages} pages; paging stopped (it would loop)`,
        );
      }
      this.seen.add(page.nextCursor);
      this.cursor = page.nextCursor;
    }
    return page;
  }
}
