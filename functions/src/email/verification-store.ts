/**
 * E-mail verification tokens, stored by the SHA-256 of the token (the token itself is only in the
 * link). One record per link sent; a used record is kept (marked) until its TTL so that a second
 * click is told "already used" rather than "not valid".
 */
export interface VerificationRecord {
  tokenHash: string;
  userId: string;
  /** The address the link was sent to: verifying checks it is still the user's (or, for a change, that it becomes theirs). */
  email: string;
  /**
   * A change of address: the account's address when the link was sent. Using the link makes `email`
   * the account's (and its login) in place of this one, if it still is the account's and `email` is
   * nobody's.
   */
  replaces?: string;
  createdAt: number;
  /** Epoch ms after which the link no longer verifies (DynamoDB's TTL deletes the item later still). */
  expiresAtMs: number;
  usedAt?: number;
  /** The account's link generation when the link was sent (absent: 0): the link works while it is the user's. */
  linkGeneration?: number;
}

export type ConsumeOutcome =
  | { outcome: 'verified'; record: VerificationRecord }
  | { outcome: 'unknown' }
  | { outcome: 'used' }
  | { outcome: 'expired' }
  /** The user is gone, or the account's address is no longer the one the link was sent to. */
  | { outcome: 'address-changed' }
  /** A change of address whose new address another account registered meanwhile. */
  | { outcome: 'taken' }
  /** The account's password or e-mail address changed after the link was sent (its link generation moved on). */
  | { outcome: 'superseded' };

export interface VerificationStore {
  save(record: VerificationRecord): Promise<void>;
  /**
   * Marks the token used and sets the user's isEmailVerified, in one conditional transaction:
   * only an unused token that has not expired at `now`, and only while the user's address is the
   * token's. Of two concurrent calls with one token, exactly one is `verified`.
   *
   * A change of address (`replaces`) moves the address in the same transaction: the user's `email`
   * from `replaces` to `email` (verified), the claim `EMAIL#<email>` put only if absent, the claim
   * `EMAIL#<replaces>` deleted only if it is this user's. Two accounts cannot end with one address.
   * Every link works only while the user's link generation is the link's; a change of address moves
   * it on, so every other link of the account ends with it.
   */
  consume(tokenHash: string, now: number): Promise<ConsumeOutcome>;
}
