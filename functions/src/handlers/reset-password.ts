import { resetPassword } from '@portal/shared/api/calls/reset-password';
import { passwordResetUse, publicApiHandler } from '../composition';

/** Public: the new password with a reset link's token; every session of the account ends. */
export const handler = publicApiHandler(resetPassword, async ({ body }) =>
  passwordResetUse.reset(body.token, body.password),
);
