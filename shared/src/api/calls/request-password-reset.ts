import type { Call } from '../call';
import { RequestPasswordResetResponse, RequestPasswordResetRequest } from '../account';

/**
 * POST /api/requestPasswordReset (public): Mails a single-use link, valid one hour, to reset a forgotten password. The same answer whether or not the address has an account; throttled per client address.
 */
export const requestPasswordReset = {
  name: 'requestPasswordReset',
  path: '/api/requestPasswordReset',
  role: 'public',
  body: 'json',
  request: RequestPasswordResetRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const requestPasswordResetResponse = RequestPasswordResetResponse;
