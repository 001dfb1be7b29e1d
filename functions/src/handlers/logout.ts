import { logout } from '@portal/shared/api/calls/logout';
import { apiHandler, sessions } from '../composition';
import { REFRESH_COOKIE, readCookie } from '../auth/cookies';

/**
 * Ends the session family of the presented refresh token and the one the bearer access token
 * names (a client holding only an access token can log out too); answers ok even when there is
 * none. A token that does not verify ends nothing.
 */
export const handler = apiHandler(logout, async ({ body, event, setCookie }) => {
  const token = body.refresh_token ?? readCookie(event.cookies, REFRESH_COOKIE);
  const bearer = /^Bearer\s+(\S+)$/i.exec(event.headers.authorization ?? '')?.[1];
  await Promise.all([token ? sessions.end(token) : undefined, bearer ? sessions.endByAccessToken(bearer) : undefined]);
  setCookie(sessions.clearCookie());
  return { ok: true as const };
});
