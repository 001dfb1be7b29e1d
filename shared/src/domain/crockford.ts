/**
 * Crockford's base32 alphabet: digits and letters without I, L, O and U, so a code read aloud or
 * copied by hand cannot be mistaken (1/I/L, 0/O) and spells no common word with U.
 */
export const CROCKFORD_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * `length` random Crockford characters, 5 bits each from the platform's CSPRNG (Web Crypto, in
 * Node and browsers alike). 32 divides 256, so `byte & 31` is uniform.
 */
export function randomCrockford(length: number): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(length));
  let text = '';
  for (const byte of bytes) text += CROCKFORD_ALPHABET[byte & 31];
  return text;
}

/** A member's share code: 8 characters (40 bits), stable for life. */
export const SHARE_CODE_LENGTH = 8;
export const newShareCode = (): string => randomCrockford(SHARE_CODE_LENGTH);
export const isShareCode = (value: string): boolean => /^[0-9A-HJKMNP-TV-Z]{8}$/.test(value);
