import type { AttemptStore, Counted } from './attempt-store';
import { DomainError } from '../errors';

/**
 * Login throttling. Every attempt is counted BEFORE the password is checked, by a conditional
 * write (attempt-store.ts), so no number of parallel requests gets more password checks than a
 * limit allows. Three counters, each a fixed 15-minute window from its first attempt:
 *
 * - per (account, address) pair, 5: one client guessing one account's password. Refusals here
 *   do not touch anyone else: the owner of the account, at another address, is not locked out.
 * - per address, 20: one client trying many accounts (higher, because an office or a mobile
 *   carrier's NAT puts many people behind one address).
 * - per account, never a refusal by itself but a pace: once an account has had more than
 *   ACCOUNT_PACE.freeAttempts attempts in the window (guesses from many addresses), each further
 *   attempt pushes the account's next allowed time out by a delay that doubles per attempt (1 s,
 *   2 s, 4 s … up to 15 minutes). Attempts from an address that already tried this account in
 *   the window must wait for that time (429 with Retry-After); an attempt from a clean address
 *   (its first for this account in the window) is never held back by it, so the owner's right
 *   password from their own device still logs in while someone elsewhere guesses.
 *
 * The trade-off: a guesser with many addresses gets one guess per fresh address per window.
 * That is bounded by the per-address limit across accounts, the cost of each guess (scrypt, 128
 * MiB) and sign-up refusing common passwords; refusing them all would let anyone lock any owner out.
 *
 * A successful login forgets the pair's attempts and gives its address and account attempts back
 * (they were not guesses); a refused attempt gives back what it had counted.
 */
export const WINDOW_MS = 15 * 60 * 1000;
export const LIMITS = { pair: 5, address: 20 } as const;
export const ACCOUNT_PACE = { freeAttempts: 10, firstDelayMs: 1000, maxDelayMs: WINDOW_MS } as const;

/** The delay an account's attempt number `count` in the window sets before the next paced one. */
export function accountDelayMs(count: number): number {
  const over = count - ACCOUNT_PACE.freeAttempts;
  if (over <= 0) return 0;
  return Math.min(ACCOUNT_PACE.maxDelayMs, ACCOUNT_PACE.firstDelayMs * 2 ** Math.min(over - 1, 30));
}

export function tooManyAttempts(retryAfterMs: number): DomainError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  const wait =
    seconds < 60
      ? `${seconds} second${seconds === 1 ? '' : 's'}`
      : `${Math.ceil(seconds / 60)} minute${Math.ceil(seconds / 60) === 1 ? '' : 's'}`;
  return new DomainError('too-many-requests', `Too many attempts. Try again in ${wait}.`, {
    headers: { 'retry-after': String(seconds) },
  });
}

export interface LoginAttempt {
  /** The password was right: forget this pair's attempts and give back the others. */
  succeeded(): Promise<void>;
}

/** The pair counter's value: the address is last and holds no `#`, so the split is unambiguous. */
export const pairOf = (email: string, address: string): string => `${email}#${address}`;

export function createLoginLimiter(store: AttemptStore, clock: () => number = Date.now) {
  return {
    /** Counts a login attempt, or throws 429 when the pair, the address or the account's pace refuses it. */
    async begin(email: string, address: string): Promise<LoginAttempt> {
      const now = clock();
      const pairKey = pairOf(email, address);
      const pair = await store.take('login-pair', pairKey, LIMITS.pair, WINDOW_MS, now);
      if (!pair.allowed) throw tooManyAttempts(pair.retryAfterMs);
      const counted: [Parameters<AttemptStore['giveBack']>[0], string, Counted][] = [['login-pair', pairKey, pair]];
      const giveBackAll = () =>
        Promise.all(counted.map(([kind, value, taken]) => store.giveBack(kind, value, taken.windowStart)));

      const perAddress = await store.take('login-address', address, LIMITS.address, WINDOW_MS, now);
      if (!perAddress.allowed) {
        await giveBackAll();
        throw tooManyAttempts(perAddress.retryAfterMs);
      }
      counted.push(['login-address', address, perAddress]);

      const account = await store.take('login-account', email, Number.MAX_SAFE_INTEGER, WINDOW_MS, now);
      if (account.allowed) {
        counted.push(['login-account', email, account]);
        const delay = accountDelayMs(account.count);
        if (delay > 0) {
          const clean = pair.count === 1;
          const paced = await store.pace('login-account', email, now, now + delay, !clean);
          if (!paced.allowed) {
            await giveBackAll();
            throw tooManyAttempts(paced.retryAfterMs);
          }
        }
      }

      return {
        async succeeded() {
          await Promise.all([
            store.clear('login-pair', pairKey),
            ...counted
              .filter(([kind]) => kind !== 'login-pair')
              .map(([kind, value, taken]) => store.giveBack(kind, value, taken.windowStart)),
          ]);
        },
      };
    },
  };
}

/**
 * Sign-ups per client address: each one costs a 128 MiB scrypt hash and makes an account, so an
 * address gets SIGNUP_LIMIT per hour, counted before the hash.
 */
export const SIGNUP_LIMIT = 10;
export const SIGNUP_WINDOW_MS = 60 * 60 * 1000;

export function createSignupLimiter(store: AttemptStore, clock: () => number = Date.now) {
  return {
    async take(address: string): Promise<void> {
      const counted = await store.take('signup-address', address, SIGNUP_LIMIT, SIGNUP_WINDOW_MS, clock());
      if (!counted.allowed) throw tooManyAttempts(counted.retryAfterMs);
    },
  };
}
