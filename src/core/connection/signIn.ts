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
