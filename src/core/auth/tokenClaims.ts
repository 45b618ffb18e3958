import type { OAuthTokens } from '@modelcontextprotocol/client';

/** The JSON claims of a JWT, unverified (for display only), or undefined when the value is not a JWT. */
function claimsOf(jwt: string | undefined): Record<string, unknown> | undefined {
  const part = jwt?.split('.')[1];
  if (!part || jwt.length > 16_384) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    return claims && typeof claims === 'object' ? (claims as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Who the tokens say signed in (the ID token's, else the access token's, email / username / name / subject), if they say. */
export function accountOf(tokens: Pick<OAuthTokens, 'access_token' | 'id_token'>): string | undefined {
  for (const jwt of [tokens.id_token, tokens.access_token]) {
    const c = claimsOf(jwt);
    for (const key of ['email', 'preferred_username', 'name', 'sub']) {
      const v = c?.[key];
      if (typeof v === 'string' && v.trim() !== '') return v.trim().slice(0, 100);
    }
  }
  return undefined;
}
