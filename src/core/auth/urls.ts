// The one check of every URL the host opens or fetches on an authorization server's word (its metadata's
// endpoints, the authorization URL, a client metadata document): HTTPS, or plain HTTP to this machine. Any
// other scheme (`file:`, `ms-msdt:`, `javascript:`…) could make the browser or the system run something,
// so it is never handed to a browser, $BROWSER or fetch.
import { refuseInsecureUrl } from '../net/destination';
import { SignInFailedError } from './types';

/** A URL on an authorization server's word that is not HTTPS (or HTTP to loopback). */
export class UnsafeAuthorizationUrlError extends SignInFailedError {
  static override readonly brand: string = 'UnsafeAuthorizationUrlError';
}

/**
 * The URL when it may be opened or fetched; otherwise throws UnsafeAuthorizationUrlError naming the MCP
 * server, what the URL is for and its scheme (never the whole URL, which may be long or crafted).
 */
export function checkAuthorizationUrl(raw: string | URL, server: string, what: string): URL {
  const a = /^[aeiou]/i.test(what) ? 'an' : 'a';
  let url: URL;
  try {
    url = new URL(String(raw));
  } catch {
    throw new UnsafeAuthorizationUrlError(`the authorization server of server "${server}" gave ${a} ${what} that is not a valid URL; it is not opened`);
  }
  if (refuseInsecureUrl(url)) {
    const where = url.protocol === 'http:' ? ` to ${url.host}, which is not this machine` : '';
    throw new UnsafeAuthorizationUrlError(
      `the authorization server of server "${server}" gave ${a} ${what} with the scheme "${url.protocol}"${where}; ` +
        'only https (or http to this machine) is opened or fetched',
    );
  }
  return url;
}
