import type { Call } from '../call';
import { CheckResetLinkRequest, CheckResetLinkResponse } from '../account';

/**
 * POST /api/checkResetLink (public): Whether a password reset link can still be used, asked when
 * its page opens: 200, or the refusal resetPassword would give (used: 409; expired or unknown: 400).
 * Uses nothing up.
 */
export const checkResetLink = {
  name: 'checkResetLink',
  path: '/api/checkResetLink',
  role: 'public',
  body: 'json',
  request: CheckResetLinkRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const checkResetLinkResponse = CheckResetLinkResponse;
