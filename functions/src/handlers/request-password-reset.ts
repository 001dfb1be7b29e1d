import { requestPasswordReset } from '@portal/shared/api/calls/request-password-reset';
import { passwordResetRequests, publicApiHandler } from '../composition';

/** Public: mails a reset link when the address has an account; the same answer either way. */
export const handler = publicApiHandler(requestPasswordReset, async ({ body, sourceIp }) =>
  passwordResetRequests.request(body.email, sourceIp),
);
