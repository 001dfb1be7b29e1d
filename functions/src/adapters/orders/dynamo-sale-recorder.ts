import { randomInt } from 'node:crypto';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { COUNTER_SHARDS, codeSaleListKey, commissionStageOf, keys, lists, orderStageOf } from '@portal/shared/db/table';
import type { CommissionRecord, MemberNames, OrderRecord, RecordOutcome, SalesStore } from '../../orders/sales-store';
import { toCommissionRecord, toOrderRecord } from '../dynamo-sales-items';
import { sortKey } from '../dynamo-earnings';
import { backoff, conditionFailedAt, db, isTransactionConflict, tableName } from '../dynamo-client';

/**
 * Recording a sale (the SalesStore's writing half the webhook and confirmCheckout need), apart
 * from the lists and marks so that the Stripe-carrying functions bundle no more than this.
 */

/**
 * How many times a sale's transaction is tried when another transaction wrote one of its items at
 * the same moment: with the counters and earnings sharded, only a sale that drew the same shard
 * (and then draws another) or the same payment's other report.
 */
const MAX_SALE_TRIES = 12;

export { strip, toCommissionRecord, toOrderRecord } from '../dynamo-sales-items';
export { num } from '../dynamo-earnings';

export async function get(key: { pk: string; sk: string }): Promise<Record<string, unknown> | undefined> {
  const result = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  return result.Item;
}

/** One order by id (the mails and the order page read it without the lists' code). */
export async function getOrder(id: string): Promise<OrderRecord | undefined> {
  const item = await get(keys.order(id));
  return item ? toOrderRecord(item) : undefined;
}

/** The order item, in the stage list (gsi2) of its status. */
export function orderItem(order: OrderRecord): Record<string, unknown> {
  const sort = sortKey(order.createdAt, order.id);
  const stage = orderStageOf(order.status);
  return {
    ...keys.order(order.id),
    entity: 'order',
    ...order,
    gsi1pk: lists.orders.partition,
    gsi1sk: sort,
    ...(stage ? { gsi2pk: lists.ordersAt(stage).partition, gsi2sk: sort } : {}),
    ...orderSearchKeys(order),
  };
}

/**
 * The keys that find an order in a search (docs/decisions/0140): its order number (gsi3, a
 * partition of one) and its product's orders (gsi4, newest first). Written with the order and never
 * changed after; `upgradeSalesItems` gives them to orders stored before.
 */
export function orderSearchKeys(order: Pick<OrderRecord, 'id' | 'orderID' | 'product_id' | 'createdAt'>) {
  return {
    gsi3pk: lists.orderNumbered(order.orderID).partition,
    gsi3sk: 'ORDER',
    gsi4pk: lists.ordersOfProduct(order.product_id).partition,
    gsi4sk: sortKey(order.createdAt, order.id),
  };
}

/** The commission item, in the stage list (gsi2) of its status. */
export function commissionItem(commission: CommissionRecord): Record<string, unknown> {
  const sort = sortKey(commission.createdAt, commission.id);
  const stage = commissionStageOf(commission.status);
  return {
    ...keys.commission(commission.id),
    entity: 'commission',
    ...commission,
    gsi1pk: lists.commissions.partition,
    gsi1sk: sort,
    ...(stage ? { gsi2pk: lists.commissionsAt(stage).partition, gsi2sk: sort } : {}),
    gsi3pk: lists.commissionsOf(commission.memberId).partition,
    gsi3sk: sort,
    // Held at its sale: in the admin's Held for review list until decided (commissions/review.ts).
    ...(commission.status === 'review' && commission.heldFor
      ? { gsi4pk: lists.commissionsHeld.partition, gsi4sk: sort }
      : {}),
  };
}

/** The order of a payment, by its claim. */
export async function orderOfPayment(paymentIntentId: string): Promise<OrderRecord | undefined> {
  const claim = await get(keys.paymentClaim(paymentIntentId));
  const orderId = claim?.orderId;
  if (typeof orderId !== 'string') return undefined;
  const order = await get(keys.order(orderId));
  return order ? toOrderRecord(order) : undefined;
}

async function commissionOf(order: OrderRecord): Promise<CommissionRecord | null> {
  if (!order.commissionId) return null;
  const item = await get(keys.commission(order.commissionId));
  return item ? toCommissionRecord(item) : null;
}

/**
 * The sale's items in one transaction: the order, the payment claim, the commission, and one
 * shard of each counter and of the member's earnings (ADD, no condition). No item here is written
 * by every sale: two sales meet only when they draw the same shard at the same moment.
 */
export function saleTransaction(order: OrderRecord, commission: CommissionRecord | null, shard: number) {
  const table = tableName();
  const items: NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']> = [
    { Put: { TableName: table, Item: orderItem(order), ConditionExpression: 'attribute_not_exists(pk)' } },
  ];
  if (order.paymentIntentId) {
    items.push({
      Put: {
        TableName: table,
        Item: {
          ...keys.paymentClaim(order.paymentIntentId),
          entity: 'paymentClaim',
          orderId: order.id,
          createdAt: order.createdAt,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    });
  }
  // A sale with a member's discount code: its item in the code's partition (the admin's uses and revenue, issue 39).
  if (order.discountCode) {
    items.push({
      Put: {
        TableName: table,
        Item: {
          ...keys.discountCodeSale(order.discountCode, order.createdAt, order.id),
          entity: 'discountCodeSale',
          orderId: order.id,
          orderID: order.orderID,
          createdAt: order.createdAt,
          paidCents: order.totalCents,
          discountCents: order.discountCents ?? 0,
          // Refunds keep it equal to the order's (dynamo-refunds.ts): the list reads no order.
          refundedCents: 0,
          gsi2pk: lists.discountCodesWithSales.partition,
          gsi2sk: codeSaleListKey(order.discountCode, order.createdAt, order.id),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    });
  }
  // The checkout's open intent is paid: a ban no longer needs to cancel it (orders/abuse.ts).
  if (order.paymentIntentId && order.source === 'checkout') {
    items.push({ Delete: { TableName: table, Key: keys.openIntent(order.product_id, order.paymentIntentId) } });
  }
  items.push({
    Update: {
      TableName: table,
      Key: keys.ordersCounterShard(shard),
      UpdateExpression: 'SET entity = :entity ADD #all :one, notOrdered :one',
      ExpressionAttributeNames: { '#all': 'all' },
      ExpressionAttributeValues: { ':entity': 'counter', ':one': 1 },
    },
  });
  if (commission?.status === 'cancelled') {
    // No commission (a self-purchase with SELF_PURCHASE=no_commission): counted, no cents, in no stage list.
    items.push(
      { Put: { TableName: table, Item: commissionItem(commission), ConditionExpression: 'attribute_not_exists(pk)' } },
      {
        Update: {
          TableName: table,
          Key: keys.commissionsCounterShard(shard),
          UpdateExpression: 'SET entity = :entity ADD #count :one',
          ExpressionAttributeNames: { '#count': 'count' },
          ExpressionAttributeValues: { ':entity': 'counter', ':one': 1 },
        },
      },
      {
        Update: {
          TableName: table,
          Key: keys.earningsShard(commission.memberId, shard),
          UpdateExpression: 'SET entity = :entity ADD #count :one',
          ExpressionAttributeNames: { '#count': 'count' },
          ExpressionAttributeValues: { ':entity': 'earningsShard', ':one': 1 },
        },
      },
    );
  } else if (commission) {
    const amount = commission.amountCents;
    items.push(
      { Put: { TableName: table, Item: commissionItem(commission), ConditionExpression: 'attribute_not_exists(pk)' } },
      {
        Update: {
          TableName: table,
          Key: keys.commissionsCounterShard(shard),
          UpdateExpression:
            'SET entity = :entity ADD #count :one, totalCents :amount, processingCents :amount, ' +
            'toStripeCount :one, toStripeCents :amount',
          ExpressionAttributeNames: { '#count': 'count' },
          ExpressionAttributeValues: { ':entity': 'counter', ':one': 1, ':amount': amount },
        },
      },
      {
        Update: {
          TableName: table,
          Key: keys.earningsShard(commission.memberId, shard),
          UpdateExpression: 'SET entity = :entity ADD #count :one, totalCents :amount, processingCents :amount',
          ExpressionAttributeNames: { '#count': 'count' },
          ExpressionAttributeValues: { ':entity': 'earningsShard', ':one': 1, ':amount': amount },
        },
      },
    );
  }
  return items;
}

async function writeSale(order: OrderRecord, commission: CommissionRecord | null, shard: number) {
  await db().send(new TransactWriteCommand({ TransactItems: saleTransaction(order, commission, shard) }));
}

/** The member a share code names, by its SHARE#<code> claim. */
export async function memberOfShareCode(
  code: string,
): Promise<{ id: string; email: string; names: MemberNames } | undefined> {
  const claim = await get(keys.shareCode(code));
  const userId = claim?.userId;
  if (typeof userId !== 'string') return undefined;
  const user = await get(keys.user(userId));
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return user
    ? {
        id: userId,
        email: String(user.email),
        names: {
          first_name: text(user.first_name),
          last_name: text(user.last_name),
          display_name: text(user.display_name),
        },
      }
    : undefined;
}

/**
 * The sale in one transaction, tried again on another shard when another transaction wrote one of
 * its items; a payment recorded already (its claim or its order exist) answers that order.
 */
export async function recordSale(order: OrderRecord, commission: CommissionRecord | null): Promise<RecordOutcome> {
  for (let attempt = 0; ; attempt++) {
    try {
      // The member's top-earners place follows from the earnings shard this writes, off the sale's
      // path: the table's stream runs the places function (decision 0481).
      await writeSale(order, commission, randomInt(COUNTER_SHARDS));
      return { outcome: 'recorded', order, commission };
    } catch (error) {
      // The order (item 0, its id made from the payment) or the payment claim (item 1) exists:
      // the payment is recorded.
      if (order.paymentIntentId && (conditionFailedAt(error, 0) || conditionFailedAt(error, 1))) {
        const existing = await orderOfPayment(order.paymentIntentId);
        if (existing) {
          const existingCommission = await commissionOf(existing);
          return { outcome: 'payment-recorded', order: existing, commission: existingCommission };
        }
      }
      // Another transaction wrote one of these items (a shard drawn by another sale at the same
      // moment, the same payment's other report): nothing was written; try again.
      if (isTransactionConflict(error) && attempt < MAX_SALE_TRIES) {
        await backoff(attempt, 10, 500);
        continue;
      }
      throw error;
    }
  }
}

/** What recording a sale needs of the store. */
export const dynamoSaleRecorder: Pick<SalesStore, 'memberOfShareCode' | 'recordSale' | 'orderOfPayment'> = {
  memberOfShareCode,
  recordSale,
  orderOfPayment,
};
