// Watches the extension host's process for an unhandled promise rejection or an uncaught exception, from any
// extension: VS Code only logs them (an unhandled rejection after a second, "rejected promise not handled within
// 1 second"), so a test run would pass over them. A rejection counts when Node reports it unhandled (at the end of
// the microtask turn it happened in), whether or not something handles it later: that moment does not depend on
// the machine's load, where a one-second window would.

export interface HostProblem {
  kind: 'unhandled rejection' | 'uncaught exception';
  /** What was running when it happened, as the watcher's owner names it (a test, a step). */
  during: string;
  /** The error's stack (its first lines), or the rejected value as text. */
  text: string;
  /** Date.now() when it happened. */
  at: number;
}

const MAX_STACK_LINES = 12;
const MAX_TEXT = 2000;

function describe(reason: unknown): string {
  const text = reason instanceof Error ? (reason.stack ?? `${reason.name}: ${reason.message}`) : safeString(reason);
  return text.split('\n').slice(0, MAX_STACK_LINES).join('\n').slice(0, MAX_TEXT);
}

function safeString(value: unknown): string {
  try {
    return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    return String(value);
  }
}

export function formatProblem(p: HostProblem): string {
  return `${p.kind} in the extension host during ${p.during}: ${p.text}`;
}

/**
 * Calls `onProblem` for each unhandled rejection and uncaught exception of this process from now on (the
 * handlers VS Code installed stay as they are: these only observe). Returns a function that stops watching.
 */
export function watchHostProcess(during: () => string, onProblem: (problem: HostProblem) => void): () => void {
  const report = (kind: HostProblem['kind'], reason: unknown) => {
    try {
      onProblem({ kind, during: during(), text: describe(reason), at: Date.now() });
    } catch {
      // a watcher never adds a failure of its own to the host
    }
  };
  // Each promise once: mocha passes on the rejections that are not its own by emitting the event again.
  const seen = new WeakSet<Promise<unknown>>();
  const onRejection = (reason: unknown, promise: Promise<unknown>) => {
    if (seen.has(promise)) return;
    seen.add(promise);
    report('unhandled rejection', reason);
  };
  // The monitor event sees an exception before the host's own handler, and changes nothing about its handling.
  const onException = (error: Error, origin: string) => {
    if (origin === 'uncaughtException') report('uncaught exception', error);
  };
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtExceptionMonitor', onException);
  return () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtExceptionMonitor', onException);
  };
}
