/**
 * The single DynamoDB table: one definition read by the CDK stack, the local engine and the
 * test setup, and the pure key builders every adapter uses. Keys are generic; each item
 * carries an `entity` attribute naming what it is.
 */

export interface IndexDefinition {
  name: string;
  partitionKey: string;
  sortKey: string;
}

export const table = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /** Epoch seconds; DynamoDB deletes the item some time after it passes. Readers still check it. */
  ttlAttribute: 'expiresAt',
  indexes: [
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
    { name: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
  ] as const satisfies readonly IndexDefinition[],
} as const;

/** Every attribute used in a key schema (all strings), for CreateTable and CDK. */
export const keyAttributes: string[] = [
  table.partitionKey,
  table.sortKey,
  ...table.indexes.flatMap((index) => [index.partitionKey, index.sortKey]),
];

export interface Key {
  pk: string;
  sk: string;
}

export const keys = {
  user: (userId: string): Key => ({ pk: `USER#${userId}`, sk: 'PROFILE' }),
  /** One item per e-mail address, written in the same transaction as the user: uniqueness. */
  email: (normalizedEmail: string): Key => ({ pk: `EMAIL#${normalizedEmail}`, sk: 'EMAIL' }),
  /** A refresh token, found by the SHA-256 of its value; the value itself is never stored. */
  session: (tokenHash: string): Key => ({ pk: `SESSION#${tokenHash}`, sk: 'SESSION' }),
  /** A login session across its rotated refresh tokens; revoking it ends them all. */
  sessionFamily: (familyId: string): Key => ({ pk: `FAMILY#${familyId}`, sk: 'FAMILY' }),
  /**
   * A counter of attempts in a window: logins per (account, address) pair, per address and per
   * account, sign-ups per address, verification links per user. `value` is the e-mail, the
   * address, `<e-mail>#<address>`, or the user id.
   */
  attempts: (
    kind:
      'login-pair' | 'login-address' | 'login-account' | 'signup-address' | 'verify-email-minute' | 'verify-email-day',
    value: string,
  ): Key => ({
    pk: `ATTEMPTS#${kind}#${value}`,
    sk: 'ATTEMPTS',
  }),
  /** An e-mail verification link, found by the SHA-256 of its token; the token itself is never stored. */
  emailVerification: (tokenHash: string): Key => ({ pk: `EMAIL_VERIFY#${tokenHash}`, sk: 'EMAIL_VERIFY' }),
  /** A Stripe event the webhook has processed (TTL): a redelivery finds it and does nothing. */
  stripeEvent: (eventId: string): Key => ({ pk: `STRIPE_EVENT#${eventId}`, sk: 'EVENT' }),
  /** A product, by the id derived from its supplier spu_no (productIdFromSpuNo). */
  product: (productId: string): Key => ({ pk: `PRODUCT#${productId}`, sk: 'PRODUCT' }),
  importJob: (jobId: string): Key => ({ pk: `IMPORT#${jobId}`, sk: 'JOB' }),
  /** One row-level error or warning of an import, in file order. */
  importIssue: (jobId: string, sequence: number): Key => ({
    pk: `IMPORT#${jobId}`,
    sk: `ISSUE#${String(sequence).padStart(9, '0')}`,
  }),
};

/**
 * Sparse index partitions: an item is in a list exactly while it carries that index's keys.
 * Sort keys are `<ISO time>#<id>`, read newest first.
 */
export const lists = {
  /** Products waiting for an admin: new, or changed since they were approved. (gsi1) */
  productsInReview: { index: 'gsi1', partition: 'PRODUCTS#REVIEW' },
  /** Products members see, at their approved values. (gsi2) */
  productsApproved: { index: 'gsi2', partition: 'PRODUCTS#APPROVED' },
  /** Import jobs, newest first. (gsi1) */
  importJobs: { index: 'gsi1', partition: 'IMPORTS' },
} as const;
