import type { Call } from '../call';
import { AuthResponse, LoginRequest } from '../schemas';

/**
 * POST /api/login (public): Logs in: the access token in the answer, the refresh token as an
 * HttpOnly cookie. A wrong e-mail or password is a 401 whose body says `loginValid: false`.
 */
export const login = {
  name: 'login',
  path: '/api/login',
  role: 'public',
  body: 'json',
  request: LoginRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const loginResponse = AuthResponse;
