import type { Call } from '../call';
import { LogoutRequest, OkResponse } from '../schemas';

/**
 * POST /api/logout (public): Ends the session of the refresh token and clears its cookie.
 */
export const logout = {
  name: 'logout',
  path: '/api/logout',
  role: 'public',
  body: 'json',
  request: LogoutRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const logoutResponse = OkResponse;
