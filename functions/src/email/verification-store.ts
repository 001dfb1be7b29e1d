/**
 * E-mail verification tokens, stored by the SHA-256 of the token (the token itself is only in the
 * link). One record per link sent; a used record is kept (marked) until its TTL so that a second
 * click is told "already used" rather than "not valid".
 */
export interface VerificationRecord {
  tokenHash: string;
  userId: string;
  /** The address the link was sent to: verifying checks it is still the user's. */
  email: string;
  createdAt: number;
  /** Epoch ms after which the link no longer verifies (DynamoDB's TTL deletes the item later still). */
  expiresAtMs: number;
  usedAt?: number;
}

export type ConsumeOutcome =
  | { outcome: 'verified'; record: VerificationRecord }
  | { outcome: 'unknown' }
  | { outcome: 'used' }
  | { outcome: 'expired' }
  /** The user is gone, or the account's address is no longer the one the link was sent to. */
  | { outcome: 'address-changed' };

export interface VerificationStore {
  save(record: VerificationRecord): Promise<void>;
  /**
   * Marks the token used and sets the user's isEmailVerified, in one conditional transaction:
   * only an unused token that has not expired at `now`, and only while the user's address is the
   * token's. Of two concurrent calls with one token, exactly one is `verified`.
   */
  consume(tokenHash: string, now: number): Promise<ConsumeOutcome>;
}
