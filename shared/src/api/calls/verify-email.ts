import type { Call } from '../call';
import { VerifyEmailRequest, VerifyEmailResponse } from '../email';

/**
 * POST /api/verifyEmail (public): Public: `{ token }` verifies without a session (the link may
 * open in another browser); `{}` / `{ action: 'send' }` needs one, which the handler asks for
 * (email.ts).
 */
export const verifyEmail = {
  name: 'verifyEmail',
  path: '/api/verifyEmail',
  role: 'public',
  body: 'json',
  request: VerifyEmailRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const verifyEmailResponse = VerifyEmailResponse;
