import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import { env } from '../config/env';
import { getSecret } from '../config/secrets';

/**
 * Access tokens: short-lived JWTs signed with HS256; algorithm, issuer and audience are pinned
 * on verification, so `alg: none` or a token for another audience is refused.
 * Refresh tokens: 32 random bytes, opaque to everyone; only their SHA-256 is stored.
 */
export const ACCESS_TOKEN_SECONDS = 15 * 60;
export const REFRESH_TOKEN_SECONDS = 14 * 24 * 60 * 60;
const ALGORITHM = 'HS256';

export interface AccessClaims {
  userId: string;
  familyId: string;
}

let keyPromise: Promise<Uint8Array> | undefined;
function signingKey(): Promise<Uint8Array> {
  keyPromise ??= getSecret('tokenSigningKey').then((secret) => {
    if (secret.length < 32) throw new Error('TOKEN_SIGNING_KEY must be at least 32 characters');
    return new TextEncoder().encode(secret);
  });
  // A key that could not be loaded (Secrets Manager unreachable at cold start) is not kept: the next call tries again.
  keyPromise.catch(() => (keyPromise = undefined));
  return keyPromise;
}

/** Resolves once the signing key is loaded: a call that must not store anything it cannot answer with a token waits on it first. */
export const signingKeyLoaded = async (): Promise<void> => void (await signingKey());

export async function signAccessToken(claims: AccessClaims): Promise<string> {
  const { TOKEN_ISSUER, TOKEN_AUDIENCE } = env();
  return new SignJWT({ sid: claims.familyId })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${ACCESS_TOKEN_SECONDS}s`)
    .sign(await signingKey());
}

/** Returns the claims, or null for any token that is missing, malformed, forged or expired. */
export async function verifyAccessToken(token: string): Promise<AccessClaims | null> {
  const { TOKEN_ISSUER, TOKEN_AUDIENCE } = env();
  try {
    const { payload } = await jwtVerify(token, await signingKey(), {
      algorithms: [ALGORITHM],
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
      maxTokenAge: `${ACCESS_TOKEN_SECONDS}s`,
      requiredClaims: ['sub', 'exp', 'iat', 'sid'],
    });
    if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
    return { userId: payload.sub, familyId: payload.sid };
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) return null;
    throw error;
  }
}

export const newRefreshToken = (): string => randomBytes(32).toString('base64url');
export const hashRefreshToken = (token: string): string => createHash('sha256').update(token).digest('hex');
export const newId = (): string => randomBytes(16).toString('hex');
