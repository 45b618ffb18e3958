import { SignInCancelledError, SignInFailedError, SignInRequiredError } from '../auth/types';
import { shortErrorText } from '../errors';

/**
 * Which sign-in failure, if any, is somewhere in an error's cause chain (the extension's sign-in UI throws them
 * from another bundle: the classes' brands tell them).
 */
export function signInKind(e: unknown): 'required' | 'cancelled' | 'failed' | undefined {
  for (let cur = e, depth = 0; cur && depth < 6; cur = (cur as { cause?: unknown }).cause, depth++) {
    if (cur instanceof SignInRequiredError) return 'required';
    if (cur instanceof SignInCancelledError) return 'cancelled';
    if (cur instanceof SignInFailedError) return 'failed';
  }
  return undefined;
}

/**
 * A failure while finishing a browser sign-in (the authorization response, then redeeming its code), for the
 * user: always a sign-in failure, naming the server; the authorization server's error code comes first, and a
 * token response the SDK could not parse is named by its schema's issues.
 */
export function signInFailure(e: unknown, server: string): unknown {
  if (signInKind(e)) return e;
  const issues = (e as { issues?: Array<{ path?: unknown[]; message?: string }> } | undefined)?.issues;
  if (Array.isArray(issues)) {
    const what = issues
      .slice(0, 3)
      .map((i) => `${(i.path ?? []).join('.') || 'response'}: ${i.message ?? 'invalid'}`)
      .join('; ');
    return new SignInFailedError(`the token response for server "${server}" was not valid: ${what}; nothing was stored`, { cause: e });
  }
  const code = (e as { code?: unknown } | undefined)?.code;
  const reason = `${typeof code === 'string' && /^[\w.-]{1,64}$/.test(code) ? `${code}: ` : ''}${shortErrorText(e)}`;
  return new SignInFailedError(`the sign-in to server "${server}" failed (${reason}); nothing was stored`, { cause: e });
}
