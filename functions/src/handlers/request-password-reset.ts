import { requestPasswordReset } from '@portal/shared/api/calls/request-password-reset';
import { passwordReset, publicApiHandler } from '../composition';

/** Public: mails a reset link when the address has an account; the same answer either way. */
export const handler = publicApiHandler(requestPasswordReset, async ({ body, sourceIp }) =>
  passwordReset.request(body.email, sourceIp),
);
