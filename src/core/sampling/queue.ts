// Sampling requests of one server are answered a few at a time: the rest wait their turn in order, a bounded
// number of them, and any beyond that are refused at once with a reason. A server that sends a thousand requests
// at once gets neither a thousand commands started (the CLI) nor a thousand panels (VS Code).
import { SamplingQueueFullError } from '../errors';
import { SamplingDeclinedError, type SamplingHandler } from './index';

export interface SamplingQueueLimits {
  /** Requests answered at the same time. */
  running: number;
  /** Requests that may wait for a turn; one more is refused. */
  waiting: number;
}

export const SAMPLING_QUEUE_LIMITS = {
  /** The CLI: at most this many `--sampling-command` processes per server at once. */
  cli: { running: 4, waiting: 50 },
  /** VS Code: one approval panel per server at a time. */
  panel: { running: 1, waiting: 20 },
} as const satisfies Record<string, SamplingQueueLimits>;

// Thrown by the extension's queue and recognised by the connection, a bundle of its own: see core/errors.
export { SamplingQueueFullError };

interface Waiting {
  start: () => void;
}

/** One server's sampling requests: `run` waits for a turn (or refuses), then runs the work. */
export class SamplingQueue {
  private running = 0;
  private readonly waiting: Waiting[] = [];

  constructor(readonly limits: SamplingQueueLimits) {}

  /** Requests answered now and waiting (what the lifetime tests count). */
  get counts(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  /**
   * Runs `work` once a turn is free. Refuses with SamplingQueueFullError when the queue is full; a request whose
   * signal fires while it waits leaves the queue and is declined.
   */
  async run<T>(server: string, signal: AbortSignal, work: () => Promise<T>): Promise<T> {
    if (signal.aborted) throw new SamplingDeclinedError('the server cancelled the request');
    if (this.running < this.limits.running) {
      this.running++;
    } else {
      if (this.waiting.length >= this.limits.waiting) {
        throw new SamplingQueueFullError(
          `"${server}" already has ${this.running} sampling ${this.running === 1 ? 'request' : 'requests'} being answered and ${this.waiting.length} waiting, the most the host holds (${this.limits.running} at a time, ${this.limits.waiting} waiting); ask again once they are answered`,
        );
      }
      await new Promise<void>((resolve, reject) => {
        const entry: Waiting = {
          start: () => {
            signal.removeEventListener('abort', onAbort);
            resolve();
          },
        };
        const onAbort = (): void => {
          const at = this.waiting.indexOf(entry);
          if (at >= 0) this.waiting.splice(at, 1);
          reject(new SamplingDeclinedError('the server cancelled the request while it waited its turn'));
        };
        signal.addEventListener('abort', onAbort, { once: true });
        this.waiting.push(entry);
      });
      // The request that ended handed its turn over: `running` already counts this one.
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next.start();
      else this.running--;
    }
  }
}

/** The handler behind a queue of its own with these limits (one per server connection). */
export function queuedSamplingHandler(handler: SamplingHandler, limits: SamplingQueueLimits): SamplingHandler {
  const queue = new SamplingQueue(limits);
  return (request, ctx) => queue.run(ctx.server, ctx.signal, () => handler(request, ctx));
}
