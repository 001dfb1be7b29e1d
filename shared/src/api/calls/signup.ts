import type { Call } from '../call';
import { AuthResponse, SignupRequest } from '../schemas';

/**
 * POST /api/signup (public): Creates a member account and logs it in; sends the first e-mail
 * verification link. The password may not be the e-mail address, nor a leaked one.
 */
export const signup = {
  name: 'signup',
  path: '/api/signup',
  role: 'public',
  body: 'json',
  request: SignupRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const signupResponse = AuthResponse;
