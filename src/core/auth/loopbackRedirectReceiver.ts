// The RFC 8252 loopback redirect: a listener on 127.0.0.1 that receives the authorization response.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignInCancelledError, SignInFailedError, SignInTimedOutError, type RedirectReceiver } from './types';

const CALLBACK_PATH = '/callback';
/** Longest request line accepted on the listener (an authorization response is a short query). */
const MAX_URL_CHARS = 8192;

const page = (title: string, text: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font-family:sans-serif;margin:3em"><h1>${title}</h1><p>${text}</p></body>`;

interface Waiter {
  state: string;
  resolve: (q: URLSearchParams) => void;
  reject: (e: Error) => void;
}

/**
 * Listens on 127.0.0.1 (a system-chosen port, or `preferredPort` when free) for `GET /callback`.
 * The listener does not keep the process alive; `dispose()` closes it, `stop()` also waits until it is closed.
 */
export class LoopbackRedirectReceiver implements RedirectReceiver {
  private waiter?: Waiter;
  private closed?: Promise<void>;

  private constructor(
    private readonly server: Server,
    readonly redirectUrl: string,
  ) {}

  static async start(preferredPort?: number): Promise<LoopbackRedirectReceiver> {
    const server = createServer();
    server.maxHeadersCount = 50;
    const listen = (port: number) =>
      new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => {
          server.off('error', reject);
          resolve();
        });
      });
    try {
      await listen(preferredPort ?? 0);
    } catch (e) {
      if (!preferredPort) throw e;
      await listen(0);
    }
    server.unref();
    const port = (server.address() as AddressInfo).port;
    const receiver = new LoopbackRedirectReceiver(server, `http://127.0.0.1:${port}${CALLBACK_PATH}`);
    server.on('request', (req, res) => receiver.onRequest(req.url ?? '', res));
    return receiver;
  }

  private onRequest(rawUrl: string, res: import('node:http').ServerResponse): void {
    const send = (status: number, title: string, text: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(page(title, text));
    };
    if (rawUrl.length > MAX_URL_CHARS) {
      send(414, 'Request too long', '');
      return;
    }
    const url = new URL(rawUrl, 'http://127.0.0.1');
    if (url.pathname !== CALLBACK_PATH) {
      send(404, 'Not found', '');
      return;
    }
    const waiter = this.waiter;
    if (!waiter) {
      send(400, 'No sign-in in progress', 'This sign-in has ended. Start it again from MCP Host.');
      return;
    }
    this.waiter = undefined;
    const q = url.searchParams;
    if (q.get('state') !== waiter.state) {
      send(400, 'Sign-in refused', 'The response did not carry the state this sign-in sent. Nothing was stored.');
      waiter.reject(new SignInFailedError('the authorization response carried the wrong state; nothing was stored'));
      return;
    }
    if (q.get('error')) send(400, 'Sign-in failed', 'The authorization server reported an error. You can close this tab.');
    else send(200, 'Signed in', 'You can close this tab and return to MCP Host.');
    waiter.resolve(q);
  }

  waitForRedirect(state: string, timeoutMs: number, signal?: AbortSignal): Promise<URLSearchParams> {
    this.waiter?.reject(new SignInCancelledError('a newer sign-in replaced this one'));
    return new Promise<URLSearchParams>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        if (this.waiter === waiter) this.waiter = undefined;
        done();
        reject(new SignInCancelledError('the sign-in was cancelled'));
      };
      const waiter: Waiter = {
        state,
        resolve: (q) => {
          done();
          resolve(q);
        },
        reject: (e) => {
          done();
          reject(e);
        },
      };
      const timer = setTimeout(() => {
        if (this.waiter === waiter) this.waiter = undefined;
        done();
        // Marked rather than typed: the extension's copy of this class is bundled apart from the provider's.
        reject(new SignInTimedOutError(`no answer from the browser within ${Math.round(timeoutMs / 1000)} s`));
      }, timeoutMs);
      // The timer is not unref'd: it keeps a CLI waiting for the browser alive (the listener itself does not).
      if (signal?.aborted) {
        onAbort();
        return;
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiter = waiter;
    });
  }

  /** Ends the sign-in waiting here and closes the listener; resolves once it is closed. */
  stop(): Promise<void> {
    this.dispose();
    return this.closed!;
  }

  /** Ends the sign-in waiting here, stops listening and closes the browser's connections (kept alive or not). */
  dispose(): void {
    if (this.closed) return;
    this.waiter?.reject(new SignInCancelledError('the sign-in was cancelled'));
    this.waiter = undefined;
    this.closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
  }
}
