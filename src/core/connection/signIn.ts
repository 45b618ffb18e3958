import { SignInCancelledError, SignInFailedError, SignInRequiredError } from '../auth/types';


/** Which sign-in failure, if any, is somewhere in an error's cause chain. */
export function signInKind(e: unknown): 'required' | 'cancelled' | 'failed' | undefined {
  for (let cur = e, depth = 0; cur && depth < 6; cur = (cur as { cause?: unknown }).cause, depth++) {
    if (cur instanceof SignInRequiredError) return 'required';
    if (cur instanceof SignInCancelledError) return 'cancelled';
    if (cur instanceof SignInFailedError) return 'failed';
  }
  return undefined;
}

/**
 * A failure while redeeming the authorization code, for the user: a token response the SDK could not parse
 * (its schema's issues) is named as such; anything else passes through.
 */
export function signInFailure(e: unknown, server: string): unknown {
  const issues = (e as { issues?: Array<{ path?: unknown[]; message?: string }> } | undefined)?.issues;
  if (!Array.isArray(issues)) return e;
  const what = issues.slice(0, 3).map((i) => `${(i.path ?? []).join('.') || 'response'}: ${i.message ?? 'invalid'}`).join('; ');
  return new SignInFailedError(`the token response for server "${server}" was not valid: ${what}; nothing was stored`, { cause: e });
}
