import { randomUUID } from 'node:crypto';
import type { DomainError } from '../errors';

/**
 * An account's lock for one kind of slow change (decision 0243): taken by a conditional write
 * before the slow work (the scrypt hashes of a password change, the Stripe calls of a card
 * change), given back after it. A concurrent request of the same account is refused at once, in
 * words, instead of queueing behind the hashes or racing at Stripe. The lease ends a lock whose
 * holder died; it outlasts the slowest function that takes one (29 s), so a live holder keeps it.
 */
export type AccountLockName = 'password' | 'payout-card';

export const ACCOUNT_LOCK_LEASE_MS = 35_000;

export interface AccountLocks {
  /** Takes the lock for `holder` until `now + leaseMs`; false while another holder's lease runs. */
  take(userId: string, name: AccountLockName, holder: string, now: number, leaseMs: number): Promise<boolean>;
  /** Gives the lock back, only if `holder` still holds it. */
  release(userId: string, name: AccountLockName, holder: string): Promise<void>;
}

export interface LockDeps {
  locks: AccountLocks;
  now: () => number;
}

/** Runs `work` holding the account's lock `name`; `busy()` (a 409 in words) while another request holds it. */
export async function withAccountLock<T>(
  deps: LockDeps,
  userId: string,
  name: AccountLockName,
  busy: () => DomainError,
  work: () => Promise<T>,
): Promise<T> {
  const holder = randomUUID();
  if (!(await deps.locks.take(userId, name, holder, deps.now(), ACCOUNT_LOCK_LEASE_MS))) throw busy();
  try {
    return await work();
  } finally {
    // A failed release leaves the lock to its lease: the next request waits out at most that.
    await deps.locks.release(userId, name, holder).catch(() => undefined);
  }
}
