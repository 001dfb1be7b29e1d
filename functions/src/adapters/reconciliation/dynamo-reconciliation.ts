import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { commissionStatusOf } from '@portal/shared/domain/sales-status';
import { CLAWBACK_PREFIX, keys, lists } from '@portal/shared/db/table';
import type {
  LedgerBatch,
  LedgerCommission,
  LedgerMember,
  LedgerOrder,
  LedgerRecords,
} from '../../reconciliation/records';
import { db, queryAll, tableName } from '../dynamo-client';

/**
 * Reconciliation's reads of our ledger (reconciliation/reconcile.ts): the orders of a period as one
 * key range of the orders list (gsi1 `ORDERS`, sort key `<createdAt>#<id>`), everything else by
 * its key. No scan, no write.
 */

const read = async (key: { pk: string; sk: string }) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const cents = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

const idsOf = (value: unknown): string[] =>
  value instanceof Set ? [...(value as Set<string>)].sort() : Array.isArray(value) ? value.map(String) : [];

function toOrder(item: Record<string, unknown>): LedgerOrder {
  // A refund that failed at Stripe after it was applied is no longer applied (refunds.ts onRefundUpdated).
  const failed = new Set(idsOf(item.failedRefundIds));
  return {
    id: String(item.id),
    orderID: String(item.orderID ?? item.id),
    totalCents: cents(item.totalCents),
    paymentIntentId: text(item.paymentIntentId),
    chargeId: text(item.chargeId),
    refundedCents: cents(item.refundedCents),
    refundIds: idsOf(item.refundIds).filter((id) => !failed.has(id)),
    commissionId: text(item.commissionId),
    memberId: text(item.memberId),
    createdAt: String(item.createdAt ?? ''),
  };
}

function toCommission(item: Record<string, unknown>): LedgerCommission {
  return {
    id: String(item.id),
    orderId: String(item.orderId ?? ''),
    orderID: String(item.orderID ?? ''),
    memberId: String(item.memberId ?? ''),
    status: commissionStatusOf(item),
    amountCents: cents(item.amountCents),
    transferId: text(item.transferId),
    payoutId: text(item.payoutId),
    nettedCents: cents(item.nettedCents),
    batchId: text(item.batchId),
    settledBatchId: text(item.settledBatchId),
  };
}

export const dynamoReconciliation: LedgerRecords = {
  async ordersCreated(fromIso, toIso) {
    const list = lists.orders;
    const items = await queryAll({
      IndexName: list.index,
      // `<createdAt>#<id>`: every order created at or after `fromIso` sorts at or after it, and
      // every one created before `toIso` sorts before it.
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': list.partition, ':from': fromIso, ':to': toIso },
    });
    return items.map(toOrder);
  },

  async orderOfPayment(paymentIntentId) {
    const claim = await read(keys.paymentClaim(paymentIntentId));
    return typeof claim?.orderId === 'string' ? this.order(claim.orderId) : undefined;
  },

  async order(id) {
    const item = await read(keys.order(id));
    return item ? toOrder(item) : undefined;
  },

  async commission(id) {
    const item = await read(keys.commission(id));
    return item ? toCommission(item) : undefined;
  },

  async batch(batchId, memberId): Promise<LedgerBatch | undefined> {
    const item = await read(keys.payoutBatch(batchId, memberId));
    if (!item) return undefined;
    return {
      batchId,
      memberId,
      state: String(item.state ?? ''),
      transfers: Array.isArray(item.transfers)
        ? (item.transfers as Record<string, unknown>[]).flatMap((part) => {
            const id = text(part.id);
            return id ? [{ id, amountCents: cents(part.amountCents) }] : [];
          })
        : text(item.transferId)
          ? [{ id: text(item.transferId)!, amountCents: cents(item.transferCents) }]
          : [],
      topUpTransferId: text(item.topUpTransferId),
      topUpCents: cents(item.topUpCents),
      feeBackTransferId: text(item.feeBackTransferId),
      feeBackCents: cents(item.feeBackCents),
      payoutId: text(item.payoutId),
      payoutCents: cents(item.payoutCents),
    };
  },

  async member(id): Promise<LedgerMember | undefined> {
    const item = (
      await db().send(
        new GetCommand({
          TableName: tableName(),
          Key: keys.user(id),
          ProjectionExpression: 'first_name, last_name, display_name, email, stripeID',
        }),
      )
    ).Item;
    if (!item) return undefined;
    const full = [text(item.first_name), text(item.last_name)].filter(Boolean).join(' ');
    return {
      id,
      name: full || text(item.display_name) || text(item.email) || id,
      stripeID: text(item.stripeID),
    };
  },

  async clawedBack(memberId) {
    const byCommission = new Map<string, number>();
    const items = await queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.user(memberId).pk, ':prefix': CLAWBACK_PREFIX },
      ProjectionExpression: 'commissionId, amountCents',
    });
    for (const item of items) {
      const id = text(item.commissionId);
      if (id) byCommission.set(id, (byCommission.get(id) ?? 0) + cents(item.amountCents));
    }
    return byCommission;
  },
};
