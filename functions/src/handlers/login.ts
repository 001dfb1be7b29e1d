import { login } from '@portal/shared/api/calls/login';
import { apiHandler, loginLimiter, sessions, users } from '../composition';
import { decoyHash, verifyPassword } from '../auth/passwords';
import { DomainError } from '../errors';

/**
 * The old system answered a failed login with `loginValid: false` and showed nothing (spec
 * section 8). A failed login is a 401 whose body says `loginValid: false`, as the spec's does,
 * and a message people can act on; unknown e-mail and wrong password get the same words and take
 * the same time.
 */
export const LOGIN_FAILED = 'The e-mail address or password is incorrect.';

export const handler = apiHandler(login, async ({ body, sourceIp, setCookie }) => {
  // Counted before the password is checked: parallel guesses cannot outrun the limit.
  const attempt = await loginLimiter.begin(body.email, sourceIp);
  const user = await users.findByEmail(body.email);
  const valid = await verifyPassword(body.password, user?.passwordHash ?? (await decoyHash()));
  if (!user || !valid) throw new DomainError('unauthorized', LOGIN_FAILED, { answer: { loginValid: false } });
  await attempt.succeeded();
  // A member stored before share codes existed gets theirs now (conditional: one code, ever).
  const session = await sessions.start(await users.ensureShareCode(user));
  setCookie(session.cookie);
  return session.body;
});
