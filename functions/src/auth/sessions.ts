import type { AuthResponse } from '@portal/shared/api/schemas';
import { inGeneration, type SessionRecord, type SessionRepository } from './session-store';
import { toProfile, type UserRecord } from './user-store';
import { unauthorized } from '../errors';
import { clearRefreshCookie, refreshCookie } from './cookies';
import { openSuccessor, sealSuccessor } from './successor';
import {
  ACCESS_TOKEN_SECONDS,
  REFRESH_TOKEN_SECONDS,
  hashRefreshToken,
  newId,
  newRefreshToken,
  signAccessToken,
  verifyAccessToken,
} from './tokens';

export interface IssuedSession {
  body: AuthResponse;
  cookie: string;
}

/**
 * How long a rotated refresh token still answers with the token it was exchanged for: two tabs
 * (or a retried request) presenting the same cookie within this window all get the same new pair,
 * as token services commonly allow. After it, presenting the old token is reuse.
 */
export const ROTATION_GRACE_MS = 10_000;
const MAX_ROTATE_TRIES = 5;

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

export const SESSION_ENDED = 'Your session has ended. Log in again.';
export const SESSION_REUSED =
  'For your safety this session was ended, because an old sign-in token was used again. Log in again.';

export function createSessions(sessions: SessionRepository, clock: () => number = Date.now) {
  const epochSeconds = () => Math.floor(clock() / 1000);

  function newSession(userId: string, familyId: string): { token: string; record: SessionRecord } {
    const token = newRefreshToken();
    return {
      token,
      record: {
        tokenHash: hashRefreshToken(token),
        userId,
        familyId,
        expiresAt: epochSeconds() + REFRESH_TOKEN_SECONDS,
      },
    };
  }

  /**
   * A token that was already exchanged: within the grace window, the same successor again (with
   * a fresh access token for the same session); after it, reuse, so somebody holds a copy and the
   * whole family is revoked: both holders must log in again.
   */
  async function answerAgain(
    rotated: SessionRecord,
    presented: string,
    loadUser: (userId: string) => Promise<UserRecord | undefined>,
  ): Promise<IssuedSession> {
    const now = clock();
    const withinGrace = rotated.rotatedAt !== undefined && now - Date.parse(rotated.rotatedAt) <= ROTATION_GRACE_MS;
    const successor = withinGrace && rotated.successor ? openSuccessor(presented, rotated.successor) : undefined;
    if (!successor) {
      await sessions.revokeFamily(rotated.familyId, new Date(now).toISOString());
      throw unauthorized(SESSION_REUSED);
    }
    const [family, user] = await Promise.all([sessions.getFamily(rotated.familyId), loadUser(rotated.userId)]);
    if (!family || family.revokedAt || !user || !inGeneration(family, user)) throw unauthorized(SESSION_ENDED);
    return issue(user, successor, rotated.familyId);
  }

  return {
    /** A new session family with its first refresh token, for signup and login. */
    async start(user: UserRecord): Promise<IssuedSession> {
      const { token, record } = newSession(user.id, newId());
      // Signed before the session is stored: when the signing key cannot be loaded, nothing is kept.
      const issued = await issue(user, token, record.familyId);
      await sessions.start(record, user.sessionGeneration ?? 0);
      return issued;
    },

    /** Exchanges a refresh token for a new one (or, within the grace window, for the one it was already exchanged for). */
    async refresh(refreshToken: string, loadUser: (userId: string) => Promise<UserRecord | undefined>) {
      const tokenHash = hashRefreshToken(refreshToken);
      for (let attempt = 0; attempt < MAX_ROTATE_TRIES; attempt++) {
        const current = await sessions.get(tokenHash);
        if (!current || current.expiresAt <= epochSeconds()) throw unauthorized(SESSION_ENDED);
        if (current.rotatedAt) return answerAgain(current, refreshToken, loadUser);
        const user = await loadUser(current.userId);
        if (!user) throw unauthorized(SESSION_ENDED);
        const next = newSession(user.id, current.familyId);
        const outcome = await sessions.rotate(
          current,
          next.record,
          { rotatedAt: new Date(clock()).toISOString(), successor: sealSuccessor(refreshToken, next.token) },
          user.sessionGeneration ?? 0,
        );
        if (outcome === 'rotated') return issue(user, next.token, current.familyId);
        if (outcome === 'revoked') throw unauthorized(SESSION_ENDED);
        // 'already-rotated' or 'conflict': another request exchanged it a moment ago; read again.
      }
      throw new Error(`Refresh token rotation kept conflicting after ${MAX_ROTATE_TRIES} tries`);
    },

    /** Ends the family of a refresh token. */
    async end(refreshToken: string): Promise<void> {
      const current = await sessions.get(hashRefreshToken(refreshToken));
      if (current) await sessions.revokeFamily(current.familyId, new Date(clock()).toISOString());
    },

    /** Ends the family an access token names (its `sid`), once the token verifies and the family is its user's. */
    async endByAccessToken(accessToken: string): Promise<void> {
      const claims = await verifyAccessToken(accessToken);
      if (!claims) return;
      const family = await sessions.getFamily(claims.familyId);
      if (family && family.userId === claims.userId) {
        await sessions.revokeFamily(family.familyId, new Date(clock()).toISOString());
      }
    },

    clearCookie: clearRefreshCookie,
  };
}
