// `ui/update-model-context`: what an app offers a model, kept for the @mcp chat participant's next turn. An app
// (its server and resource URI) keeps only its newest offer, as the spec asks (each update replaces the last);
// each offer is bounded, and so is the number of apps kept (the oldest offer goes first). A turn takes them all:
// each is given once.

export const MODEL_CONTEXT_LIMITS = {
  /** Characters kept of one app's offer. */
  chars: 8000,
  /** Apps whose offers are kept at once. */
  apps: 5,
};

export interface KeptModelContext {
  server: string;
  /** The app's resource URI. */
  app: string;
  text: string;
  /** Characters the app offered beyond MODEL_CONTEXT_LIMITS.chars, left out. */
  cutChars: number;
}

export class AppModelContexts {
  private readonly kept = new Map<string, KeptModelContext>();

  /** The app's newest offer; an empty one withdraws what it offered before. */
  keep(server: string, app: string, text: string): void {
    const key = `${server}\u0000${app}`;
    this.kept.delete(key);
    if (!text.trim()) return;
    const cutChars = Math.max(0, text.length - MODEL_CONTEXT_LIMITS.chars);
    this.kept.set(key, { server, app, text: cutChars ? text.slice(0, MODEL_CONTEXT_LIMITS.chars) : text, cutChars });
    for (const oldest of this.kept.keys()) {
      if (this.kept.size <= MODEL_CONTEXT_LIMITS.apps) break;
      this.kept.delete(oldest);
    }
  }

  /** Every offer kept, oldest first; none is kept after. */
  take(): KeptModelContext[] {
    const all = [...this.kept.values()];
    this.kept.clear();
    return all;
  }

  get size(): number {
    return this.kept.size;
  }
}
