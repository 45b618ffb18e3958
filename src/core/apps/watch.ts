// Keeping a shown app current: while it shows, its `ui://` resource is subscribed to (when the server offers
// subscriptions) and read again when the server reports it updated or its lists change; a document that
// differs from the one shown is handed on, so the host can reload the app.
import type { ReadResourceResult } from '@modelcontextprotocol/client';
import { Disposable, type IDisposable } from '../events';
import { errorText } from '../errors';
import { AppResourceCache, readAppResource, type AppResource } from './resource';

/** What the watch needs of a server connection (a `ServerConnection` is one). */
export interface AppWatchSource {
  readonly name: string;
  readonly supportsSubscriptions: boolean;
  readonly resources: readonly { uri: string; _meta?: unknown }[];
  readResource(uri: string, opts?: { signal?: AbortSignal; timeoutMs?: number }): Promise<ReadResourceResult>;
  subscribeResource(uri: string): Promise<IDisposable | undefined>;
  onDidUpdateResource(listener: (uri: string) => void): IDisposable;
  onDidChangeLists(listener: () => void): IDisposable;
}

export interface AppWatchOptions {
  /** The resource as shown now: a read that renders the same is not reported. */
  shown: AppResource;
  /** The app's resource again, and different from what is shown. */
  onChanged(app: AppResource): void;
  /** A subscription or a re-read failed (the app shown stays). */
  onProblem(message: string): void;
}

/**
 * App resources per connection: a restart (a new connection) starts afresh; a list change drops them, an update
 * drops that one. The two listeners live as long as the connection (its dispose drops them), one pair per
 * connection, not per panel.
 */
const caches = new WeakMap<AppWatchSource, AppResourceCache>();

export function appResourceCacheOf(source: AppWatchSource): AppResourceCache {
  let cache = caches.get(source);
  if (!cache) {
    const created = new AppResourceCache();
    source.onDidChangeLists(() => created.invalidate(source.name));
    source.onDidUpdateResource((uri) => created.invalidate(source.name, uri));
    caches.set(source, (cache = created));
  }
  return cache;
}

function sameApp(a: AppResource, b: AppResource): boolean {
  return (
    a.html === b.html &&
    JSON.stringify(a.csp) === JSON.stringify(b.csp) &&
    a.prefersBorder === b.prefersBorder &&
    a.permissionsAsked.join() === b.permissionsAsked.join()
  );
}

/** Reads `cache`'s entry for the app (the connection's listeners drop it first when it is stale). */
export function readCachedApp(source: AppWatchSource, cache: AppResourceCache, uri: string): Promise<AppResource> {
  const listed = source.resources.find((r) => r.uri === uri);
  return cache.get(source.name, uri, () => readAppResource(source, uri, { listedMeta: listed?._meta }));
}

export class AppResourceWatch extends Disposable {
  private subscribedTo = false;
  private shown: AppResource;
  private reading: Promise<void> | undefined;
  private readAgain = false;

  constructor(
    private readonly source: AppWatchSource,
    private readonly cache: AppResourceCache,
    readonly uri: string,
    private readonly options: AppWatchOptions,
  ) {
    super();
    this.shown = options.shown;
    this.register(
      source.onDidUpdateResource((updated) => {
        if (updated === uri) this.refresh();
      }),
    );
    this.register(source.onDidChangeLists(() => this.refresh()));
    if (source.supportsSubscriptions) {
      source.subscribeResource(uri).then(
        (subscription) => {
          if (!subscription) return;
          // Disposed meanwhile: registering disposes it at once (unsubscribes).
          this.register(subscription);
          this.subscribedTo = !this.isDisposed;
        },
        (e: unknown) => options.onProblem(`could not subscribe to ${uri}: ${errorText(e)}`),
      );
    }
  }

  /** Whether updates are pushed by the server (otherwise only list changes and the next run read it again). */
  get subscribed(): boolean {
    return this.subscribedTo && !this.isDisposed;
  }

  /** Reads the resource again (one read at a time; a change during a read reads once more after it). */
  refresh(): void {
    if (this.isDisposed) return;
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = (async () => {
      do {
        this.readAgain = false;
        this.cache.invalidate(this.source.name, this.uri);
        try {
          const app = await readCachedApp(this.source, this.cache, this.uri);
          if (this.isDisposed) return;
          if (!sameApp(app, this.shown)) {
            this.shown = app;
            this.options.onChanged(app);
          }
        } catch (e) {
          if (!this.isDisposed) this.options.onProblem(`reading ${this.uri} again failed: ${errorText(e)}`);
        }
      } while (this.readAgain && !this.isDisposed);
    })().finally(() => {
      this.reading = undefined;
    });
  }

  /** Settles when no read is in flight (for tests). */
  async settled(): Promise<void> {
    while (this.reading) await this.reading;
  }
}
