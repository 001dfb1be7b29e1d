import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** An identifier shaped like Stripe's: a type prefix, an underscore and random base62 characters. */
export function stripeId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) out += ALPHABET[byte % ALPHABET.length];
  return `${prefix}_${out}`;
}

/** Seconds since the epoch, as every Stripe timestamp. */
export const unixNow = (): number => Math.floor(Date.now() / 1000);
