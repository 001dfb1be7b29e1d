import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { commissionIs, commissionMove, updateExpression } from '@portal/shared/db/sales-status';
import { CLAWBACK_PREFIX, availableSortKey, keys, lists, orderStageOf, shardOf } from '@portal/shared/db/table';
import type { OrderFailedRefund, OrderRefund } from '../../orders/sales-store';
import type {
  Clawback,
  LedgerCommission,
  RefundApplication,
  RefundStore,
  RefundableOrder,
} from '../../commissions/refund-store';
import { db, isConditionFailed, tableName, transact } from '../dynamo-client';
import { toCommissionRecord, toOrderRecord } from '../dynamo-sales-items';
import { sortKey } from '../dynamo-earnings';

/**
 * Refunds and disputes on the table: the order's refunded total and applied refund ids, the
 * commission's amount and status, the commissions' counters and the member's earnings (the
 * commission's own shard of each), what the member owes and their clawback entries, in one
 * transaction per refund, conditional on what was read.
 */

type Items = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>;

async function read(key: { pk: string; sk: string }) {
  return (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;
}

async function updated(input: ConstructorParameters<typeof UpdateCommand>[0]): Promise<boolean> {
  try {
    await db().send(new UpdateCommand(input));
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
}

/** A transaction: false when any condition failed (the caller reads again), retried on a conflict. */
async function transaction(items: Items): Promise<boolean> {
  return (await transact(items)).ok;
}

/** The refunded total as read: `refundedCents = :seen`, or absent when nothing was refunded. */
const refundedIs = (seen: number | undefined) =>
  seen ? 'refundedCents = :seenRefunded' : 'attribute_not_exists(refundedCents)';

/** Counter and earnings deltas of taking `taken` cents from a commission whose money is at `base`. */
function deltas(application: NonNullable<RefundApplication['commission']>) {
  const { base, takenCents: taken, status, record } = application;
  const exits = status !== record.status && status !== base && status !== 'review';
  // A commission a failed refund brings back from cancelled (decision 0340): into its list again.
  const enters = record.status === 'cancelled' && status === base;
  const counters: Record<string, number> = { totalCents: -taken };
  // `rankMoves`: the places function refreshes the member's top-earners place from it (dynamo-earnings.ts refreshRank).
  const earnings: Record<string, number> = { totalCents: -taken, rankMoves: 1 };
  if (base === 'paid') {
    counters.paidCents = -taken;
    earnings.paidCents = -taken;
  } else {
    counters.processingCents = -taken;
    earnings.processingCents = -taken;
    if (base === 'in_stripe') {
      counters.toBePaidCents = -taken;
      if (exits) counters.toBePaidCount = -1;
    } else {
      counters.toStripeCents = -taken;
      if (exits) counters.toStripeCount = -1;
      if (enters) counters.toStripeCount = 1;
    }
  }
  return { counters, earnings, exits, enters };
}

const addExpression = (values: Record<string, number>) => ({
  UpdateExpression: `ADD ${Object.keys(values)
    .map((name) => `${name} :${name}`)
    .join(', ')}`,
  ExpressionAttributeValues: Object.fromEntries(Object.entries(values).map(([name, value]) => [`:${name}`, value])),
});

function commissionUpdate(application: RefundApplication, refundId: string): Items[number] {
  const change = application.commission!;
  const { record, status, reason, takenCents, base } = change;
  const { exits, enters } = deltas(change);
  const set = [
    'amountCents = :newAmount',
    'originalCents = if_not_exists(originalCents, :oldAmount)',
    'statusReason = :reason',
    'updatedAt = :now',
  ];
  const remove: string[] = [];
  if (exits) remove.push('gsi2pk', 'gsi2sk');
  if (record.status === 'review' && status !== 'review') remove.push('heldFrom', 'disputeId');
  if (base === 'in_stripe' && takenCents > 0) remove.push('reversalPending');
  const values: Record<string, unknown> = {
    ':newAmount': record.amountCents - takenCents,
    ':oldAmount': record.amountCents,
    ':reason': reason,
    ':now': application.now,
  };
  // Never under a payout batch's feet: the batch's claim carries the amount it read (commissions/batches.ts).
  const conditions = ['amountCents = :oldAmount', 'attribute_not_exists(batchId)'];
  if (base === 'in_stripe' && takenCents > 0) {
    conditions.push('reversalPending.refundId = :refundId');
    values[':refundId'] = refundId;
  }
  if ((base === 'processing' || base === 'order_open') && takenCents > 0) {
    conditions.push('attribute_not_exists(transferPendingAt)');
  }
  if (status !== record.status) {
    // Released from review back to where it was (a lost dispute's partial share): its place in the lists again.
    if (record.status === 'review' && status === 'processing' && record.availableAt !== undefined) {
      set.push('gsi2sk = :availableSort');
      values[':availableSort'] = availableSortKey(record.availableAt, record.id);
    }
    // Back from cancelled: in the To Stripe list again, where its status sorts it (as a sale and a fulfilment put it).
    if (enters) {
      set.push('gsi2pk = :toStripe', 'gsi2sk = :listSort');
      values[':toStripe'] = lists.commissionsAt('to_stripe').partition;
      values[':listSort'] =
        status === 'processing' && record.availableAt !== undefined
          ? availableSortKey(record.availableAt, record.id)
          : sortKey(record.createdAt, record.id);
    }
    const move = commissionMove(record.status, status);
    return {
      Update: {
        TableName: tableName(),
        Key: keys.commission(record.id),
        UpdateExpression: updateExpression(move, set, remove),
        ConditionExpression: `${move.condition} AND ${conditions.join(' AND ')}`,
        ExpressionAttributeNames: move.names,
        ExpressionAttributeValues: { ...move.values, ...values },
      },
    };
  }
  const is = commissionIs(record.status);
  return {
    Update: {
      TableName: tableName(),
      Key: keys.commission(record.id),
      UpdateExpression: `SET ${set.join(', ')}${remove.length ? ` REMOVE ${remove.join(', ')}` : ''}`,
      ConditionExpression: `${is.condition} AND ${conditions.join(' AND ')}`,
      ExpressionAttributeNames: is.names,
      ExpressionAttributeValues: { ...is.values, ...values },
    },
  };
}

/** The order counter of each work list (dynamo-sales.ts moves the same ones as it marks). */
const ORDER_COUNTER_OF = {
  not_ordered: 'notOrdered',
  not_shipped: 'notShipped',
  not_fulfilled: 'notFulfilled',
} as const;

export const dynamoRefunds: RefundStore = {
  async getOrder(id) {
    const item = await read(keys.order(id));
    return item ? toOrderRecord(item) : undefined;
  },

  async orderOfPayment(paymentIntentId) {
    const claim = await read(keys.paymentClaim(paymentIntentId));
    return typeof claim?.orderId === 'string' ? this.getOrder(claim.orderId) : undefined;
  },

  async getCommission(id) {
    const item = await read(keys.commission(id));
    return item?.entity === 'commission' ? toCommissionRecord<LedgerCommission>(item) : undefined;
  },

  reserveRefund(order: RefundableOrder, pending) {
    const seq = order.refundSeq ?? 0;
    return updated({
      TableName: tableName(),
      Key: keys.order(order.id),
      UpdateExpression: 'SET refundPending = :pending, refundSeq = :next',
      ConditionExpression: `attribute_exists(pk) AND attribute_not_exists(refundPending) AND ${
        seq === 0 ? 'attribute_not_exists(refundSeq)' : 'refundSeq = :seq'
      } AND ${refundedIs(order.refundedCents)}`,
      ExpressionAttributeValues: {
        ':pending': pending,
        ':next': seq + 1,
        ...(seq === 0 ? {} : { ':seq': seq }),
        ...(order.refundedCents ? { ':seenRefunded': order.refundedCents } : {}),
      },
    });
  },

  releaseRefund(orderId, seq) {
    return updated({
      TableName: tableName(),
      Key: keys.order(orderId),
      UpdateExpression: 'REMOVE refundPending',
      ConditionExpression: 'refundPending.seq = :seq',
      ExpressionAttributeValues: { ':seq': seq },
    });
  },

  clearRefundPending(orderId, seq) {
    return this.releaseRefund(orderId, seq);
  },

  reserveReversal(commission, refundId, amountCents) {
    const is = commissionIs('in_stripe');
    return updated({
      TableName: tableName(),
      Key: keys.commission(commission.id),
      UpdateExpression: 'SET reversalPending = :pending',
      ConditionExpression: `${is.condition} AND amountCents = :amount AND attribute_not_exists(reversalPending) AND attribute_not_exists(payoutPendingAt) AND attribute_not_exists(batchId)`,
      ExpressionAttributeNames: is.names,
      ExpressionAttributeValues: {
        ...is.values,
        ':pending': { refundId, amountCents },
        ':amount': commission.amountCents,
      },
    });
  },

  async apply(application) {
    const { order, refundId } = application;
    const entry: OrderRefund = {
      id: refundId,
      amountCents: application.newRefundedCents - (order.refundedCents ?? 0),
      at: application.now,
      kind: application.kind,
    };
    const orderValues: Record<string, unknown> = {
      ':refunded': application.newRefundedCents,
      ':ids': new Set([refundId]),
      ':id': refundId,
      ':now': application.now,
      ':entry': [entry],
      ':none': [],
      ...(order.refundedCents ? { ':seenRefunded': order.refundedCents } : {}),
    };
    const failed = application.failed;
    let orderCondition = failed
      ? `attribute_exists(pk) AND contains(refundIds, :id) AND (attribute_not_exists(failedRefundIds) OR NOT contains(failedRefundIds, :id)) AND ${refundedIs(order.refundedCents)}`
      : `attribute_exists(pk) AND (attribute_not_exists(refundIds) OR NOT contains(refundIds, :id)) AND ${refundedIs(order.refundedCents)}`;
    if (application.clearsPendingSeq !== undefined) {
      orderCondition += ' AND refundPending.seq = :seq';
      orderValues[':seq'] = application.clearsPendingSeq;
    }
    // A pending refund is listed as pending (ids and sum) until refund.updated says it went out.
    let pendingPart = '';
    if (application.pendingCents) {
      pendingPart = ', pendingRefundIds :ids, pendingRefundCents :pendingCents';
      orderValues[':pendingCents'] = application.pendingCents;
    }
    let pendingRemoval = '';
    if (failed?.wasPendingCents) {
      pendingPart = ', pendingRefundCents :pendingCents';
      orderValues[':pendingCents'] = -failed.wasPendingCents;
      pendingRemoval = ' DELETE pendingRefundIds :ids';
      orderCondition += ' AND contains(pendingRefundIds, :id)';
    }
    if (failed) {
      // A failed refund is no new entry of the order's refunds (its customer was told of it when it was made).
      delete orderValues[':entry'];
    }
    // Refunded in full (or a dispute lost): nothing is left to send, so the order leaves its work
    // list (its stage on gsi2) and that list's counter, in this transaction, on the stage as read.
    const stage = orderStageOf(order.status);
    const wasFull = (order.refundedCents ?? 0) >= order.totalCents;
    const leaves = !failed && application.newRefundedCents >= order.totalCents && !wasFull;
    // A refund that made the order refunded in full failed (decision 0340): what its recording
    // changed comes back in this transaction: the order in its work list again, and its counter.
    const returns = Boolean(failed) && wasFull && application.newRefundedCents < order.totalCents;
    const remove: string[] = [];
    let listPart = '';
    if (application.clearsPendingSeq !== undefined) remove.push('refundPending');
    if (leaves && stage) {
      remove.push('gsi2pk', 'gsi2sk');
      orderCondition += ' AND gsi2pk = :stage';
      orderValues[':stage'] = lists.ordersAt(stage).partition;
    }
    // The failed refund's entry leaves the order's refunds: the admin's card and the customer's page
    // list what was refunded, and it was not (the admins' mail says what happened).
    const failedEntry = failed ? (order.refunds ?? []).findIndex((entry) => entry.id === refundId) : -1;
    if (failedEntry >= 0) {
      remove.push(`refunds[${failedEntry}]`);
      orderCondition += ` AND refunds[${failedEntry}].id = :id`;
    }
    if (failed) {
      // What the admin's card says of it (decision 0340): appended under the condition that the
      // refund's failure is not recorded yet (`failedRefundIds`), so a redelivery adds nothing.
      const record: OrderFailedRefund = {
        id: refundId,
        amountCents: failed.amountCents,
        at: application.now,
        reason: failed.reason,
        backInList: returns && Boolean(stage),
      };
      listPart = ', failedRefunds = list_append(if_not_exists(failedRefunds, :none), :failedRecord)';
      orderValues[':failedRecord'] = [record];
    }
    if (returns && stage) {
      listPart += ', gsi2pk = :stage, gsi2sk = :stageSort';
      orderCondition += ' AND attribute_not_exists(gsi2pk)';
      orderValues[':stage'] = lists.ordersAt(stage).partition;
      orderValues[':stageSort'] = sortKey(order.createdAt, order.id);
    }
    const items: Items = [
      {
        Update: {
          TableName: tableName(),
          Key: keys.order(order.id),
          UpdateExpression: `SET refundedCents = :refunded, updatedAt = :now${listPart}${
            failed ? '' : ', refunds = list_append(if_not_exists(refunds, :none), :entry)'
          } ADD ${failed ? 'failedRefundIds' : 'refundIds'} :ids${pendingPart}${pendingRemoval}${
            remove.length ? ` REMOVE ${remove.join(', ')}` : ''
          }`,
          ConditionExpression: orderCondition,
          ExpressionAttributeValues: orderValues,
        },
      },
    ];
    // A sale with a member's discount code: its item in the code's list keeps the order's refunded
    // total, so the admin's list of codes reads no order (decision 0461). Written with the order in
    // the sale's transaction, so it is there.
    if (order.discountCode) {
      items.push({
        Update: {
          TableName: tableName(),
          Key: keys.discountCodeSale(order.discountCode, order.createdAt, order.id),
          UpdateExpression: 'SET refundedCents = :refunded',
          ExpressionAttributeValues: { ':refunded': application.newRefundedCents },
        },
      });
    }
    if ((leaves || returns) && stage) {
      items.push({
        Update: {
          TableName: tableName(),
          // The order's own shard, as its marks use (dynamo-sales.ts markOrder).
          Key: keys.ordersCounterShard(shardOf(order.id)),
          UpdateExpression: `ADD ${ORDER_COUNTER_OF[stage]} :step`,
          ExpressionAttributeValues: { ':step': leaves ? -1 : 1 },
        },
      });
    }
    const change = application.commission;
    if (change && (change.takenCents !== 0 || change.status !== change.record.status)) {
      const { record } = change;
      items.push(commissionUpdate(application, refundId));
      if (change.takenCents !== 0) {
        const { counters, earnings } = deltas(change);
        items.push(
          {
            Update: {
              TableName: tableName(),
              Key: keys.commissionsCounterShard(shardOf(record.id)),
              ...addExpression(counters),
            },
          },
          {
            Update: {
              TableName: tableName(),
              Key: keys.earningsShard(record.memberId, shardOf(record.id)),
              ...addExpression(earnings),
            },
          },
        );
      }
      if (change.clawback) {
        const entry: Clawback = {
          id: change.clawback.id,
          memberId: record.memberId,
          amountCents: change.takenCents,
          reason: change.reason,
          orderId: order.id,
          orderID: order.orderID,
          commissionId: record.id,
          refundId,
          createdAt: change.clawback.time,
        };
        items.push(
          {
            Update: {
              TableName: tableName(),
              Key: keys.memberOwed(record.memberId),
              // In the admin's list of debts (lists.memberDebts) until a payout nets the last cent.
              UpdateExpression:
                'SET entity = :entity, memberId = :member, gsi1pk = :debts, gsi1sk = :member ADD owedCents :owed',
              ExpressionAttributeValues: {
                ':entity': 'memberOwed',
                ':member': record.memberId,
                ':owed': change.takenCents,
                ':debts': lists.memberDebts.partition,
              },
            },
          },
          {
            Put: {
              TableName: tableName(),
              Item: {
                ...keys.clawback(record.memberId, change.clawback.time, change.clawback.id),
                entity: 'clawback',
                ...entry,
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        );
      }
    }
    // The member's place follows from the earnings shard this moves (its `rankMoves`), off the
    // refund's path: the table's stream runs the places function (decision 0481).
    return transaction(items);
  },

  recordDispute(orderId, dispute) {
    return updated({
      TableName: tableName(),
      Key: keys.order(orderId),
      UpdateExpression: 'SET dispute = :dispute',
      // An opening arriving after the same dispute's close (Stripe does not order events) changes nothing.
      ConditionExpression:
        dispute.status === 'open'
          ? 'attribute_exists(pk) AND (attribute_not_exists(dispute) OR dispute.id <> :id OR dispute.#status = :open)'
          : 'attribute_exists(pk)',
      ...(dispute.status === 'open' ? { ExpressionAttributeNames: { '#status': 'status' } } : {}),
      ExpressionAttributeValues: {
        ':dispute': dispute,
        ...(dispute.status === 'open' ? { ':id': dispute.id, ':open': 'open' } : {}),
      },
    });
  },

  settlePendingRefund(orderId, refundId, amountCents) {
    return updated({
      TableName: tableName(),
      Key: keys.order(orderId),
      UpdateExpression: 'DELETE pendingRefundIds :ids ADD pendingRefundCents :minus',
      ConditionExpression: 'contains(pendingRefundIds, :id)',
      ExpressionAttributeValues: { ':ids': new Set([refundId]), ':id': refundId, ':minus': -amountCents },
    });
  },

  holdForReview(commission, reason, disputeId, now) {
    const from = commission.status;
    const move = commissionMove(from, 'review');
    return updated({
      TableName: tableName(),
      Key: keys.commission(commission.id),
      // Out of the To Stripe range while held (its sort key leaves the AVAILABLE# range).
      UpdateExpression: updateExpression(
        move,
        [
          'heldFrom = :from',
          'statusReason = :reason',
          'disputeId = :dispute',
          'updatedAt = :now',
          ...(from === 'processing' ? ['gsi2sk = :held'] : []),
        ],
        [],
      ),
      ConditionExpression: `${move.condition} AND amountCents = :amount`,
      ExpressionAttributeNames: move.names,
      ExpressionAttributeValues: {
        ...move.values,
        ':from': from,
        ':reason': reason,
        ':dispute': disputeId,
        ':now': now,
        ':amount': commission.amountCents,
        ...(from === 'processing' ? { ':held': `HELD#${commission.createdAt}#${commission.id}` } : {}),
      },
    });
  },

  release(commission, disputeId, reason, now) {
    const to = commission.heldFrom ?? 'processing';
    const move = commissionMove('review', to);
    const backInList = to === 'processing';
    return updated({
      TableName: tableName(),
      Key: keys.commission(commission.id),
      UpdateExpression: updateExpression(
        move,
        ['statusReason = :reason', 'updatedAt = :now', ...(backInList ? ['gsi2sk = :sort'] : [])],
        ['heldFrom', 'disputeId'],
      ),
      ConditionExpression: `${move.condition} AND disputeId = :dispute`,
      ExpressionAttributeNames: move.names,
      ExpressionAttributeValues: {
        ...move.values,
        ':reason': reason,
        ':now': now,
        ':dispute': disputeId,
        ...(backInList
          ? { ':sort': availableSortKey(commission.availableAt ?? Date.parse(commission.createdAt), commission.id) }
          : {}),
      },
    });
  },

  async clawbacks(memberId) {
    const [page, owed] = await Promise.all([
      db().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': `USER#${memberId}`, ':prefix': CLAWBACK_PREFIX },
          ScanIndexForward: false,
          Limit: 100,
        }),
      ),
      read(keys.memberOwed(memberId)),
    ]);
    const items = (page.Items ?? []).map((item) => {
      const { pk: _pk, sk: _sk, entity: _entity, ...entry } = item;
      return entry as Clawback;
    });
    return { items, owedCents: typeof owed?.owedCents === 'number' ? owed.owedCents : 0 };
  },
};
