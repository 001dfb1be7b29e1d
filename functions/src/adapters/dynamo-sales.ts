import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { keys, lists, topEarnerSortKey, type OrderStage } from '@portal/shared/db/table';
import type {
  CommissionCounts,
  CommissionListName,
  CommissionRecord,
  Earnings,
  MarkOutcome,
  OrderCounts,
  OrderListName,
  OrderRecord,
  OrderStep,
  SalesStore,
} from '../orders/sales-store';
import {
  backoff,
  batchGetAll,
  cancellationReasons,
  conditionFailedAt,
  db,
  decodeCursor,
  encodeCursor,
  isTransactionConflict,
  tableName,
} from './dynamo-client';

/** How many times a sale's transaction is tried when another sale of the same member races it. */
const MAX_SALE_TRIES = 12;

const sortKey = (time: string, id: string) => `${time}#${id}`;

const strip = <T>(item: Record<string, unknown>): T => {
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

async function get(key: { pk: string; sk: string }): Promise<Record<string, unknown> | undefined> {
  const result = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  return result.Item;
}

const num = (value: unknown): number => (typeof value === 'number' ? value : 0);

function orderItem(order: OrderRecord): Record<string, unknown> {
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

function commissionItem(commission: CommissionRecord): Record<string, unknown> {
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
async function orderOfPayment(paymentIntentId: string): Promise<OrderRecord | undefined> {
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

function toEarnings(item: Record<string, unknown>): Earnings {
  return {
    memberId: String(item.memberId),
    memberEmail: String(item.memberEmail ?? ''),
    count: num(item.count),
    totalCents: num(item.totalCents),
    paidCents: num(item.paidCents),
    processingCents: num(item.processingCents),
  };
}

async function earnings(memberId: string): Promise<Earnings | undefined> {
  const item = await get(keys.earnings(memberId));
  return item ? toEarnings(item) : undefined;
}

async function query(
  list: { index: string; partition: string },
  cursor: string | undefined,
  limit: number,
  startsWith: string,
) {
  const result = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: list.index,
      KeyConditionExpression: '#pk = :partition',
      ExpressionAttributeNames: { '#pk': `${list.index}pk` },
      ExpressionAttributeValues: { ':partition': list.partition },
      ScanIndexForward: false,
      Limit: limit,
      ExclusiveStartKey: decodeCursor(cursor, {
        attributes: ['pk', 'sk', `${list.index}pk`, `${list.index}sk`],
        equals: { [`${list.index}pk`]: list.partition },
        startsWith: { pk: startsWith },
      }),
    }),
  );
  return { items: result.Items ?? [], nextCursor: encodeCursor(result.LastEvaluatedKey) };
}

const ORDER_LISTS: Record<OrderListName, { index: string; partition: string }> = {
  all: lists.orders,
  not_ordered: lists.ordersAt('not_ordered'),
  not_shipped: lists.ordersAt('not_shipped'),
  not_fufilled: lists.ordersAt('not_fufilled'),
};

/** Each mark: the flag it sets, the flag that must be set before, the stage it leaves and enters. */
const STEPS: Record<OrderStep, { flag: string; before: string | null; from: OrderStage; to: OrderStage | null }> = {
  ordered: { flag: 'isOrdered', before: null, from: 'not_ordered', to: 'not_shipped' },
  shipped: { flag: 'isShipped', before: 'isOrdered', from: 'not_shipped', to: 'not_fufilled' },
  fufilled: { flag: 'isFufilled', before: 'isShipped', from: 'not_fufilled', to: null },
};

const COUNTER_OF: Record<OrderStage, string> = {
  not_ordered: 'notOrdered',
  not_shipped: 'notShipped',
  not_fufilled: 'notFufilled',
};

export const dynamoSales: SalesStore = {
  async memberOfShareCode(code) {
    const claim = await get(keys.shareCode(code));
    const userId = claim?.userId;
    if (typeof userId !== 'string') return undefined;
    const user = await get(keys.user(userId));
    return user ? { id: userId, email: String(user.email) } : undefined;
  },

  async recordSale(order, commission) {
    for (let attempt = 0; ; attempt++) {
      const read = commission ? await earnings(commission.memberId) : undefined;
      try {
        await writeSale(order, commission, read);
        return { outcome: 'recorded', order, commission };
      } catch (error) {
        // The payment claim (item 1 of a checkout's transaction) exists: the payment is recorded.
        if (order.paymentIntentId && conditionFailedAt(error, 1)) {
          const existing = await orderOfPayment(order.paymentIntentId);
          if (existing)
            return { outcome: 'payment-recorded', order: existing, commission: await commissionOf(existing) };
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
  },

  orderOfPayment,

  async getOrder(id) {
    const item = await get(keys.order(id));
    return item ? strip<OrderRecord>(item) : undefined;
  },

  async getCommission(id) {
    const item = await get(keys.commission(id));
    return item ? strip<CommissionRecord>(item) : undefined;
  },

  async markOrder(id, step, now): Promise<MarkOutcome> {
    const rule = STEPS[step];
    const current = await this.getOrder(id);
    if (!current) return { outcome: 'not-found' };
    const set = [`${rule.flag} = :one`, 'updatedAt = :now'];
    const values: Record<string, unknown> = { ':one': 1, ':zero': 0, ':now': now };
    if (rule.to) {
      set.push('gsi2pk = :to');
      values[':to'] = lists.ordersAt(rule.to).partition;
    }
    const update = `SET ${set.join(', ')}${rule.to ? '' : ' REMOVE gsi2pk, gsi2sk'}`;
    const condition = `attribute_exists(pk) AND ${rule.flag} = :zero${rule.before ? ` AND ${rule.before} = :one` : ''}`;
    const counterAdd = `ADD ${COUNTER_OF[rule.from]} :minus${rule.to ? `, ${COUNTER_OF[rule.to]} :one` : ''}`;
    const table = tableName();
    const items: NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']> = [
      {
        Update: {
          TableName: table,
          Key: keys.order(id),
          UpdateExpression: update,
          ConditionExpression: condition,
          ExpressionAttributeValues: values,
        },
      },
      {
        Update: {
          TableName: table,
          Key: keys.ordersCounter(),
          UpdateExpression: counterAdd,
          ExpressionAttributeValues: { ':minus': -1, ...(rule.to ? { ':one': 1 } : {}) },
        },
      },
    ];
    if (step === 'fufilled' && current.commissionId) {
      items.push({
        Update: {
          TableName: table,
          Key: keys.commission(current.commissionId),
          UpdateExpression: 'SET orderFulfilled = :one, updatedAt = :now',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':one': 1, ':now': now },
        },
      });
    }
    for (let attempt = 0; ; attempt++) {
      try {
        await db().send(new TransactWriteCommand({ TransactItems: items }));
        const order = await this.getOrder(id);
        return { outcome: 'done', order: order! };
      } catch (error) {
        if (isTransactionConflict(error) && !conditionFailedAt(error, 0) && attempt < 5) {
          await backoff(attempt);
          continue;
        }
        if (!conditionFailedAt(error, 0)) throw error;
        const order = await this.getOrder(id);
        if (!order) return { outcome: 'not-found' };
        if (order[rule.flag as 'isOrdered'] === 1) return { outcome: 'already', order };
        return { outcome: 'too-early', order };
      }
    }
  },

  async ordersPage(list, cursor, limit) {
    const page = await query(ORDER_LISTS[list], cursor, limit, 'ORDER#');
    return { items: page.items.map((item) => strip<OrderRecord>(item)), nextCursor: page.nextCursor };
  },

  async orderCounts(): Promise<OrderCounts> {
    const item = (await get(keys.ordersCounter())) ?? {};
    return {
      all: num(item.all),
      notOrdered: num(item.notOrdered),
      notShipped: num(item.notShipped),
      notFufilled: num(item.notFufilled),
    };
  },

  async commissionsPage(list: CommissionListName, cursor, limit) {
    const source =
      list === 'all'
        ? lists.commissions
        : typeof list === 'string'
          ? lists.commissionsAt(list)
          : lists.commissionsOf(list.memberId);
    const page = await query(source, cursor, limit, 'COMMISSION#');
    return { items: page.items.map((item) => strip<CommissionRecord>(item)), nextCursor: page.nextCursor };
  },

  async commissionCounts(): Promise<CommissionCounts> {
    const item = (await get(keys.commissionsCounter())) ?? {};
    return {
      count: num(item.count),
      totalCents: num(item.totalCents),
      paidCents: num(item.paidCents),
      processingCents: num(item.processingCents),
      toStripeCount: num(item.toStripeCount),
      toStripeCents: num(item.toStripeCents),
      toBePayedCount: num(item.toBePayedCount),
      toBePayedCents: num(item.toBePayedCents),
    };
  },

  earnings,

  async topEarners(cursor, limit) {
    const page = await query(lists.topEarners, cursor, limit, 'USER#');
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
