import type { Call } from '../call';
import { ResetPasswordResponse, ResetPasswordRequest } from '../account';

/**
 * POST /api/resetPassword (public): Sets a new password with a reset link's token (single use, one hour) and ends all the account's sessions.
 */
export const resetPassword = {
  name: 'resetPassword',
  path: '/api/resetPassword',
  role: 'public',
  body: 'json',
  request: ResetPasswordRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const resetPasswordResponse = ResetPasswordResponse;
