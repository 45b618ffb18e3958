// What the host and the sandbox service (./service.ts) say to each other: one JSON object a line, the host's
// requests on the service's stdin, its answers and reports on its stdout.
import type { SandboxPolicy } from './policy';

export type ServiceRequest =
  /** The command line that runs `command` in `cwd` under `filesystem` (and the service's network policy). */
  | { op: 'wrap'; id: number; cwd: string; filesystem: SandboxPolicy['filesystem']; command: string[] }
  /** The server of wrap `id` has exited: its temporary folder goes, and reports for it stop. */
  | { op: 'release'; id: number };

export type ServiceMessage =
  /** `shell` runs the server in its sandbox (run it with `/bin/sh -c`). */
  | { id: number; shell: string }
  | { id: number; error: string }
  /** The proxy refused a connection of the server of wrap `id` to `refused` (`host:port`). */
  | { id: number; refused: string }
  /** The sandbox could not start; the service exits. */
  | { failed: string };

/** The longest line either side reads. */
export const SERVICE_MAX_LINE_CHARS = 1024 * 1024;

/** The service exits with this when the sandbox could not start (after its `failed` message). */
export const SANDBOX_FAILED_EXIT = 70;
