import { inGeneration, type SessionRepository } from './session-store';
import { verifyAccessToken } from './tokens';
import type { UserRecord, UserRepository } from './user-store';

/**
 * Who an access token names: the stored user, while the token verifies and its session family
 * is live and belongs to that user. Read on every call (two GetItems side by side), so a role
 * change or a logout takes effect at once.
 */
export function createAuthenticator(
  users: Pick<UserRepository, 'get'>,
  sessions: Pick<SessionRepository, 'getFamily'>,
): (accessToken: string) => Promise<UserRecord | undefined> {
  return async (accessToken) => {
    const claims = await verifyAccessToken(accessToken);
    if (!claims) return undefined;
    const [user, family] = await Promise.all([users.get(claims.userId), sessions.getFamily(claims.familyId)]);
    if (!user || !family || family.revokedAt || family.userId !== user.id) return undefined;
    // A password change or reset since this session started ended it.
    if (!inGeneration(family, user)) return undefined;
    return user;
  };
}
