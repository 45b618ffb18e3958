// Typed events and owned lifetimes, for every module (the VS Code pattern, without vscode): whatever holds a
// listener, a timer or a child object registers it with its owner, and disposing the owner disposes it.

export interface IDisposable {
  dispose(): void;
}

/**
 * `T`, unless its `dispose()` returns a promise: an owner disposes its children synchronously and waits for
 * none of them, so asynchronous teardown is a `stop()` its owner awaits first. (The lint rule no-misused-promises
 * catches an async `dispose` in a class that implements IDisposable, or an async function given to
 * `toDisposable`; this catches one handed to an owner.)
 */
export type SyncDisposable<T extends IDisposable> = T extends { dispose(): infer R }
  ? [R] extends [never]
    ? unknown
    : R extends PromiseLike<unknown>
      ? { 'dispose() returns a promise: make it synchronous, and end the work to await in stop()': never }
      : unknown
  : unknown;

/** Subscribes a listener; disposing the result unsubscribes it. */
export type Event<T> = (listener: (value: T) => void) => IDisposable;

/** A disposable that runs `fn` once. */
export function toDisposable(fn: () => void): IDisposable {
  let done = false;
  return {
    dispose: () => {
      if (!done) {
        done = true;
        fn();
      }
    },
  };
}

/** A minimal typed event: `event(listener)` subscribes and returns an IDisposable. */
export class Emitter<T> {
  private listeners = new Set<(value: T) => void>();

  readonly event: Event<T> = (listener) => {
    // The same function subscribed twice is two subscriptions, each removed by its own handle.
    const entry = (value: T): void => listener(value);
    this.listeners.add(entry);
    return {
      dispose: () => {
        this.listeners.delete(entry);
      },
    };
  };

  /** How many listeners are subscribed (what the lifetime tests count). */
  get listenerCount(): number {
    return this.listeners.size;
  }

  fire(value: T): void {
    for (const l of [...this.listeners]) {
      try {
        l(value);
      } catch {
        /* a listener's failure must not stop the others */
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}

/**
 * A set of disposables disposed together, newest first, once. One added after the store was disposed is
 * disposed at once (its owner is gone).
 */
export class DisposableStore implements IDisposable {
  private readonly items = new Set<IDisposable>();
  private disposed = false;

  get isDisposed(): boolean {
    return this.disposed;
  }
  get size(): number {
    return this.items.size;
  }

  add<T extends IDisposable>(item: T & SyncDisposable<T>): T {
    if (this.disposed) disposeQuietly(item);
    else this.items.add(item);
    return item;
  }

  /** Disposes `item` now and forgets it. */
  delete(item: IDisposable): void {
    if (this.items.delete(item)) disposeQuietly(item);
  }

  /** Disposes every item (newest first) and keeps the store usable. */
  clear(): void {
    const items = [...this.items].reverse();
    this.items.clear();
    for (const item of items) disposeQuietly(item);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.clear();
  }
}

/** Live instances of each Disposable subclass: what a lifetime test reads to find one never disposed. */
const live = new Map<object, number>();

/** How many instances of exactly this class are not disposed yet. */
export function liveCount(kind: { readonly prototype: Disposable }): number {
  return live.get(kind) ?? 0;
}

/**
 * The base of everything that owns listeners, timers or child objects: `register` hands one over, `dispose`
 * (once) disposes them newest first.
 */
export abstract class Disposable implements IDisposable {
  private readonly owned = new DisposableStore();
  private readonly kind: object = this.constructor;

  constructor() {
    live.set(this.kind, (live.get(this.kind) ?? 0) + 1);
  }

  protected get isDisposed(): boolean {
    return this.owned.isDisposed;
  }

  protected register<T extends IDisposable>(child: T & SyncDisposable<T>): T {
    return this.owned.add(child);
  }

  dispose(): void {
    if (this.owned.isDisposed) return;
    live.set(this.kind, (live.get(this.kind) ?? 1) - 1);
    this.owned.dispose();
  }
}

function disposeQuietly(item: IDisposable): void {
  try {
    item.dispose();
  } catch {
    /* one child's failure must not keep the others alive */
  }
}

/**
 * Runs `listener` once when `signal` aborts (at once when it has already); disposing takes the listener off the
 * signal, which may outlive the work it was given to (a panel's Cancel, a task's many polls).
 */
export function onAbort(signal: AbortSignal | undefined, listener: (signal: AbortSignal) => void): IDisposable {
  if (!signal) return { dispose: () => undefined };
  if (signal.aborted) {
    listener(signal);
    return { dispose: () => undefined };
  }
  const forward = () => listener(signal);
  signal.addEventListener('abort', forward, { once: true });
  return { dispose: () => signal.removeEventListener('abort', forward) };
}

/** An abort controller of its own that also follows an outer signal, until disposed (or aborted). */
export interface LinkedAbort extends IDisposable {
  readonly signal: AbortSignal;
  abort(reason?: unknown): void;
}

/**
 * An inner signal that aborts when `outer` does (with `reason(outer)`, else the runtime's AbortError) or when
 * aborted itself. The link is taken off `outer` on `dispose()` or once the inner signal aborted.
 */
export function linkAbort(outer: AbortSignal | undefined, reason?: (outer: AbortSignal) => unknown): LinkedAbort {
  const inner = new AbortController();
  const link = onAbort(outer, (o) => {
    if (reason) inner.abort(reason(o));
    else inner.abort();
  });
  if (outer && !outer.aborted) inner.signal.addEventListener('abort', () => link.dispose(), { once: true });
  return { signal: inner.signal, abort: (r?: unknown) => inner.abort(r), dispose: () => link.dispose() };
}
