import { StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { HTTP_SESSION_CLOSE_MS } from '../io/limits';
import type { Logger } from '../log';
import { errorText } from '../errors';

/**
 * Tells a sessionful Streamable HTTP server it can drop the session (HTTP DELETE, as VS Code does), waiting at
 * most `waitMs`: a server that never answers cannot hold up a stop, a restart or the CLI's exit. The request
 * itself is aborted when the transport closes right after.
 */
export async function endHttpSession(transport: Transport | undefined, log: Logger, waitMs = HTTP_SESSION_CLOSE_MS): Promise<void> {
  if (!(transport instanceof StreamableHTTPClientTransport) || !transport.sessionId) return;
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    transport.terminateSession().then(
      () => 'ended' as const,
      (e: unknown) => {
        log.debug(`ending the HTTP session: ${errorText(e)}`);
        return 'failed' as const;
      },
    ),
    new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), waitMs);
    }),
  ]);
  clearTimeout(timer);
  if (outcome === 'timeout') log.info(`the server did not answer the end of its HTTP session within ${waitMs} ms; closed without it`);
}
