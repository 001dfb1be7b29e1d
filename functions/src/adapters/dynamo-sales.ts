import { QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { keys, lists, type OrderStage } from '@portal/shared/db/table';
import type {
  CommissionCounts,
  CommissionListName,
  CommissionRecord,
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
  conditionFailedAt,
  db,
  decodeCursor,
  encodeCursor,
  isTransactionConflict,
  tableName,
} from './dynamo-client';
import {
  earnings,
  get,
  memberOfShareCode,
  num,
  orderOfPayment,
  recordSale,
  strip,
  toEarnings,
} from './dynamo-sale-recorder';

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
  memberOfShareCode,
  recordSale,
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
