import { checkResetLink } from '@portal/shared/api/calls/check-reset-link';
import { passwordResetUse, publicApiHandler } from '../composition';

/** Public: whether a reset link can still be used (email/password-reset.ts `check`); uses nothing up. */
export const handler = publicApiHandler(checkResetLink, async ({ body }) => passwordResetUse.check(body.token));
