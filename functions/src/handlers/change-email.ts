import { changeEmail } from '@portal/shared/api/calls/change-email';
import { confirmPassword, signedIn } from '../auth/account';
import { apiHandler, emailVerification, loginLimiter, users } from '../composition';

/**
 * Mails a link to the new address once the current password is confirmed; the old address stays
 * the login until the link is opened (/api/verifyEmail then moves it in one transaction). A taken
 * address gets the same answer, and its owner a notice instead of a link (email/verification.ts).
 */
export const handler = apiHandler(changeEmail, async ({ body, user: caller, sourceIp }) => {
  const user = signedIn(caller);
  await confirmPassword(loginLimiter, user, body.password, sourceIp, 'password');
  const sent = await emailVerification.sendChange(
    user,
    body.email,
    async (email) => (await users.findByEmail(email)) !== undefined,
  );
  return { pendingEmail: sent.email, email: user.email, nextAllowedInSeconds: sent.nextAllowedInSeconds };
});
