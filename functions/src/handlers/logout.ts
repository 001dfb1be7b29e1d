import { apiHandler, sessions } from '../composition';
import { REFRESH_COOKIE, readCookie } from '../auth/cookies';

/** Ends the session family of the presented refresh token; answering ok even when there is none. */
export const handler = apiHandler('logout', async ({ body, event, setCookie }) => {
  const token = body.refresh_token ?? readCookie(event.cookies, REFRESH_COOKIE);
  if (token) await sessions.end(token);
  setCookie(sessions.clearCookie());
  return { ok: true as const };
});
