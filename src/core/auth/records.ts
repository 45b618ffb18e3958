// A server's stored sign-in state, read and forgotten without the MCP SDK: the extension reads it (who is signed
// in, sign out) without loading the SDK, which comes with the connection bundle on the first server start.
import { accountOf } from './tokenClaims';
import type { ServerAuthRecord, TokenStore } from './types';

/** The storage key of one server's sign-in state. */
export function authStoreKey(serverUrl: string): string {
  return `mcp-host.oauth:${new URL(serverUrl).href}`;
}

export async function readAuthRecord(store: TokenStore, serverUrl: string): Promise<ServerAuthRecord> {
  const raw = await store.get(authStoreKey(serverUrl));
  if (!raw) return { issuers: {} };
  try {
    const parsed = JSON.parse(raw) as ServerAuthRecord;
    return parsed && typeof parsed.issuers === 'object' && parsed.issuers ? parsed : { issuers: {} };
  } catch {
    return { issuers: {} };
  }
}

/** Forgets everything stored for a server (tokens, refresh tokens, client registrations). */
export async function forgetServer(store: TokenStore, serverUrl: string): Promise<boolean> {
  const had = (await store.get(authStoreKey(serverUrl))) !== undefined;
  await store.delete(authStoreKey(serverUrl));
  return had;
}

/** Who is signed in to a server, from the stored state (nothing is sent anywhere). */
export async function signInStatus(store: TokenStore, serverUrl: string): Promise<{ signedIn: boolean; account?: string; issuer?: string }> {
  const record = await readAuthRecord(store, serverUrl);
  if (record.account) return { signedIn: true, account: `${record.account.accountLabel} (${record.account.providerLabel})`, issuer: record.account.issuer };
  const issuer = record.lastIssuer;
  const tokens = issuer ? record.issuers[issuer]?.tokens : undefined;
  if (!tokens?.access_token) return { signedIn: false };
  return { signedIn: true, account: accountOf(tokens), issuer };
}
