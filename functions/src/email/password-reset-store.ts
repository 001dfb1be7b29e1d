/**
 * Password reset links, stored by the SHA-256 of the token (the token itself is only in the link).
 * A used record is kept (marked) until its TTL, so a second click is told "used", not "not valid".
 */
export interface PasswordResetRecord {
  tokenHash: string;
  userId: string;
  /** The address the link was sent to (the account's then). */
  email: string;
  createdAt: number;
  /** Epoch ms after which the link no longer works (DynamoDB's TTL deletes the item later still). */
  expiresAtMs: number;
  usedAt?: number;
  /** The account's link generation when the link was sent (absent: 0): the link works while it is the user's. */
  linkGeneration?: number;
}

export type ResetOutcome =
  | { outcome: 'reset' }
  /** `superseded`: the account's password or e-mail address changed after the link was sent. */
  | { outcome: 'unknown' | 'used' | 'expired' | 'user-gone' | 'superseded' };

export interface PasswordResetStore {
  save(record: PasswordResetRecord): Promise<void>;
  get(tokenHash: string): Promise<PasswordResetRecord | undefined>;
  /**
   * In one conditional transaction: marks the link used (only an unused one that has not expired at
   * `now`), sets the user's password hash and moves the user's session generation on, which ends
   * every session of the account, and its link generation (only from the link's own), which ends
   * every other link. Of two uses of one link at once, exactly one is `reset`.
   */
  use(tokenHash: string, passwordHash: string, now: number): Promise<ResetOutcome>;
}
