import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, decodeProtectedHeader, errors as joseErrors, jwtVerify } from 'jose';
import { env } from '../config/env';
import { SECRET_MAX_AGE_SECONDS, getSecretVersion, type SecretVersion } from '../config/secrets';

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

/**
 * The signing key is the secret `tokenSigningKey`; a token names the version that signed it in
 * its `kid` header (Secrets Manager's version id). Tokens are signed with the current version
 * (AWSCURRENT, cached for SECRET_MAX_AGE_SECONDS), and verified with the version their `kid`
 * names: the current one, or the previous one (AWSPREVIOUS) for the tokens signed before the key
 * was replaced, which are still within their 15 minutes. A `kid` this container does not know may
 * be a version newer than its cache (another container has seen the new key first): the versions
 * are fetched again, at most once per KEY_REFRESH_SECONDS.
 */
interface SigningKey {
  kid: string;
  key: Uint8Array;
  /** When the version was created (ms), when known: the previous key signs nothing issued later. */
  createdAt?: number;
}

/** How often a container may skip the cache because of a `kid` it does not know. */
export const KEY_REFRESH_SECONDS = 30;
let lastRefresh = Number.NEGATIVE_INFINITY;

function asKey(version: SecretVersion): SigningKey {
  if (version.value.length < 32) throw new Error('TOKEN_SIGNING_KEY must be at least 32 characters');
  return {
    kid: version.versionId,
    key: new TextEncoder().encode(version.value),
    ...(version.createdAt !== undefined ? { createdAt: version.createdAt } : {}),
  };
}

const currentKey = async (refresh = false): Promise<SigningKey> =>
  asKey(await getSecretVersion('tokenSigningKey', 'AWSCURRENT', { refresh }));

/** Resolves once the signing key is loaded: a call that must not store anything it cannot answer with a token waits on it first. */
export const signingKeyLoaded = async (): Promise<void> => void (await currentKey());

export async function signAccessToken(claims: AccessClaims): Promise<string> {
  const { TOKEN_ISSUER, TOKEN_AUDIENCE } = env();
  const { kid, key } = await currentKey();
  return new SignJWT({ sid: claims.familyId })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT', kid })
    .setSubject(claims.userId)
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${ACCESS_TOKEN_SECONDS}s`)
    .sign(key);
}

/**
 * The key a token's `kid` names, with the latest its `iat` may be: a token signed with the
 * previous key must have been issued before the current key was created (plus the cache's age,
 * for containers that had not seen it yet), so that the previous key, once replaced, signs
 * nothing new (a leaked key stops working once its tokens expire).
 */
async function keyFor(kid: string, refresh: boolean): Promise<{ key: SigningKey; issuedBy?: number } | undefined> {
  const current = await currentKey(refresh);
  if (kid === current.kid) return { key: current };
  const previousVersion = await getSecretVersion('tokenSigningKey', 'AWSPREVIOUS', { refresh });
  if (previousVersion?.versionId !== kid) return undefined;
  return {
    key: asKey(previousVersion),
    ...(current.createdAt !== undefined
      ? { issuedBy: Math.floor(current.createdAt / 1000) + SECRET_MAX_AGE_SECONDS }
      : {}),
  };
}

/** Returns the claims, or null for any token that is missing, malformed, forged, expired or signed with a key no longer in use. */
export async function verifyAccessToken(token: string): Promise<AccessClaims | null> {
  const { TOKEN_ISSUER, TOKEN_AUDIENCE } = env();
  let kid: string | undefined;
  try {
    kid = decodeProtectedHeader(token).kid;
  } catch {
    return null;
  }
  if (typeof kid !== 'string' || kid === '') return null;
  let found = await keyFor(kid, false);
  if (!found && Date.now() - lastRefresh >= KEY_REFRESH_SECONDS * 1000) {
    lastRefresh = Date.now();
    found = await keyFor(kid, true);
  }
  if (!found) return null;
  try {
    const { payload } = await jwtVerify(token, found.key.key, {
      algorithms: [ALGORITHM],
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
      maxTokenAge: `${ACCESS_TOKEN_SECONDS}s`,
      requiredClaims: ['sub', 'exp', 'iat', 'sid'],
    });
    if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
    if (found.issuedBy !== undefined && (payload.iat ?? Number.POSITIVE_INFINITY) > found.issuedBy) return null;
    return { userId: payload.sub, familyId: payload.sid };
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) return null;
    throw error;
  }
}

export const newRefreshToken = (): string => randomBytes(32).toString('base64url');
export const hashRefreshToken = (token: string): string => createHash('sha256').update(token).digest('hex');
export const newId = (): string => randomBytes(16).toString('hex');
