// A client registers for the scope of its first sign-in (RFC 7591 §2 `scope`, optional). Some authorization
// servers then hold the client to that scope (a later step-up for more is refused `invalid_scope`); others
// refuse a registration naming scopes they do not list. Both are answered here without giving up the scope
// where an authorization server needs it at registration.
import type { FetchLike } from '@modelcontextprotocol/client';
import type { Logger } from '../log';

const words = (scope: string) => scope.split(' ').filter(Boolean);

/** The scopes of `wanted` that a registration for `registered` lacks; none when the registration names no scope. */
export function scopesBeyond(registered: unknown, wanted: string | undefined): string[] {
  if (typeof registered !== 'string' || !wanted) return [];
  const held = new Set(words(registered));
  return words(wanted).filter((s) => !held.has(s));
}

/** `invalid_scope: the text` from an OAuth error answer, naming only what it says. */
export function describeRefusal(error: string, description: string | null | undefined): string {
  return `${error}${description ? `: ${description.slice(0, 200)}` : ''}`;
}

/**
 * A registration refused `invalid_client_metadata` (or `invalid_scope`) while it named a scope is sent once
 * more without it: the authorization server then registers the client for its default scopes (RFC 7591 §2),
 * and the scope is asked for in the authorization request. Any other answer is handed back as it came.
 */
export async function registerWithoutScopeIfRefused(
  fetch: FetchLike,
  url: string | URL,
  init: RequestInit | undefined,
  response: Response,
  log: Logger,
): Promise<Response> {
  if (response.ok || response.status >= 500 || typeof init?.body !== 'string') return response;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(init.body) as Record<string, unknown>;
  } catch {
    return response;
  }
  if (typeof body.scope !== 'string') return response;
  const refusal = (await response
    .clone()
    .json()
    .catch(() => undefined)) as { error?: unknown; error_description?: unknown } | undefined;
  if (refusal?.error !== 'invalid_client_metadata' && refusal?.error !== 'invalid_scope') return response;
  await response.body?.cancel().catch(() => undefined);
  const { scope, ...withoutScope } = body;
  const description = typeof refusal.error_description === 'string' ? refusal.error_description : undefined;
  log.info(
    `the authorization server refused to register a client for the scope "${String(scope)}" (${describeRefusal(refusal.error, description)}); registering without a scope`,
  );
  return fetch(url, { ...init, body: JSON.stringify(withoutScope) });
}
