// Client ID Metadata Documents: a URL is offered as this client's id only once the host has fetched it and
// found this client's document there (it names itself as `client_id` and lists the redirect the host
// receives on), so an authorization server that fetches it too finds what it needs. The verdict is kept
// for a while; a URL that does not serve the document is not used, and the host registers instead.
import type { FetchLike } from '@modelcontextprotocol/client';
import { redirectRegistered } from './redirects';

/** The most bytes of a metadata document read (the drafts suggest servers take at most 5 KB). */
export const MAX_CLIENT_METADATA_BYTES = 64 * 1024;
/** How long fetching the document may take. */
export const CLIENT_METADATA_TIMEOUT_MS = 5_000;
/** How long a verdict is kept: a served document for an hour, a missing one for five minutes. */
const KEEP_SERVED_MS = 60 * 60_000;
const KEEP_REFUSED_MS = 5 * 60_000;

export type ClientMetadataVerdict = { serves: true } | { serves: false; reason: string };

const verdicts = new Map<string, { verdict: ClientMetadataVerdict; until: number }>();

/** Whether `url` serves this client's metadata document for `redirectUrl` (remembered for a while). */
export async function checkClientMetadataDocument(url: string, redirectUrl: string, fetch: FetchLike, now = Date.now()): Promise<ClientMetadataVerdict> {
  const key = `${url}\n${redirectKey(redirectUrl)}`;
  const kept = verdicts.get(key);
  if (kept && kept.until > now) return kept.verdict;
  const verdict = await fetchAndCheck(url, redirectUrl, fetch);
  verdicts.set(key, { verdict, until: now + (verdict.serves ? KEEP_SERVED_MS : KEEP_REFUSED_MS) });
  return verdict;
}

/** Forgets every verdict (tests, and a user who just published the document). */
export function forgetClientMetadataVerdicts(): void {
  verdicts.clear();
}

/** A loopback redirect matches on any port (RFC 8252 §7.3), so one verdict serves every port. */
function redirectKey(redirectUrl: string): string {
  try {
    const u = new URL(redirectUrl);
    if (u.protocol === 'http:') u.port = '';
    return u.href;
  } catch {
    return redirectUrl;
  }
}

async function fetchAndCheck(url: string, redirectUrl: string, fetch: FetchLike): Promise<ClientMetadataVerdict> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { serves: false, reason: 'it is not a valid URL' };
  }
  if (parsed.protocol !== 'https:' || parsed.pathname === '/') return { serves: false, reason: 'it is not an https URL with a path' };
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: 'application/json' }, redirect: 'manual', signal: AbortSignal.timeout(CLIENT_METADATA_TIMEOUT_MS) });
  } catch (e) {
    const timedOut = (e as Error).name === 'TimeoutError';
    return {
      serves: false,
      reason: timedOut ? `it did not answer within ${CLIENT_METADATA_TIMEOUT_MS / 1000} s` : `it could not be fetched (${causeText(e)})`,
    };
  }
  if (response.status !== 200) {
    await response.body?.cancel().catch(() => undefined);
    return { serves: false, reason: `it answered HTTP ${response.status}${response.status >= 300 && response.status < 400 ? ' (a redirect)' : ''}` };
  }
  let doc: unknown;
  try {
    doc = JSON.parse(await readCapped(response, MAX_CLIENT_METADATA_BYTES));
  } catch (e) {
    return { serves: false, reason: e instanceof RangeError ? e.message : 'it is not a JSON document' };
  }
  const d = doc as { client_id?: unknown; redirect_uris?: unknown } | null;
  if (typeof d !== 'object' || d === null) return { serves: false, reason: 'it is not a JSON object' };
  if (d.client_id !== url) return { serves: false, reason: 'its client_id is not its own URL' };
  const uris = Array.isArray(d.redirect_uris) ? d.redirect_uris.filter((u): u is string => typeof u === 'string') : [];
  if (!redirectRegistered(redirectUrl, uris)) return { serves: false, reason: `its redirect_uris do not list ${redirectUrl}` };
  return { serves: true };
}

/** The body as text, refused past `max` bytes. */
async function readCapped(response: Response, max: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => undefined);
      throw new RangeError(`it is larger than ${max / 1024} KB`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function causeText(e: unknown): string {
  const cause = (e as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === 'string') return cause.code;
  return String((e as Error).message ?? e).slice(0, 200);
}
