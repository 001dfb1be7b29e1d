/**
 * Counters of attempts (logins, sign-ups) in fixed windows, kept in the store so that every
 * function instance sees the same count. Every operation is one conditional write: an attempt is
 * counted before the work it stands for is done, so a limit holds under any concurrency.
 */
export type AttemptKind =
  | 'login-pair'
  | 'login-address'
  | 'login-account'
  | 'signup-address'
  /** Verification links sent to a user (email/verification.ts): per minute and per day. */
  | 'verify-email-minute'
  | 'verify-email-day'
  /** Password reset links asked for: per client address (a refusal) and per account (silently none sent). */
  | 'reset-address'
  | 'reset-account';

/** A counted attempt: `count` includes it; `windowStart` names the window it was counted in. */
export interface Counted {
  allowed: true;
  count: number;
  windowStart: number;
}

export interface Refused {
  allowed: false;
  /** Until the attempt would be allowed. */
  retryAfterMs: number;
}

export interface AttemptStore {
  /**
   * Counts one attempt when fewer than `limit` were counted in the current window (which began at
   * its first attempt and lasts `windowMs`); a window that has run out starts again at `now`.
   */
  take(kind: AttemptKind, value: string, limit: number, windowMs: number, now: number): Promise<Counted | Refused>;
  /** Takes back an attempt that turned out not to be a guess; nothing when its window has been replaced. */
  giveBack(kind: AttemptKind, value: string, windowStart: number): Promise<void>;
  /** Forgets the counter. */
  clear(kind: AttemptKind, value: string): Promise<void>;
  /**
   * Sets the earliest time of the next paced attempt to `nextAt`. When `onlyIfDue`, only if the
   * last one set has come (else refused until it comes); otherwise unconditionally.
   */
  pace(
    kind: AttemptKind,
    value: string,
    now: number,
    nextAt: number,
    onlyIfDue: boolean,
  ): Promise<{ allowed: true } | Refused>;
}
