import { createHash } from 'node:crypto';
import { ENCODED, ENTRIES } from './common-passwords.data';

/**
 * Passwords found in lists of leaked passwords are refused at sign-up. The list is the
 * `passwords-common` dictionary of @zxcvbn-ts/language-common (about 49 000 passwords drawn from
 * leaked password corpora; MIT, maintained with zxcvbn-ts), kept to the entries a sign-up could
 * choose (8 to 128 characters). The package itself is 380 KB of JavaScript and would put the
 * signup function over its 250 KiB budget, so `npm run common-passwords` stores its entries
 * compactly in common-passwords.data.ts: the first 32 bits of SHA-256 of each (NFKC, lower case),
 * sorted, as LEB128 deltas in base64 (about 3 bytes each). Decoded on first use, searched in
 * O(log n); nothing is fetched at run time. A test regenerates the data from the installed
 * package and fails when they differ.
 *
 * Trade-off: a 32-bit fingerprint can match a password that is not on the list, with a chance of
 * about 1 in 240 000 per password; that person is asked to choose another.
 */
export function fingerprint(password: string): number {
  return createHash('sha256').update(password.normalize('NFKC').toLowerCase()).digest().readUInt32BE(0);
}

/** The fingerprints, sorted and de-duplicated, as LEB128 varints of their differences. */
export function encodeFingerprints(values: Iterable<number>): string {
  const sorted = [...new Set(values)].sort((a, b) => a - b);
  const bytes: number[] = [];
  let previous = 0;
  for (const value of sorted) {
    let delta = value - previous;
    previous = value;
    while (delta >= 0x80) {
      bytes.push((delta % 0x80) | 0x80);
      delta = Math.floor(delta / 0x80);
    }
    bytes.push(delta);
  }
  return Buffer.from(bytes).toString('base64');
}

export function decodeFingerprints(encoded: string): Uint32Array {
  const bytes = Buffer.from(encoded, 'base64');
  const values: number[] = [];
  let previous = 0;
  for (let index = 0; index < bytes.length;) {
    let delta = 0;
    let scale = 1;
    let byte: number;
    do {
      byte = bytes[index++]!;
      delta += (byte & 0x7f) * scale;
      scale *= 0x80;
    } while (byte & 0x80);
    previous += delta;
    values.push(previous);
  }
  return Uint32Array.from(values);
}

let fingerprints: Uint32Array | undefined;

function listed(value: number): boolean {
  fingerprints ??= decodeFingerprints(ENCODED);
  let low = 0;
  let high = fingerprints.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const at = fingerprints[middle]!;
    if (at === value) return true;
    if (at < value) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

/** True when the password, ignoring case and surrounding spaces, is on the list. */
export function isCommonPassword(password: string): boolean {
  return listed(fingerprint(password)) || listed(fingerprint(password.trim()));
}

/** How many passwords the stored list holds (for the docs and the test). */
export const COMMON_PASSWORD_COUNT = ENTRIES;
