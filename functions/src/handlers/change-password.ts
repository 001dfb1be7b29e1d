import { changePassword as changePasswordCall } from '@portal/shared/api/calls/change-password';
import { changePassword, signedIn } from '../auth/account';
import { SESSION_ENDED } from '../auth/sessions';
import { verifyAccessToken } from '../auth/tokens';
import { accountLocks, apiHandler, loginLimiter, users } from '../composition';
import { unauthorized } from '../errors';

/** A new password with the current one; this session stays, the account's others end. */
export const handler = apiHandler(changePasswordCall, async ({ body, user, event, sourceIp }) => {
  // The session making the change: the family the (already verified) access token names.
  const bearer = /^Bearer\s+(\S+)$/i.exec(event.headers.authorization ?? '')?.[1];
  const claims = bearer ? await verifyAccessToken(bearer) : null;
  if (!claims) throw unauthorized(SESSION_ENDED);
  await changePassword(
    { users, limiter: loginLimiter, ...accountLocks },
    signedIn(user),
    body,
    claims.familyId,
    sourceIp,
  );
  return { ok: true as const, otherSessionsEnded: true as const };
});
