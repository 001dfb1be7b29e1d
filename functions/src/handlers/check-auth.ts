import { checkAuth } from '@portal/shared/api/calls/check-auth';
import { apiHandler, sessions, users } from '../composition';
import { REFRESH_COOKIE, readCookie } from '../auth/cookies';
import { DomainError } from '../errors';

export const handler = apiHandler(checkAuth, async ({ body, event, setCookie }) => {
  const token = body.refresh_token ?? readCookie(event.cookies, REFRESH_COOKIE);
  // No session to check (a logged-out visitor): logged out, as an answer rather than an error.
  if (!token) return { loginValid: false as const, isLoggedIn: false as const };
  try {
    // A member stored before share codes existed gets theirs now (conditional: one code, ever).
    const session = await sessions.refresh(token, async (userId) => {
      const user = await users.get(userId);
      return user && users.ensureShareCode(user);
    });
    setCookie(session.cookie);
    return session.body;
  } catch (error) {
    // A refused token must not stay in the browser: the next check would present it again.
    if (error instanceof DomainError && error.kind === 'unauthorized') {
      throw new DomainError(error.kind, error.message, { cookies: [sessions.clearCookie()] });
    }
    throw error;
  }
});
