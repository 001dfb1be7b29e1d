import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { commissionIs, commissionMove, orderMove, updateExpression } from '@portal/shared/db/sales-status';
import {
  COUNTER_PARTITIONS,
  availableSortKey,
  keys,
  lists,
  orderStageOf,
  shardOf,
  type OrderStage,
} from '@portal/shared/db/table';
import { orderStepFrom, type OrderStatus } from '@portal/shared/domain/sales-status';
import { isRefundedInFull } from '../../orders/sales-store';
import type {
  MarkOutcome,
  OrderCounts,
  OrderListName,
  OrderRecord,
  OrderSearch,
  OrderStep,
  Page,
  SalesStore,
} from '../../orders/sales-store';
import { memberByEmail } from '../dynamo-user-items';
import {
  backoff,
  batchGetAll,
  conditionFailedAt,
  counterSums,
  db,
  isTransactionConflict,
  queryList,
  tableName,
} from '../dynamo-client';
import {
  get,
  memberOfShareCode,
  num,
  orderOfPayment,
  recordSale,
  toCommissionRecord,
  toOrderRecord,
} from './dynamo-sale-recorder';

const ORDER_LISTS: Record<OrderListName, { index: string; partition: string }> = {
  all: lists.orders,
  not_ordered: lists.ordersAt('not_ordered'),
  not_shipped: lists.ordersAt('not_shipped'),
  not_fulfilled: lists.ordersAt('not_fulfilled'),
};

/** The statuses an order has once a mark to `step` was made (by anyone). */
const ORDER_STATUSES_AFTER: Record<OrderStep, readonly string[]> = {
  ordered: ['ordered', 'shipped', 'fulfilled'],
  shipped: ['shipped', 'fulfilled'],
  fulfilled: ['fulfilled'],
};

const COUNTER_OF: Record<OrderStage, string> = {
  not_ordered: 'notOrdered',
  not_shipped: 'notShipped',
  not_fulfilled: 'notFulfilled',
};

/** The stage list holding exactly the orders of a status; fulfilled orders are in none (all orders, filtered). */
const STATUS_LIST: Record<OrderStatus, OrderListName> = {
  not_ordered: 'not_ordered',
  ordered: 'not_shipped',
  shipped: 'not_fulfilled',
  fulfilled: 'all',
};

/**
 * The orders a search finds (OrderSearch; decision 0140): each search reads one index partition,
 * `limit` items a page; a status with it (or fulfilled alone) keeps that page's orders of the status.
 */
async function searchOrders(
  search: OrderSearch,
  cursor: string | undefined,
  limit: number,
): Promise<Page<OrderRecord>> {
  let page: Page<OrderRecord>;
  if (search.orderNumber !== undefined) {
    const found = await queryList(lists.orderNumbered(search.orderNumber), cursor, limit, 'ORDER#');
    page = { items: found.items.map(toOrderRecord), nextCursor: found.nextCursor };
  } else if (search.productId !== undefined) {
    const found = await queryList(lists.ordersOfProduct(search.productId), cursor, limit, 'ORDER#');
    page = { items: found.items.map(toOrderRecord), nextCursor: found.nextCursor };
  } else if (search.memberId !== undefined) {
    // A member's orders are those of their commissions (one each): that index, then the orders.
    const found = await queryList(lists.commissionsOf(search.memberId), cursor, limit, 'COMMISSION#');
    const orderIds = found.items.map((item) => String(item.orderId));
    const orders = new Map(
      (await batchGetAll(orderIds.map((id) => ({ ...keys.order(id) })))).map((item) => {
        const order = toOrderRecord(item);
        return [order.id, order] as const;
      }),
    );
    const items = orderIds.map((id) => orders.get(id)).filter((order): order is OrderRecord => order !== undefined);
    page = { items, nextCursor: found.nextCursor };
  } else if (search.status !== undefined) {
    const found = await queryList(ORDER_LISTS[STATUS_LIST[search.status]], cursor, limit, 'ORDER#');
    page = { items: found.items.map(toOrderRecord), nextCursor: found.nextCursor };
  } else {
    return dynamoSales.ordersPage('all', cursor, limit);
  }
  const status = search.status;
  return status === undefined ? page : { ...page, items: page.items.filter((order) => order.status === status) };
}

export const dynamoSales: SalesStore = {
  searchOrders,

  memberByEmail,

  memberOfShareCode,
  recordSale,
  orderOfPayment,

  async getOrder(id) {
    const item = await get(keys.order(id));
    return item ? toOrderRecord(item) : undefined;
  },

  async getCommission(id) {
    const item = await get(keys.commission(id));
    return item ? toCommissionRecord(item) : undefined;
  },

  async markOrder(id, step, now, shipment, hold): Promise<MarkOutcome> {
    const from = orderStepFrom(step);
    const current = await this.getOrder(id);
    if (!current) return { outcome: 'not-found' };
    // The move's condition and SET/REMOVE come from the transition table (shared/src/db/sales-status.ts).
    const move = orderMove(from, step);
    const leaves = orderStageOf(from);
    const enters = orderStageOf(step);
    // The mark's date (orderedAt, shippedAt, fulfilledAt: the customer's order page shows them) and the shipment.
    const withShipment = step === 'shipped' && shipment;
    const update = updateExpression(
      move,
      [
        'updatedAt = :now',
        `${step}At = :now`,
        ...(withShipment ? ['shipment = :shipment'] : []),
        ...(enters ? ['gsi2pk = :to'] : []),
      ],
      enters ? [] : ['gsi2pk', 'gsi2sk'],
    );
    const counterAdd = `ADD ${leaves ? `${COUNTER_OF[leaves]} :minus` : ''}${enters ? `, ${COUNTER_OF[enters]} :one` : ''}`;
    const table = tableName();
    const items: NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']> = [
      {
        Update: {
          TableName: table,
          Key: keys.order(id),
          UpdateExpression: update,
          // An order refunded in full (or a dispute lost) is marked no more: nothing is left to send.
          ConditionExpression: `attribute_exists(pk) AND ${move.condition} AND (attribute_not_exists(refundedCents) OR refundedCents < totalCents)`,
          ExpressionAttributeNames: move.names,
          ExpressionAttributeValues: {
            ...move.values,
            ':now': now,
            ...(withShipment ? { ':shipment': shipment } : {}),
            ...(enters ? { ':to': lists.ordersAt(enters).partition } : {}),
          },
        },
      },
      {
        Update: {
          TableName: table,
          // The order's own shard: two marks of one order never meet the other orders' writes there.
          Key: keys.ordersCounterShard(shardOf(id)),
          UpdateExpression: counterAdd,
          ExpressionAttributeValues: { ':minus': -1, ...(enters ? { ':one': 1 } : {}) },
        },
      },
    ];
    // The commission follows as the capability's rule says (orders/manage.ts holdOnFulfilment),
    // conditional on the status it was read in.
    const commission =
      step === 'fulfilled' && hold && current.commissionId ? await this.getCommission(current.commissionId) : undefined;
    const held = commission && hold?.(commission);
    if (commission && held) {
      const { availableAt, underReview } = held;
      const commissionMoves = underReview ? commissionIs('review') : commissionMove('order_open', 'processing');
      items.push({
        Update: {
          TableName: table,
          Key: keys.commission(commission.id),
          UpdateExpression: underReview
            ? 'SET heldFrom = :processing, updatedAt = :now, availableAt = :availableAt'
            : updateExpression(commissionMove('order_open', 'processing'), [
                'updatedAt = :now',
                'availableAt = :availableAt',
                'gsi2sk = :availableSort',
              ]),
          ConditionExpression: `attribute_exists(pk) AND ${commissionMoves.condition}${underReview ? ' AND heldFrom = :open' : ''}`,
          ExpressionAttributeNames: commissionMoves.names,
          ExpressionAttributeValues: {
            ...commissionMoves.values,
            ...(underReview
              ? { ':processing': 'processing', ':open': 'order_open' }
              : { ':statusTo': 'processing', ':availableSort': availableSortKey(availableAt, commission.id) }),
            ':now': now,
            ':availableAt': availableAt,
          },
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
        if (isRefundedInFull(order)) return { outcome: 'refunded', order };
        const done = ORDER_STATUSES_AFTER[step].includes(order.status);
        return { outcome: done ? 'already' : 'too-early', order };
      }
    }
  },

  async ordersPage(list, cursor, limit) {
    const page = await queryList(ORDER_LISTS[list], cursor, limit, 'ORDER#');
    return { items: page.items.map(toOrderRecord), nextCursor: page.nextCursor };
  },

  async orderCounts(): Promise<OrderCounts> {
    const sums = await counterSums(COUNTER_PARTITIONS.orders);
    return {
      all: num(sums.all),
      notOrdered: num(sums.notOrdered),
      notShipped: num(sums.notShipped),
      notFulfilled: num(sums.notFulfilled),
    };
  },
};
