import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * A rotated refresh token keeps, for the grace window, the token it was exchanged for, so that a
 * second tab presenting the same token a moment later gets the same answer. That successor is a
 * live credential, so it is stored sealed: AES-256-GCM under a key derived (HKDF-SHA-256) from the
 * presented token, which the store never holds (it keeps the token's SHA-256, a different
 * derivation). Only someone who presents the old token can open it, and only while the grace
 * window lasts, since the old record is refused after that.
 *
 * Why not derive the successor from the old token and a server secret (HMAC)? Then the signing
 * secret plus any old token of a family would compute every later token of it, forever; sealing
 * needs no server secret, and the successor stays 32 random bytes.
 */
const INFO = 'reseller-portal refresh-token successor v1';

const keyOf = (presented: string, salt: Buffer) => Buffer.from(hkdfSync('sha256', presented, salt, INFO, 32));

export function sealSuccessor(presented: string, successor: string): string {
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(presented, salt), iv);
  const sealed = Buffer.concat([cipher.update(successor, 'utf8'), cipher.final()]);
  return ['v1', salt, iv, sealed, cipher.getAuthTag()]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** The successor, or undefined when `sealed` was not sealed for this token (or was tampered with). */
export function openSuccessor(presented: string, sealed: string): string | undefined {
  const [version, salt, iv, data, tag] = sealed.split('.');
  if (version !== 'v1' || !salt || !iv || !data || !tag) return undefined;
  try {
    const decipher = createDecipheriv(
      'aes-256-gcm',
      keyOf(presented, Buffer.from(salt, 'base64url')),
      Buffer.from(iv, 'base64url'),
    );
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
