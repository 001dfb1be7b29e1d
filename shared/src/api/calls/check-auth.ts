import type { Call } from '../call';
import { pure } from '../pure';
import * as z from '../zod';
import { AuthResponse, CheckAuthRequest, LoggedOutResponse } from '../schemas';

/**
 * POST /api/checkAuth (public): Rotates the refresh token (the cookie, or `refresh_token` in the
 * body) and answers a new access token. Without any refresh token (a logged-out visitor) it answers
 * 200 `{ loginValid: false, isLoggedIn: false }`: no error for a page that merely asks; a token that
 * is refused (ended, rotated, unknown) is still a 401, and clears the cookie.
 */
export const checkAuth = {
  name: 'checkAuth',
  path: '/api/checkAuth',
  role: 'public',
  body: 'json',
  request: CheckAuthRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const checkAuthResponse = /* @__PURE__ */ pure(() => z.union([AuthResponse, LoggedOutResponse]));
