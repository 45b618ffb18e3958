// How `mcp-host` ends when it is told to (Ctrl-C, SIGTERM, a closed terminal) or when the process that
// started it dies: the call in flight is cancelled and every stdio server it started is stopped. Servers run
// in their own process groups, so without this they would outlive the command.
import { killRemainingStdioServers, SHUTDOWN_GRACE_MS, stopAllStdioServers } from '../core/connection';

/** Exit code after an interruption (128 + SIGINT). */
const INTERRUPTED = 130;
/** The command ends by itself this long after an interruption, even if it is still connecting, say. */
const INTERRUPT_EXIT_MS = 3000;
/** How often the parent process is checked for. */
const PARENT_POLL_MS = 1000;

/**
 * Installs the handlers: SIGINT, SIGTERM and SIGHUP abort `interrupt` and stop the servers (stdin ended, then
 * SIGTERM after 1 s, then SIGKILL); the command then ends with 130 as soon as it is done, at the latest after
 * 3 s (a second signal ends it at once). Whatever way the process exits, server groups still alive get SIGKILL.
 * A parent that dies (the process is re-parented) counts as SIGHUP.
 */
export function bindProcessLifetime(interrupt: AbortController): void {
  process.on('exit', killRemainingStdioServers);
  const stop = () => {
    if (interrupt.signal.aborted) process.exit(INTERRUPTED);
    interrupt.abort();
    void stopAllStdioServers(SHUTDOWN_GRACE_MS);
    setTimeout(() => process.exit(INTERRUPTED), INTERRUPT_EXIT_MS).unref();
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, stop);
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    stop();
  }, PARENT_POLL_MS);
  watch.unref();
}
