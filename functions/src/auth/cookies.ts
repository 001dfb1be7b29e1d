import { REFRESH_TOKEN_SECONDS } from './tokens';

/** The refresh token travels in an HttpOnly cookie that only /api calls carry. */
export const REFRESH_COOKIE = 'refresh_token';

const attributes = 'Path=/api; HttpOnly; Secure; SameSite=Strict';

export const refreshCookie = (token: string): string =>
  `${REFRESH_COOKIE}=${token}; ${attributes}; Max-Age=${REFRESH_TOKEN_SECONDS}`;

export const clearRefreshCookie = (): string => `${REFRESH_COOKIE}=; ${attributes}; Max-Age=0`;

/** API Gateway v2 hands cookies over as `name=value` strings in `event.cookies`. */
export function readCookie(cookies: readonly string[] | undefined, name: string): string | undefined {
  for (const cookie of cookies ?? []) {
    const index = cookie.indexOf('=');
    if (index > 0 && cookie.slice(0, index).trim() === name) return cookie.slice(index + 1).trim() || undefined;
  }
  return undefined;
}
