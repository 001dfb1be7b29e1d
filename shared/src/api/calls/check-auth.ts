import type { Call } from '../call';
import { AuthResponse, CheckAuthRequest } from '../schemas';

/**
 * POST /api/checkAuth (public): Rotates the refresh token (the cookie, or `refresh_token` in the
 * body) and answers a new access token.
 */
export const checkAuth = {
  name: 'checkAuth',
  path: '/api/checkAuth',
  role: 'public',
  body: 'json',
  request: CheckAuthRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const checkAuthResponse = AuthResponse;
