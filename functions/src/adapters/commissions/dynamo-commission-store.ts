import { AVAILABLE_PREFIX, COUNTER_PARTITIONS, earningsShardMember, keys, lists } from '@portal/shared/db/table';
import { commissionState, presentedStatus } from '@portal/shared/domain/sales-status';
import type { CommissionCounts, CommissionSearch, CommissionStore } from '../../commissions/commission-store';
import type { CommissionRecord, Page } from '../../orders/sales-store';
import { memberByEmail } from '../dynamo-user-items';
import { batchGetAll, counterSums, queryList } from '../dynamo-client';
import { earnings, num, refreshRank, toEarnings } from '../dynamo-earnings';
import { toCommissionRecord } from '../dynamo-sales-items';

/**
 * The commission lists, their counters and the members' earnings (commissions/commission-store.ts):
 * index reads of the one table (docs/architecture.md#data-one-dynamodb-table).
 */

/** The statuses of commissions in the To Stripe stage list (commissionStageOf). */
const TO_STRIPE_STATUSES: ReadonlySet<string> = new Set([
  'processing',
  'waiting_for_fulfilment',
  'on_hold',
  'available',
  'review',
]);

/** The commissions a search finds: a member's partition, or the stage list that holds the status (others: all, filtered). */
async function searchCommissions(
  search: CommissionSearch,
  cursor: string | undefined,
  limit: number,
): Promise<Page<CommissionRecord>> {
  const status = search.status;
  // The list that holds the status: the To Stripe stage (not sent yet, held for review), the To be
  // paid stage (in Stripe), or every commission (paid and the side exits).
  const source =
    search.memberId !== undefined
      ? lists.commissionsOf(search.memberId)
      : status !== undefined && TO_STRIPE_STATUSES.has(status)
        ? lists.commissionsAt('to_stripe')
        : status === 'in_stripe'
          ? lists.commissionsAt('to_be_paid')
          : lists.commissions;
  const found = await queryList(source, cursor, limit, 'COMMISSION#');
  const items = found.items.map((item) => toCommissionRecord<CommissionRecord>(item));
  const matches = (item: CommissionRecord) =>
    status === 'processing'
      ? commissionState(item.status) === 'processing'
      : presentedStatus(item.status, item.availableAt, search.now) === status;
  return {
    items: status === undefined ? items : items.filter(matches),
    nextCursor: found.nextCursor,
  };
}

export const dynamoCommissionStore: CommissionStore = {
  searchCommissions,
  memberByEmail,

  async commissionsPage(list, cursor, limit, now) {
    const source =
      list === 'all'
        ? lists.commissions
        : typeof list === 'string'
          ? lists.commissionsAt(list)
          : lists.commissionsOf(list.memberId);
    // To Stripe: only what can be sent at `now` (fulfilled and past its hold), one key range.
    const range =
      list === 'to_stripe' && now !== undefined
        ? { from: AVAILABLE_PREFIX, to: `${AVAILABLE_PREFIX}${new Date(now).toISOString()}#\uffff` }
        : undefined;
    const page = await queryList(source, cursor, limit, 'COMMISSION#', range);
    return { items: page.items.map((item) => toCommissionRecord(item)), nextCursor: page.nextCursor };
  },

  async commissionCounts(): Promise<CommissionCounts> {
    const sums = await counterSums(COUNTER_PARTITIONS.commissions);
    return {
      count: num(sums.count),
      totalCents: num(sums.totalCents),
      paidCents: num(sums.paidCents),
      processingCents: num(sums.processingCents),
      toStripeCount: num(sums.toStripeCount),
      toStripeCents: num(sums.toStripeCents),
      toBePaidCount: num(sums.toBePaidCount),
      toBePaidCents: num(sums.toBePaidCents),
    };
  },

  earnings,
  refreshPlace: refreshRank,
  earningsShardMember,

  async topEarners(cursor, limit) {
    const page = await queryList(lists.topEarners, cursor, limit, 'USER#');
    return { items: page.items.map(toEarnings), nextCursor: page.nextCursor };
  },

  async members(ids) {
    const unique = [...new Set(ids)];
    const found = new Map<string, { id: string; email: string; hasPayoutAccount: boolean; hasDebitCard: boolean }>();
    if (unique.length === 0) return found;
    const items = await batchGetAll(
      unique.map((id) => ({ ...keys.user(id) })),
      {
        expression: '#id, #email, stripeID, isPayoutMethodAdded',
        names: { '#id': 'id', '#email': 'email' },
      },
    );
    for (const item of items) {
      const id = String(item.id);
      found.set(id, {
        id,
        email: String(item.email ?? ''),
        hasPayoutAccount: typeof item.stripeID === 'string' && item.stripeID !== '',
        hasDebitCard: item.isPayoutMethodAdded === 1,
      });
    }
    return found;
  },
};
