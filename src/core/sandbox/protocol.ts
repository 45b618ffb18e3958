// What the sandbox launcher (./launcher.ts) tells the host on the server's stderr.

/** A connection the sandbox's proxy refused: the line goes on with `HOST:PORT`. */
export const REFUSED_NETWORK_PREFIX = '[sandbox] refused network ';
/** The sandbox could not start: the line goes on with why. The launcher then exits with SANDBOX_FAILED_EXIT. */
export const SANDBOX_FAILED_PREFIX = '[sandbox] could not start: ';
export const SANDBOX_FAILED_EXIT = 70;
