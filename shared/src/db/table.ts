import type { CommissionStatus, OrderStatus } from '../domain/sales-status';

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
  /**
   * The table's stream: the keys of every write (decision 0481). The places function reads it,
   * filtered to the members' earnings shards; it needs no image, only whose shard moved.
   */
  streamViewType: 'KEYS_ONLY',
  indexes: [
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
    { name: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
    { name: 'gsi4', partitionKey: 'gsi4pk', sortKey: 'gsi4sk' },
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
      | 'login-pair'
      | 'login-address'
      | 'login-account'
      | 'signup-address'
      | 'verify-email-minute'
      | 'verify-email-day'
      | 'reset-address'
      | 'reset-account',
    value: string,
  ): Key => ({
    pk: `ATTEMPTS#${kind}#${value}`,
    sk: 'ATTEMPTS',
  }),
  /** An e-mail verification link, found by the SHA-256 of its token; the token itself is never stored. */
  emailVerification: (tokenHash: string): Key => ({ pk: `EMAIL_VERIFY#${tokenHash}`, sk: 'EMAIL_VERIFY' }),
  /** A password reset link, found by the SHA-256 of its token; the token itself is never stored. */
  passwordReset: (tokenHash: string): Key => ({ pk: `PASSWORD_RESET#${tokenHash}`, sk: 'PASSWORD_RESET' }),
  /** A Stripe event the webhook has processed (TTL): a redelivery finds it and does nothing. */
  stripeEvent: (eventId: string): Key => ({ pk: `STRIPE_EVENT#${eventId}`, sk: 'EVENT' }),
  /** A product, by the id derived from its supplier spu_no (productIdFromSpuNo). */
  product: (productId: string): Key => ({ pk: `PRODUCT#${productId}`, sk: 'PRODUCT' }),
  importJob: (jobId: string): Key => ({ pk: `IMPORT#${jobId}`, sk: 'JOB' }),
  /**
   * The product id directory: every product id, in chunks written just before the products they
   * name (ProductRepository.putNew), and a marker once it is complete. It lets an import skip
   * the state read of a product that cannot exist.
   */
  productIdChunk: (chunk: string): Key => ({ pk: 'PRODUCT_IDS', sk: `IDS#${chunk}` }),
  productIdsComplete: (): Key => ({ pk: 'PRODUCT_IDS', sk: 'COMPLETE' }),
  /** Marks that the products stored before the catalogue lists (gsi3) were given their keys. */
  catalogueKeysUpgrade: (): Key => ({ pk: 'UPGRADE#catalogue-keys', sk: 'UPGRADE' }),
  /** The catalogue write lease: the one import run that may create products (run-import.ts). */
  catalogueLease: (): Key => ({ pk: 'LEASE#CATALOGUE', sk: 'LEASE' }),
  /** One row-level error or warning of an import, in file order. */
  importIssue: (jobId: string, sequence: number): Key => ({
    pk: `IMPORT#${jobId}`,
    sk: `ISSUE#${String(sequence).padStart(9, '0')}`,
  }),
  // The sales loop (issue 15; docs/architecture.md#data-one-dynamodb-table).
  order: (orderId: string): Key => ({ pk: `ORDER#${orderId}`, sk: 'ORDER' }),
  /** One order per card payment: put with attribute_not_exists in the order's transaction. */
  paymentClaim: (paymentIntentId: string): Key => ({ pk: `PAYMENT#${paymentIntentId}`, sk: 'PAYMENT' }),
  commission: (commissionId: string): Key => ({ pk: `COMMISSION#${commissionId}`, sk: 'COMMISSION' }),
  /**
   * The order counters: COUNTER_SHARDS items ADDed to (one per write, none written by every sale),
   * read together by one Query of the partition, which also reads the single item of before
   * (sk `COUNTER`, no longer written).
   */
  ordersCounterShard: (shard: number): Key => ({ pk: COUNTER_PARTITIONS.orders, sk: shardSortKey(shard) }),
  commissionsCounterShard: (shard: number): Key => ({ pk: COUNTER_PARTITIONS.commissions, sk: shardSortKey(shard) }),
  /**
   * A member's place among the top earners (gsi1) and, for members who earned before the shards,
   * their totals of then (`count`, `totalCents`, `paidCents`, `processingCents`, no longer written).
   */
  earnings: (memberId: string): Key => ({ pk: `USER#${memberId}`, sk: EARNINGS_PREFIX }),
  /** A shard of a member's commission totals (ADDed to); the member's totals are the sum of `EARNINGS*`. */
  earningsShard: (memberId: string, shard: number): Key => ({
    pk: `USER#${memberId}`,
    sk: `${EARNINGS_PREFIX}#${shardSortKey(shard)}`,
  }),
  /** A share code's claim → memberId: unique, written with the user (or lazily, once). */
  shareCode: (code: string): Key => ({ pk: `SHARE#${code}`, sk: 'SHARE' }),
  /** A mail's claim, keyed by what it is about (`<kind>#<event or object id>`): each mail is sent once. */
  mailClaim: (kind: string, eventId: string): Key => ({ pk: `MAIL#${kind}#${eventId}`, sk: 'MAIL' }),
  /** An order page link: the SHA-256 of its random token → the order. */
  orderLink: (tokenHash: string): Key => ({ pk: `ORDER_LINK#${tokenHash}`, sk: 'ORDER_LINK' }),
  /**
   * What a member owes the platform after clawbacks: `owedCents` (never below 0), ADDed to by each
   * clawback and taken down (SET owedCents = owedCents - :netted, conditional) when a payout nets it.
   * In the admin's list of debts (`lists.memberDebts`, gsi1) while it is above 0.
   */
  memberOwed: (memberId: string): Key => ({ pk: `USER#${memberId}`, sk: 'OWED' }),
  /** One clawback of a member: amount, reason, order and commission ids (the member and the admin read these). */
  clawback: (memberId: string, time: string, id: string): Key => ({
    pk: `USER#${memberId}`,
    sk: `CLAWBACK#${time}#${id}`,
  }),
  /** One member's part of a payout batch: the commissions it carries and where their money is. */
  payoutBatch: (batchId: string, memberId: string): Key => ({ pk: `BATCH#${batchId}`, sk: `MEMBER#${memberId}` }),
  /** An account's lock for one kind of slow change (a password, the payout card), with a short lease (functions/src/auth/account-lock.ts). */
  accountLock: (userId: string, name: string): Key => ({ pk: `USER#${userId}`, sk: `LOCK#${name}` }),
  /** A member's payout lock: the batch open for them and until when a run works on it (one at a time). */
  payoutLock: (memberId: string): Key => ({ pk: `USER#${memberId}`, sk: 'PAYOUT_LOCK' }),
  /**
   * A checkout's payment intent not yet paid, in its product's partition (TTL): a ban or withdrawal
   * cancels them at Stripe by one Query of the partition; the sale's transaction deletes it.
   */
  openIntent: (productId: string, paymentIntentId: string): Key => ({
    pk: `${OPEN_INTENTS_PREFIX}${productId}`,
    sk: `PI#${paymentIntentId}`,
  }),
  /** A member's discount code (upper case), tied to a Stripe promotion code; its redemptions counted on it. */
  discountCode: (code: string): Key => ({ pk: `${DISCOUNT_CODE_PREFIX}${code}`, sk: 'CODE' }),
  /** One checkout's redemption of a code (its intent's key, hashed): a checkout asked again counts once. */
  discountCodeUse: (code: string, checkoutHash: string): Key => ({
    pk: `${DISCOUNT_CODE_PREFIX}${code}`,
    sk: `USE#${checkoutHash}`,
  }),
  /** One sale with a code, written in the sale's transaction: what the code's list of orders reads. */
  discountCodeSale: (code: string, createdAt: string, orderId: string): Key => ({
    pk: `${DISCOUNT_CODE_PREFIX}${code}`,
    sk: `${DISCOUNT_CODE_SALE_PREFIX}${createdAt}#${orderId}`,
  }),
  // Commission rules (issue 39; docs/programme.md, decision 0420).
  /** The programme: every rule, every group with its member count, and the version a change is conditional on. */
  programme: (): Key => ({ pk: 'PROGRAMME', sk: 'COMMISSION_RULES' }),
  /**
   * The programme's version alone (`version`), written in the transaction of every change of the
   * rules or the groups: a sale reads it (one read unit whatever the programme's size) and reads the
   * programme only when its container holds another version (decision 0480).
   */
  programmeVersion: (): Key => ({ pk: 'PROGRAMME', sk: 'VERSION' }),
  /** The groups a member is in (`groupIds`, a string set), read with the programme at each sale. */
  memberGroups: (memberId: string): Key => ({ pk: `USER#${memberId}`, sk: 'RULE_GROUPS' }),
  /** A member of a group: the group's partition lists its members by id. */
  groupMember: (groupId: string, memberId: string): Key => ({
    pk: `${GROUP_PREFIX}${groupId}`,
    sk: `MEMBER#${memberId}`,
  }),
  /** One entry of the rules' audit log, in one partition read newest first. */
  ruleAudit: (time: string, id: string): Key => ({ pk: RULE_AUDIT_PARTITION, sk: `${time}#${id}` }),
  // Link statistics (issue 39; docs/link-statistics.md).
  /**
   * One counted visit: its id is a daily-salted HMAC of the visitor's address and user agent with the
   * link and the hour, so the same visitor on the same link in the same hour is the same item (a
   * conditional put counts it once). It holds the link and the hour, never the address or agent.
   */
  visit: (visitId: string): Key => ({ pk: `VISIT#${visitId}`, sk: 'VISIT' }),
  /** The day's random salt of the visitor hashes (TTL: gone the day after, so no hash can be remade). */
  visitSalt: (day: string): Key => ({ pk: `VISIT_SALT#${day}`, sk: 'SALT' }),
  /** A sale counted into the link statistics (put in the same transaction as its counts): once per order. */
  statsSale: (orderId: string): Key => ({ pk: `STATS_SALE#${orderId}`, sk: 'STATS_SALE' }),
  /**
   * A shard of a day's link counts (ADDed to): every link, a product's, or a member's (their total
   * and each product's, sk `DAY#<day>#ALL` / `DAY#<day>#P#<productId>`). A series is read by one
   * Query per shard over the days; none is written by every visit.
   */
  statsShard: (series: StatsSeries, shard: number, day: string, productId?: string): Key => ({
    pk: `${statsPartition(series)}#${String(shard).padStart(2, '0')}`,
    sk: series.kind === 'member' ? `DAY#${day}#${productId ? `P#${productId}` : 'ALL'}` : `DAY#${day}`,
  }),
  /** The cancelling of a banned or withdrawn product's open intents: its counts (issue 38). */
  checkoutCancels: (productId: string): Key => ({ pk: `CHECKOUT_CANCELS#${productId}`, sk: 'CHECKOUT_CANCELS' }),
};

/** The partition prefix of a discount code's items, and the sort key prefix of its sales. */
export const DISCOUNT_CODE_PREFIX = 'DISCOUNT_CODE#';
export const DISCOUNT_CODE_SALE_PREFIX = 'SALE#';
/**
 * A code's place in `lists.discountCodesWithSales` (gsi2): the code, then each of its sales after it
 * (`#` sorts before every letter, digit and `-` a code may hold, so a code's sales come before the
 * next code).
 */
export const codeListKey = (code: string): string => code;
export const codeSaleListKey = (code: string, createdAt: string, orderId: string): string =>
  `${code}#${DISCOUNT_CODE_SALE_PREFIX}${createdAt}#${orderId}`;

/** Which counts a link statistics item holds: every link, one product's, one member's. */
export type StatsSeries =
  { kind: 'all' } | { kind: 'product'; productId: string } | { kind: 'member'; memberId: string };

/** Shards per series: every visit writes one shard of `all`, so it has the most. */
export const STATS_SHARDS = { all: 16, product: 4, member: 4 } as const;

/** The partition of a series' shard (without its `#<nn>`). */
export function statsPartition(series: StatsSeries): string {
  if (series.kind === 'all') return 'STATS#ALL';
  if (series.kind === 'product') return `STATS#PRODUCT#${series.productId}`;
  return `STATS#MEMBER#${series.memberId}`;
}

/** The partition prefix of a product's open payment intents (keys.openIntent). */
export const OPEN_INTENTS_PREFIX = 'OPEN_INTENTS#';

/** The partition prefix of a member group's members (keys.groupMember). */
export const GROUP_PREFIX = 'GROUP#';
/** The partition of the commission rules' audit log (keys.ruleAudit). */
export const RULE_AUDIT_PARTITION = 'AUDIT#COMMISSION_RULES';

/** The sort key prefix of a member's clawback entries. */
export const CLAWBACK_PREFIX = 'CLAWBACK#';

/**
 * The To Stripe list's sort key of a fulfilled commission: its `availableAt` first, so the list of
 * what can be sent now is one key range (`AVAILABLE#` … `AVAILABLE#<now>`); a commission whose order
 * is open keeps `<createdAt>#<id>`, which sorts before it and is never in that range.
 */
export const AVAILABLE_PREFIX = 'AVAILABLE#';
export const availableSortKey = (availableAt: number, id: string): string =>
  `${AVAILABLE_PREFIX}${new Date(availableAt).toISOString()}#${id}`;

/**
 * Shards of every item a sale would otherwise write in every transaction (the counters, a
 * member's earnings): a write picks one, a read sums them all. docs/decisions/0070-sales-without-hot-items.md.
 */
export const COUNTER_SHARDS = 32;
export const COUNTER_PARTITIONS = { orders: 'COUNTER#ORDERS', commissions: 'COUNTER#COMMISSIONS' } as const;
export const EARNINGS_PREFIX = 'EARNINGS';
const shardSortKey = (shard: number): string => `SHARD#${String(shard).padStart(2, '0')}`;

/** What a stream record's sort key begins with when it moved a member's earnings (the stack's filter). */
export const EARNINGS_SHARD_PREFIX = `${EARNINGS_PREFIX}#`;

/**
 * The member whose earnings shard a key names (`USER#<id>` / `EARNINGS#SHARD#nn`), as a stream
 * record carries it; undefined for any other item (the place item `EARNINGS` itself among them).
 */
export function earningsShardMember(key: { pk?: unknown; sk?: unknown }): string | undefined {
  const { pk, sk } = key;
  if (typeof pk !== 'string' || typeof sk !== 'string') return undefined;
  if (!pk.startsWith('USER#') || !sk.startsWith(EARNINGS_SHARD_PREFIX)) return undefined;
  return pk.slice('USER#'.length) || undefined;
}

/** A stable shard for an id (a move of that order or commission always ADDs to the same one). */
export function shardOf(id: string): number {
  let hash = 2166136261;
  for (let index = 0; index < id.length; index++) hash = Math.imul(hash ^ id.charCodeAt(index), 16777619);
  return (hash >>> 0) % COUNTER_SHARDS;
}

/**
 * Sparse index partitions: an item is in a list exactly while it carries that index's keys.
 * Sort keys are `<ISO time>#<id>`, read newest first.
 */
export const lists = {
  /** Products waiting for an admin: new, or changed since they were approved. (gsi1) */
  productsInReview: { index: 'gsi1', partition: 'PRODUCTS#REVIEW' },
  /** Products members see, at their approved values. (gsi2) */
  productsApproved: { index: 'gsi2', partition: 'PRODUCTS#APPROVED' },
  /**
   * The admin's catalogue lists (approved: what members see; banned; withdrawn), by name:
   * sort key `<searchableName>#<id>`, so a name search is a key condition. (gsi3)
   */
  catalogue: (list: 'approved' | 'banned' | 'withdrawn') =>
    ({ index: 'gsi3', partition: `PRODUCTS#CATALOGUE#${list}` }) as const,
  /** Import jobs, newest first. (gsi1) */
  importJobs: { index: 'gsi1', partition: 'IMPORTS' },
  // The sales lists (sort keys `<ISO time>#<id>`, newest first).
  /** Every order. (gsi1) */
  orders: { index: 'gsi1', partition: 'ORDERS' },
  /** The orders whose NEXT step is this one. (gsi2) */
  ordersAt: (stage: OrderStage) => ({ index: 'gsi2', partition: `ORDERS#STAGE#${stage}` }) as const,
  /** Every commission. (gsi1) */
  commissions: { index: 'gsi1', partition: 'COMMISSIONS' },
  /** In processing (to_stripe), or in the member's Stripe balance and not paid (to_be_paid). (gsi2) */
  commissionsAt: (stage: CommissionStage) => ({ index: 'gsi2', partition: `COMMISSIONS#STAGE#${stage}` }) as const,
  /** A member's own commissions. (gsi3) */
  commissionsOf: (memberId: string) => ({ index: 'gsi3', partition: `COMMISSIONS#USER#${memberId}` }) as const,
  /** The order with an order number ('RP-7F3K9Q2M'): a partition of one. (gsi3 on orders) */
  orderNumbered: (orderID: string) => ({ index: 'gsi3', partition: `ORDERS#NUMBER#${orderID}` }) as const,
  /** A product's orders. (gsi4) */
  ordersOfProduct: (productId: string) => ({ index: 'gsi4', partition: `ORDERS#PRODUCT#${productId}` }) as const,
  /** Commissions held at their sale for an admin's review (orders/abuse.ts), until decided. (gsi4) */
  commissionsHeld: { index: 'gsi4', partition: 'COMMISSIONS#HELD' },
  /** Members by total commissions, read descending. (gsi1, sk = 15-digit cents + '#' + memberId) */
  topEarners: { index: 'gsi1', partition: 'TOP_EARNERS' },
  /**
   * Members who owe the platform after clawbacks: their `OWED` item while `owedCents` is above 0
   * (a clawback puts it in, the payout that nets the last cent takes it out). (gsi1, sk = memberId)
   */
  memberDebts: { index: 'gsi1', partition: 'DEBTS' },
  /** Every discount code, newest first. (gsi1) */
  discountCodes: { index: 'gsi1', partition: 'DISCOUNT_CODES' },
  /**
   * Every discount code with its paid sales, by code: the code item (sort key `<CODE>`) followed by
   * its sales (`<CODE>#SALE#<time>#<order>`), so the admin's list is one Query (decision 0461). (gsi2)
   */
  discountCodesWithSales: { index: 'gsi2', partition: 'DISCOUNT_CODES#WITH_SALES' },
  /** A member's own discount codes, newest first. (gsi3) */
  discountCodesOf: (memberId: string) => ({ index: 'gsi3', partition: `DISCOUNT_CODES#USER#${memberId}` }) as const,
} as const;

export type OrderStage = 'not_ordered' | 'not_shipped' | 'not_fulfilled';
export type CommissionStage = 'to_stripe' | 'to_be_paid';

/** The order list (gsi2) an order is in: the one of its NEXT step; none once fulfilled. */
export function orderStageOf(status: OrderStatus): OrderStage | null {
  return ORDER_STAGE[status];
}
const ORDER_STAGE: Record<OrderStatus, OrderStage | null> = {
  not_ordered: 'not_ordered',
  ordered: 'not_shipped',
  shipped: 'not_fulfilled',
  fulfilled: null,
};

/** The commission list (gsi2) a commission is in: to Stripe while in processing, to be paid while in Stripe. */
export function commissionStageOf(status: CommissionStatus): CommissionStage | null {
  if (status === 'in_stripe') return 'to_be_paid';
  return status === 'order_open' || status === 'processing' || status === 'review' ? 'to_stripe' : null;
}

/**
 * Stage partitions written with a misspelled name before; `upgradeSalesItems`
 * (functions/src/adapters/dynamo-sales-upgrade.ts) moves their items to the right one on start.
 */
export const LEGACY_STAGE_PARTITIONS = {
  'ORDERS#STAGE#not_fufilled': 'ORDERS#STAGE#not_fulfilled',
  'COMMISSIONS#STAGE#to_be_payed': 'COMMISSIONS#STAGE#to_be_paid',
} as const;

/** The top earners' sort key: the total zero-padded to 15 digits, so string order is numeric order. */
export const topEarnerSortKey = (totalCents: number, memberId: string): string =>
  `${String(totalCents).padStart(15, '0')}#${memberId}`;
