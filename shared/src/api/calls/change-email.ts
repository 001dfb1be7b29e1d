import type { Call } from '../call';
import { ChangeEmailResponse, ChangeEmailRequest } from '../account';

/**
 * POST /api/changeEmail (member): With the current password, mails a link to a new address; the old address stays the login until the link is opened (then /api/verifyEmail moves the address). A taken address is a 409.
 */
export const changeEmail = {
  name: 'changeEmail',
  path: '/api/changeEmail',
  role: 'member',
  body: 'json',
  request: ChangeEmailRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const changeEmailResponse = ChangeEmailResponse;
