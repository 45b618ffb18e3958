// The webview's side of completion/complete: a typist's requests debounced per field, the latest one winning.

/**
 * Debounces completion requests per field: a request waits `delayMs`; a newer one for the same field cancels
 * the older (its signal aborts, its answer is dropped). `undefined` = superseded.
 */
export class LatestCompletion<T> {
  private readonly pending = new Map<string, { timer?: ReturnType<typeof setTimeout>; abort: AbortController }>();

  constructor(private readonly delayMs: number) {}

  async request(field: string, run: (signal: AbortSignal) => Promise<T>): Promise<T | undefined> {
    this.cancel(field);
    const entry: { timer?: ReturnType<typeof setTimeout>; abort: AbortController } = { abort: new AbortController() };
    this.pending.set(field, entry);
    await new Promise<void>((resolve) => {
      entry.timer = setTimeout(resolve, this.delayMs);
      entry.abort.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    if (entry.abort.signal.aborted) return undefined;
    try {
      const value = await run(entry.abort.signal);
      return this.pending.get(field) === entry && !entry.abort.signal.aborted ? value : undefined;
    } finally {
      if (this.pending.get(field) === entry) this.pending.delete(field);
    }
  }

  cancel(field: string): void {
    const earlier = this.pending.get(field);
    if (!earlier) return;
    clearTimeout(earlier.timer);
    earlier.abort.abort();
    this.pending.delete(field);
  }

  dispose(): void {
    for (const field of [...this.pending.keys()]) this.cancel(field);
  }
}
