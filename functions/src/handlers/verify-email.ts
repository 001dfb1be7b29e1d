import { verifyEmail } from '@portal/shared/api/calls/verify-email';
import { apiHandler, emailVerification, mailer } from '../composition';
import { loadLogger } from '../config/logger';
import { changedNotice } from '../email/verification';
import { unauthorized } from '../errors';

/**
 * /api/verifyEmail: `{ token }` verifies the address a link was sent to, with or without a
 * session (the link may open in another browser); `{}` or `{ action: 'send' }` sends a new link
 * to the logged-in caller's address, rate-limited (email/verification.ts).
 */
export const handler = apiHandler(
  verifyEmail,
  async ({ body, user }) => {
    if (body.action === 'verify') {
      const verified = await emailVerification.verify(body.token);
      // A change of address: the old address hears that it is no longer the login (best effort:
      // the change is made whatever the mail does).
      if (verified.replaced !== undefined) {
        try {
          await mailer.send(changedNotice(verified.replaced, verified.email));
        } catch (error) {
          (await loadLogger()).error('the notice of an e-mail change was not sent', { error, userId: verified.userId });
        }
      }
      return { verified: true as const, email: verified.email };
    }
    if (!user) throw unauthorized('Log in to ask for a new verification link.');
    const sent = await emailVerification.send(user);
    return { sent: true as const, ...sent };
  },
  { callerIfPresent: true },
);
