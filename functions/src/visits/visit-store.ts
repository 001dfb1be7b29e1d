/**
 * The link statistics' store (issue 39, docs/link-statistics.md): the day's salt, one item per
 * counted visit (visitor + link + hour, no address or user agent), and the counts by day in
 * sharded items of three series (every link, a product's, a member's with each product).
 */

/** What one event adds to a day's counts. */
export interface Counts {
  visits: number;
  checkouts: number;
  sales: number;
  salesCents: number;
  earningsCents: number;
  /** Sales that came through a counted visit. */
  paid: number;
}

export const COUNT_NAMES: readonly (keyof Counts)[] = [
  'visits',
  'checkouts',
  'sales',
  'salesCents',
  'earningsCents',
  'paid',
];

export interface VisitRecord {
  visitId: string;
  productId: string;
  /** The member whose share code the link carries; null for a link without a known code. */
  memberId: string | null;
  /** UTC `YYYY-MM-DDTHH`. */
  hour: string;
  /** Epoch seconds: the item goes after it (the checkout can name the visit until then). */
  expiresAt: number;
}

/** Where a day's counts go: the product, and the member when the link names one. */
export interface CountTarget {
  day: string;
  productId: string;
  memberId: string | null;
}

/** One stored shard's counts as read back: a day, the product when the item is a product's. */
export interface CountRow {
  day: string;
  productId?: string;
  counts: Partial<Counts>;
}

export type SeriesAsk = { kind: 'all' } | { kind: 'product'; productId: string } | { kind: 'member'; memberId: string };

export interface VisitStore {
  /**
   * The day's salt: `candidate` is stored when the day has none yet (a conditional put), else the
   * stored one is answered; both expire with `expiresAt` (epoch seconds).
   */
  saltOf(day: string, candidate: Buffer, expiresAt: number): Promise<Buffer>;
  memberOfShareCode(code: string): Promise<string | undefined>;
  /** Puts the visit unless its id is stored: true when this call put it (the visit is new). */
  putVisit(visit: VisitRecord): Promise<boolean>;
  getVisit(visitId: string): Promise<VisitRecord | undefined>;
  /** Marks the visit's checkout as started, once: true when this call marked it. */
  markCheckout(visitId: string, atIso: string): Promise<boolean>;
  /** ADDs to one shard of each series the target is in (not in one transaction: a visit's counts). */
  add(target: CountTarget, counts: Partial<Counts>, expiresAt: number): Promise<void>;
  /**
   * ADDs a sale's counts and puts its marker in one transaction: false when the order was counted
   * before (nothing added).
   */
  addSaleOnce(orderId: string, target: CountTarget, counts: Partial<Counts>, expiresAt: number): Promise<boolean>;
  /** Every shard of a series between two days (inclusive). */
  read(series: SeriesAsk, fromDay: string, toDay: string): Promise<CountRow[]>;
  productNames(productIds: readonly string[]): Promise<Map<string, string>>;
  memberOfEmail(email: string): Promise<string | undefined>;
  /** A commission's amount as stored (what the sale earned its member), 0 when there is none. */
  commissionCents(commissionId: string): Promise<number>;
}
