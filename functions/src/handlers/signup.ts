import { apiHandler, sessions, users } from '../composition';
import { hashPassword } from '../auth/passwords';
import { newId } from '../auth/tokens';
import { conflict } from '../errors';
import { newUserRecord } from '../auth/user-store';

export const ALREADY_REGISTERED = 'This e-mail address is already registered. Log in instead, or use another address.';

export const handler = apiHandler('signup', async ({ body, setCookie }) => {
  const user = newUserRecord(newId(), body.email, await hashPassword(body.password), new Date());
  // The e-mail claim and the user are written in one conditional transaction: of two sign-ups
  // for the same address at once, exactly one succeeds.
  if (!(await users.create(user))) throw conflict(ALREADY_REGISTERED);
  const session = await sessions.start(user);
  setCookie(session.cookie);
  return session.body;
});
