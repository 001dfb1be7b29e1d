import { verifyEmail } from '@portal/shared/api/calls/verify-email';
import { apiHandler, emailVerification } from '../composition';
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
      return { verified: true as const, email: verified.email };
    }
    if (!user) throw unauthorized('Log in to ask for a new verification link.');
    const sent = await emailVerification.send(user);
    return { sent: true as const, ...sent };
  },
  { callerIfPresent: true },
);
