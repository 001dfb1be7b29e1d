import type { AuthResponse } from '@portal/shared/api/schemas';
import type { SessionRecord, SessionRepository } from './session-store';
import { toProfile, type UserRecord } from './user-store';
import { unauthorized } from '../errors';
import { clearRefreshCookie, refreshCookie } from './cookies';
import {
  ACCESS_TOKEN_SECONDS,
  REFRESH_TOKEN_SECONDS,
  hashRefreshToken,
  newId,
  newRefreshToken,
  signAccessToken,
} from './tokens';

export interface IssuedSession {
  body: AuthResponse;
  cookie: string;
}

const epochSeconds = () => Math.floor(Date.now() / 1000);

async function issue(user: UserRecord, refreshToken: string, familyId: string): Promise<IssuedSession> {
  const accessToken = await signAccessToken({ userId: user.id, familyId });
  return {
    body: {
      loginValid: true,
      isLoggedIn: true,
      isAdmin: user.isAdmin,
      userProfile: toProfile(user),
      refresh_token: refreshToken,
      access_token: accessToken,
      expires_in: ACCESS_TOKEN_SECONDS,
    },
    cookie: refreshCookie(refreshToken),
  };
}

function newSession(userId: string, familyId: string): { token: string; record: SessionRecord } {
  const token = newRefreshToken();
  return {
    token,
    record: { tokenHash: hashRefreshToken(token), userId, familyId, expiresAt: epochSeconds() + REFRESH_TOKEN_SECONDS },
  };
}

export const SESSION_ENDED = 'Your session has ended. Log in again.';
export const SESSION_REUSED =
  'For your safety this session was ended, because an old sign-in token was used again. Log in again.';

export function createSessions(sessions: SessionRepository) {
  return {
    /** A new session family with its first refresh token, for signup and login. */
    async start(user: UserRecord): Promise<IssuedSession> {
      const { token, record } = newSession(user.id, newId());
      await sessions.start(record);
      return issue(user, token, record.familyId);
    },

    /**
     * Exchanges a refresh token for a new one. A token that was already exchanged is reuse:
     * somebody holds a copy, so the whole family is revoked and both holders must log in again.
     */
    async refresh(refreshToken: string, loadUser: (userId: string) => Promise<UserRecord | undefined>) {
      const current = await sessions.get(hashRefreshToken(refreshToken));
      if (!current || current.expiresAt <= epochSeconds()) throw unauthorized(SESSION_ENDED);
      if (current.rotatedAt) {
        await sessions.revokeFamily(current.familyId);
        throw unauthorized(SESSION_REUSED);
      }
      const user = await loadUser(current.userId);
      if (!user) throw unauthorized(SESSION_ENDED);
      const next = newSession(user.id, current.familyId);
      const outcome = await sessions.rotate(current, next.record);
      if (outcome === 'already-rotated') {
        await sessions.revokeFamily(current.familyId);
        throw unauthorized(SESSION_REUSED);
      }
      if (outcome === 'revoked') throw unauthorized(SESSION_ENDED);
      return issue(user, next.token, current.familyId);
    },

    async end(refreshToken: string): Promise<void> {
      const current = await sessions.get(hashRefreshToken(refreshToken));
      if (current) await sessions.revokeFamily(current.familyId);
    },

    clearCookie: clearRefreshCookie,
  };
}
