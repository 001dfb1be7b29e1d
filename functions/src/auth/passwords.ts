import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Password hashing with scrypt from node:crypto at the OWASP-recommended cost
 * (N = 2^17, r = 8, p = 1: 128 MiB and a few hundred milliseconds per hash).
 * Stored form: `scrypt$<log2 N>$<r>$<p>$<salt b64url>$<hash b64url>`, so the cost can be
 * raised later and old hashes still verify.
 */
export const LOG2_N = 17;
/** The lowest cost a test run may ask for: still a real scrypt, about 2 ms a hash here. */
const TEST_LOG2_N_FLOOR = 10;
const R = 8;
const P = 1;
const KEY_LENGTH = 64;

function scrypt(password: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  const N = 2 ** logN;
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r };
  return new Promise((resolve, reject) =>
    scryptCallback(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/**
 * The cost of a new hash: always 2^17, except inside a Vitest run (VITEST is set by Vitest itself,
 * never by the stack or npm start), where PASSWORD_HASH_LOG2_N_IN_TESTS may lower it for the
 * hashes the tests make (vitest.config.ts sets 12): at 2^17 each of the suite's hundreds of
 * sign-ups and demo accounts cost 333 ms of a core here. Verification reads the cost from the stored
 * hash, so every rule is exercised the same way; passwords.test.ts pins the production cost.
 */
export function hashCost(environment: NodeJS.ProcessEnv = process.env): number {
  const asked = Number(environment.PASSWORD_HASH_LOG2_N_IN_TESTS);
  const inTests = environment.VITEST === 'true';
  return inTests && Number.isInteger(asked) && asked >= TEST_LOG2_N_FLOOR && asked <= LOG2_N ? asked : LOG2_N;
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const logN = hashCost();
  const key = await scrypt(password, salt, logN, R, P);
  return ['scrypt', logN, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, logN, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), Number(logN), Number(r), Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash of a random password, verified against when the e-mail is unknown so both cases take as long. */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(24).toString('base64url'));
  return decoy;
}
