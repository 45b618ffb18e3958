// Redirect URIs: which registration serves the redirect this host receives on.

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
const isLoopback = (u: URL) => u.protocol === 'http:' && LOOPBACK_HOSTS.has(u.hostname);

/**
 * Whether a redirect URI is one of a registration's: exactly, or a loopback one on another port (RFC 8252
 * §7.3: the authorization server allows any port there).
 */
export function redirectRegistered(redirectUrl: string, registered: readonly string[]): boolean {
  let want: URL;
  try {
    want = new URL(redirectUrl);
  } catch {
    return false;
  }
  return registered.some((r) => {
    if (r === redirectUrl) return true;
    try {
      const u = new URL(r);
      return isLoopback(u) && isLoopback(want) && u.hostname === want.hostname && u.pathname === want.pathname;
    } catch {
      return false;
    }
  });
}

/** The port of a registration's loopback redirect URI, to listen on again. */
export function loopbackPort(redirectUri: string | undefined): number | undefined {
  if (!redirectUri) return undefined;
  try {
    const u = new URL(redirectUri);
    return isLoopback(u) ? Number(u.port) || undefined : undefined;
  } catch {
    return undefined;
  }
}
