import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { commissionMove, updateExpression } from '@portal/shared/db/sales-status';
import { availableSortKey, keys, lists, shardOf } from '@portal/shared/db/table';
import type { ReviewStore } from '../../commissions/review';
import type { CommissionRecord } from '../../orders/sales-store';
import {
  db,
  decodeCursor,
  encodeCursor,
  isConditionFailed,
  tableName,
  transact,
  type TransactItems,
} from '../dynamo-client';
import { toCommissionRecord } from '../dynamo-sales-items';

/**
 * The admin's decision on a commission held at its sale (commissions/review.ts), on the table:
 * conditional on the status, the hold's kind and the amount read, and on no payout batch holding it.
 */

/** Held at its sale from a status still in the To Stripe stage: the only holds decided here. */
const heldFromOf = (commission: CommissionRecord): 'order_open' | 'processing' | undefined =>
  commission.heldFrom === 'order_open' || commission.heldFrom === 'processing' ? commission.heldFrom : undefined;

const held = (commission: CommissionRecord) => ({
  condition: 'heldFor = :heldFor AND heldFrom = :heldFrom AND amountCents = :amount AND attribute_not_exists(batchId)',
  values: { ':heldFor': commission.heldFor, ':heldFrom': commission.heldFrom, ':amount': commission.amountCents },
});

export const dynamoCommissionReview: ReviewStore = {
  async heldPage(cursor, limit) {
    const list = lists.commissionsHeld;
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: list.index,
        KeyConditionExpression: 'gsi4pk = :partition',
        // A held one a refund ended keeps its place until here: only those still held are shown.
        FilterExpression: '#status = :review',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':partition': list.partition, ':review': 'review' },
        ScanIndexForward: false,
        Limit: limit,
        ExclusiveStartKey: decodeCursor(cursor, {
          attributes: ['pk', 'sk', 'gsi4pk', 'gsi4sk'],
          equals: { gsi4pk: list.partition },
          startsWith: { pk: 'COMMISSION#' },
        }),
      }),
    );
    return {
      items: (page.Items ?? []).map((item) => toCommissionRecord(item)),
      nextCursor: encodeCursor(page.LastEvaluatedKey),
    };
  },

  async getCommission(id) {
    const item = (
      await db().send(new GetCommand({ TableName: tableName(), Key: keys.commission(id), ConsistentRead: true }))
    ).Item;
    return item?.entity === 'commission' ? toCommissionRecord(item) : undefined;
  },

  async release(commission, reason, now) {
    const to = heldFromOf(commission);
    if (!to) return false;
    const move = commissionMove('review', to);
    const fulfilled = to === 'processing';
    const guard = held(commission);
    try {
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.commission(commission.id),
          // Fulfilled while held: back in the To Stripe list at the end of its hold.
          UpdateExpression: updateExpression(
            move,
            ['statusReason = :reason', 'updatedAt = :now', ...(fulfilled ? ['gsi2sk = :sort'] : [])],
            ['heldFrom', 'heldFor', 'gsi4pk', 'gsi4sk'],
          ),
          ConditionExpression: `${move.condition} AND ${guard.condition}`,
          ExpressionAttributeNames: move.names,
          ExpressionAttributeValues: {
            ...move.values,
            ...guard.values,
            ':reason': reason,
            ':now': now,
            ...(fulfilled
              ? { ':sort': availableSortKey(commission.availableAt ?? Date.parse(now), commission.id) }
              : {}),
          },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailed(error)) return false;
      throw error;
    }
  },

  async cancel(commission, reason, now) {
    if (!heldFromOf(commission)) return false;
    const move = commissionMove('review', 'cancelled');
    const guard = held(commission);
    const amount = commission.amountCents;
    const shard = shardOf(commission.id);
    const items: TransactItems = [
      {
        Update: {
          TableName: tableName(),
          Key: keys.commission(commission.id),
          // Out of the To Stripe list; its amount kept as what it was before.
          UpdateExpression: updateExpression(
            move,
            [
              'amountCents = :zero',
              'originalCents = if_not_exists(originalCents, :amount)',
              'statusReason = :reason',
              'updatedAt = :now',
            ],
            ['heldFrom', 'heldFor', 'gsi2pk', 'gsi2sk', 'gsi4pk', 'gsi4sk'],
          ),
          ConditionExpression: `${move.condition} AND ${guard.condition}`,
          ExpressionAttributeNames: move.names,
          ExpressionAttributeValues: { ...move.values, ...guard.values, ':zero': 0, ':reason': reason, ':now': now },
        },
      },
      {
        // Its cents leave the totals and the To Stripe figures; it stays counted, as a refunded one does.
        Update: {
          TableName: tableName(),
          Key: keys.commissionsCounterShard(shard),
          UpdateExpression:
            'ADD totalCents :minus, processingCents :minus, toStripeCents :minus, toStripeCount :minusOne',
          ExpressionAttributeValues: { ':minus': -amount, ':minusOne': -1 },
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: keys.earningsShard(commission.memberId, shard),
          // `rankMoves`: the member's total went down, so their top-earners place is written again
          // (dynamo-earnings.ts refreshRank: a place moves only when count + rankMoves grows).
          UpdateExpression: 'ADD totalCents :minus, processingCents :minus, rankMoves :one',
          ExpressionAttributeValues: { ':minus': -amount, ':one': 1 },
        },
      },
    ];
    return (await transact(items)).ok;
  },
};
