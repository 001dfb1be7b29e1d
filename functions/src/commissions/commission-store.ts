import type { CommissionStatusFilter } from '@portal/shared/api/sales';
import type { CommissionRecord, Earnings, Page, SalesStore } from '../orders/sales-store';

export type { Earnings };

/**
 * The commissions' lists, totals and earnings as the commission reads need them (one table; the
 * layout is in docs/architecture.md#data-one-dynamodb-table). A commission is written by its sale
 * (orders/record-sale.ts), so its record is the sale's (orders/sales-store.ts); money is integer cents.
 */

export interface CommissionCounts {
  count: number;
  totalCents: number;
  paidCents: number;
  processingCents: number;
  toStripeCount: number;
  toStripeCents: number;
  toBePaidCount: number;
  toBePaidCents: number;
}

/** A search of all commissions: a member's (their index partition) and/or one state. */
export interface CommissionSearch {
  memberId?: string;
  /** A presented status (on hold, available, cancelled, …), or 'processing': every status not in Stripe nor paid. */
  status?: CommissionStatusFilter;
  /** The time 'on hold' and 'available' are decided at (epoch ms). */
  now: number;
}
export type CommissionListName = 'all' | 'to_stripe' | 'to_be_paid' | { memberId: string };

/** What the commission reads need to know of a member (never the password hash). */
export interface MemberFacts {
  id: string;
  email: string;
  hasPayoutAccount: boolean;
  hasDebitCard: boolean;
}

export interface CommissionStore extends Pick<SalesStore, 'memberByEmail'> {
  /** A page of the commissions a search finds, newest first (CommissionSearch). */
  searchCommissions(
    search: CommissionSearch,
    cursor: string | undefined,
    limit: number,
  ): Promise<Page<CommissionRecord>>;
  /** `now` (epoch ms): the To Stripe list holds only what can be sent at that time. */
  commissionsPage(
    list: CommissionListName,
    cursor: string | undefined,
    limit: number,
    now?: number,
  ): Promise<Page<CommissionRecord>>;
  commissionCounts(): Promise<CommissionCounts>;
  earnings(memberId: string): Promise<Earnings | undefined>;
  topEarners(cursor: string | undefined, limit: number): Promise<Page<Earnings>>;
  /**
   * Writes the member's top-earners place from the sum of their earnings shards, unless a newer
   * one is written already (idempotent: the same sums write nothing new).
   */
  refreshPlace(memberId: string): Promise<void>;
  /** The member whose earnings shard a stream record's keys name; undefined for any other item. */
  earningsShardMember(key: { pk?: string; sk?: string }): string | undefined;
  /** The members' facts, in one BatchGet (up to 100 ids). */
  members(ids: readonly string[]): Promise<Map<string, MemberFacts>>;
}
