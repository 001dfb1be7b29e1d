import type { Call } from '../call';
import { ChangePasswordResponse, ChangePasswordRequest } from '../account';

/**
 * POST /api/changePassword (member): With the current password, sets a new one (the sign-up's rules) and ends the account's other sessions; this one stays.
 */
export const changePassword = {
  name: 'changePassword',
  path: '/api/changePassword',
  role: 'member',
  body: 'json',
  request: ChangePasswordRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const changePasswordResponse = ChangePasswordResponse;
