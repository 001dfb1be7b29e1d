import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { keys, lists, topEarnerSortKey } from '@portal/shared/db/table';
import type { CommissionRecord, Earnings, OrderRecord, RecordOutcome, SalesStore } from '../orders/sales-store';
import { backoff, cancellationReasons, conditionFailedAt, db, isTransactionConflict, tableName } from './dynamo-client';

/**
 * Recording a sale (the SalesStore's writing half the webhook and confirmCheckout need), apart
 * from the lists and marks so that the Stripe-carrying functions bundle no more than this.
 */

/** How many times a sale's transaction is tried when another sale of the same member races it. */
const MAX_SALE_TRIES = 12;

export const sortKey = (time: string, id: string) => `${time}#${id}`;

export const strip = <T>(item: Record<string, unknown>): T => {
  const {
    pk: _pk,
    sk: _sk,
    entity: _entity,
    gsi1pk: _a,
    gsi1sk: _b,
    gsi2pk: _c,
    gsi2sk: _d,
    gsi3pk: _e,
    gsi3sk: _f,
    ...rest
  } = item;
  return rest as T;
};

export async function get(key: { pk: string; sk: string }): Promise<Record<string, unknown> | undefined> {
  const result = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  return result.Item;
}

export const num = (value: unknown): number => (typeof value === 'number' ? value : 0);

export function orderItem(order: OrderRecord): Record<string, unknown> {
  const sort = sortKey(order.createdAt, order.id);
  return {
    ...keys.order(order.id),
    entity: 'order',
    ...order,
    gsi1pk: lists.orders.partition,
    gsi1sk: sort,
    gsi2pk: lists.ordersAt('not_ordered').partition,
    gsi2sk: sort,
  };
}

export function commissionItem(commission: CommissionRecord): Record<string, unknown> {
  const sort = sortKey(commission.createdAt, commission.id);
  return {
    ...keys.commission(commission.id),
    entity: 'commission',
    ...commission,
    gsi1pk: lists.commissions.partition,
    gsi1sk: sort,
    gsi2pk: lists.commissionsAt('to_stripe').partition,
    gsi2sk: sort,
    gsi3pk: lists.commissionsOf(commission.memberId).partition,
    gsi3sk: sort,
  };
}

/** The order of a payment, by its claim. */
export async function orderOfPayment(paymentIntentId: string): Promise<OrderRecord | undefined> {
  const claim = await get(keys.paymentClaim(paymentIntentId));
  const orderId = claim?.orderId;
  if (typeof orderId !== 'string') return undefined;
  const order = await get(keys.order(orderId));
  return order ? strip<OrderRecord>(order) : undefined;
}

async function commissionOf(order: OrderRecord): Promise<CommissionRecord | null> {
  if (!order.commissionId) return null;
  const item = await get(keys.commission(order.commissionId));
  return item ? strip<CommissionRecord>(item) : null;
}

async function writeSale(order: OrderRecord, commission: CommissionRecord | null, earnings: Earnings | undefined) {
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
  items.push({
    Update: {
      TableName: table,
      Key: keys.ordersCounter(),
      UpdateExpression: 'SET entity = :entity ADD #all :one, notOrdered :one',
      ExpressionAttributeNames: { '#all': 'all' },
      ExpressionAttributeValues: { ':entity': 'counter', ':one': 1 },
    },
  });
  if (commission) {
    const amount = commission.amountCents;
    items.push(
      { Put: { TableName: table, Item: commissionItem(commission), ConditionExpression: 'attribute_not_exists(pk)' } },
      {
        Update: {
          TableName: table,
          Key: keys.commissionsCounter(),
          UpdateExpression:
            'SET entity = :entity ADD #count :one, totalCents :amount, paidCents :zero, processingCents :amount, ' +
            'toStripeCount :one, toStripeCents :amount, toBePayedCount :zero, toBePayedCents :zero',
          ExpressionAttributeNames: { '#count': 'count' },
          ExpressionAttributeValues: { ':entity': 'counter', ':one': 1, ':zero': 0, ':amount': amount },
        },
      },
    );
    // The top earners' key holds the padded total, which cannot be ADDed: written from the total
    // read, on condition that it is still that total (totals only grow, so equality is enough).
    const total = (earnings?.totalCents ?? 0) + amount;
    items.push({
      Update: {
        TableName: table,
        Key: keys.earnings(commission.memberId),
        UpdateExpression:
          'SET entity = :entity, memberId = :member, memberEmail = :email, totalCents = :total, ' +
          'gsi1pk = :top, gsi1sk = :rank ADD #count :one, processingCents :amount, paidCents :zero',
        ConditionExpression: earnings ? 'totalCents = :read' : 'attribute_not_exists(pk)',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: {
          ':entity': 'earnings',
          ':member': commission.memberId,
          ':email': commission.memberEmail,
          ':total': total,
          ':top': lists.topEarners.partition,
          ':rank': topEarnerSortKey(total, commission.memberId),
          ':one': 1,
          ':zero': 0,
          ':amount': amount,
          ...(earnings ? { ':read': earnings.totalCents } : {}),
        },
      },
    });
  }
  await db().send(new TransactWriteCommand({ TransactItems: items }));
}

export function toEarnings(item: Record<string, unknown>): Earnings {
  return {
    memberId: String(item.memberId),
    memberEmail: String(item.memberEmail ?? ''),
    count: num(item.count),
    totalCents: num(item.totalCents),
    paidCents: num(item.paidCents),
    processingCents: num(item.processingCents),
  };
}

export async function earnings(memberId: string): Promise<Earnings | undefined> {
  const item = await get(keys.earnings(memberId));
  return item ? toEarnings(item) : undefined;
}

/** The member a share code names, by its SHARE#<code> claim. */
export async function memberOfShareCode(code: string): Promise<{ id: string; email: string } | undefined> {
  const claim = await get(keys.shareCode(code));
  const userId = claim?.userId;
  if (typeof userId !== 'string') return undefined;
  const user = await get(keys.user(userId));
  return user ? { id: userId, email: String(user.email) } : undefined;
}

/** The sale in one transaction, tried again when the member's earnings moved or another transaction conflicted. */
export async function recordSale(order: OrderRecord, commission: CommissionRecord | null): Promise<RecordOutcome> {
  for (let attempt = 0; ; attempt++) {
    const read = commission ? await earnings(commission.memberId) : undefined;
    try {
      await writeSale(order, commission, read);
      return { outcome: 'recorded', order, commission };
    } catch (error) {
      // The payment claim (item 1 of a checkout's transaction) exists: the payment is recorded.
      if (order.paymentIntentId && conditionFailedAt(error, 1)) {
        const existing = await orderOfPayment(order.paymentIntentId);
        if (existing) return { outcome: 'payment-recorded', order: existing, commission: await commissionOf(existing) };
      }
      const reasons = cancellationReasons(error);
      const earningsMoved = commission !== null && reasons?.[reasons.length - 1]?.Code === 'ConditionalCheckFailed';
      // Another transaction wrote one of these items (the member's earnings, a counter, the
      // same payment's claim): read again and try the whole transaction again.
      if ((earningsMoved || isTransactionConflict(error)) && attempt < MAX_SALE_TRIES) {
        await backoff(attempt, 25, 1_000);
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
