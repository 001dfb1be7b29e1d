import { signup } from '@portal/shared/api/calls/signup';
import { PASSWORD_IS_COMMON } from '@portal/shared/api/schemas';
import { apiHandler, emailVerification, sessions, signupLimiter, users } from '../composition';
import { clock } from '../config/clock';
import { loadLogger } from '../config/logger';
import { isCommonPassword } from '../auth/common-passwords';
import { hashPassword } from '../auth/passwords';
import { newId, signingKeyLoaded } from '../auth/tokens';
import { badRequest, conflict } from '../errors';
import { newUserRecord } from '../auth/user-store';

export const ALREADY_REGISTERED = 'This e-mail address is already registered. Log in instead, or use another address.';

export const handler = apiHandler(signup, async ({ body, sourceIp, setCookie }) => {
  // The length, blank and e-mail rules ran in the shared schema; the leaked-password list is here.
  if (isCommonPassword(body.password)) throw badRequest(PASSWORD_IS_COMMON, { password: PASSWORD_IS_COMMON });
  // Counted before the 128 MiB hash: an address gets a limited number of sign-ups an hour.
  await signupLimiter.take(sourceIp);
  // The signing key first: when it cannot be loaded (503), no account is stored that the member
  // would then be told is "already registered".
  await signingKeyLoaded();
  const user = newUserRecord(newId(), body.email, await hashPassword(body.password), new Date(clock.now()));
  // The e-mail claim and the user are written in one conditional transaction: of two sign-ups
  // for the same address at once, exactly one succeeds.
  if (!(await users.create(user))) throw conflict(ALREADY_REGISTERED);
  const session = await sessions.start(user);
  setCookie(session.cookie);
  // The first verification link, best effort: the account exists whatever the mail does, and
  // My Profile offers to send another.
  try {
    await emailVerification.send(user);
  } catch (error) {
    (await loadLogger()).error('the first verification e-mail was not sent', { error, userId: user.id });
  }
  return session.body;
});
