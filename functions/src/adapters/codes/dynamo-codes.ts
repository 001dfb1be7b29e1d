import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DISCOUNT_CODE_SALE_PREFIX, keys, lists } from '@portal/shared/db/table';
import type { CodeSale, CodeStore, RedeemOutcome, StoredCode } from '../../codes/code-store';
import {
  batchGetAll,
  conditionFailedAt,
  db,
  isConditionFailed,
  isTransactionConflict,
  tableName,
  writtenUnlessConditionFails,
} from '../dynamo-client';

/**
 * Redemptions of one code meet on its item: a transaction that met another is tried again, with a
 * short random wait, up to this many times (a burst of checkouts on one code resolves in turn).
 */
const MAX_REDEEM_TRIES = 30;

/** A code item's fields, without the table's keys. */
function toCode(item: Record<string, unknown>): StoredCode {
  const { pk: _pk, sk: _sk, entity: _entity, gsi1pk: _g1, gsi1sk: _g1s, gsi3pk: _g3, gsi3sk: _g3s, ...rest } = item;
  return rest as unknown as StoredCode;
}

const get = async (key: { pk: string; sk: string }) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

async function queryAll(
  input: Omit<ConstructorParameters<typeof QueryCommand>[0], 'TableName' | 'ExclusiveStartKey'>,
  limit: number,
): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({ ...input, TableName: tableName(), ExclusiveStartKey: start, Limit: limit - found.length }),
    );
    found.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start && found.length < limit);
  return found;
}

const sortKey = (code: StoredCode) => `${code.createdAt}#${code.code}`;

/** What the codes capability stores (functions/src/codes/code-store.ts), on the one table. */
export const dynamoCodes: CodeStore = {
  async get(code) {
    const item = await get(keys.discountCode(code));
    return item ? toCode(item) : undefined;
  },

  create: (code) =>
    writtenUnlessConditionFails(() =>
      db().send(
        new PutCommand({
          TableName: tableName(),
          Item: {
            ...keys.discountCode(code.code),
            entity: 'discountCode',
            ...code,
            gsi1pk: lists.discountCodes.partition,
            gsi1sk: sortKey(code),
            gsi3pk: lists.discountCodesOf(code.memberId).partition,
            gsi3sk: sortKey(code),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    ),

  async disable(code, at) {
    try {
      const result = await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.discountCode(code),
          UpdateExpression: 'SET #status = :disabled, disabledAt = :at',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':disabled': 'disabled', ':at': at },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return result.Attributes ? toCode(result.Attributes) : undefined;
    } catch (error) {
      if (isConditionFailed(error)) return undefined;
      throw error;
    }
  },

  async list(limit) {
    const items = await queryAll(
      {
        IndexName: lists.discountCodes.index,
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': lists.discountCodes.partition },
        ScanIndexForward: false,
      },
      limit,
    );
    return items.map(toCode);
  },

  async ofMember(memberId) {
    const list = lists.discountCodesOf(memberId);
    const items = await queryAll(
      {
        IndexName: list.index,
        KeyConditionExpression: 'gsi3pk = :pk',
        ExpressionAttributeValues: { ':pk': list.partition },
        ScanIndexForward: false,
      },
      100,
    );
    return items.map(toCode);
  },

  async sales(code, limit) {
    const items = await queryAll(
      {
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.discountCode(code).pk, ':prefix': DISCOUNT_CODE_SALE_PREFIX },
        ScanIndexForward: false,
        ConsistentRead: true,
      },
      limit,
    );
    return items.map((item): CodeSale => ({
      orderId: String(item.orderId),
      orderID: String(item.orderID),
      createdAt: String(item.createdAt),
      paidCents: Number(item.paidCents),
      discountCents: Number(item.discountCents),
    }));
  },

  async refundedCents(orderIds) {
    if (orderIds.length === 0) return new Map();
    const items = await batchGetAll(
      orderIds.map((id) => ({ ...keys.order(id) })),
      { expression: 'id, refundedCents' },
    );
    return new Map(
      items.map((item) => [String(item.id), typeof item.refundedCents === 'number' ? item.refundedCents : 0]),
    );
  },

  /**
   * One transaction: the checkout's use item (absent: a checkout asked again counts nothing) and
   * the code's `redeemed + 1`, conditional on the code active, before its expiry, below its limit.
   * One item per code takes every redemption: DynamoDB serializes them, so the limit holds
   * whatever the concurrency; a transaction that met another is tried again.
   */
  async redeem(code, checkoutHash, nowSeconds): Promise<RedeemOutcome> {
    for (let attempt = 0; ; attempt++) {
      try {
        await db().send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName: tableName(),
                  Item: { ...keys.discountCodeUse(code, checkoutHash), entity: 'discountCodeUse', at: nowSeconds },
                  ConditionExpression: 'attribute_not_exists(pk)',
                },
              },
              {
                Update: {
                  TableName: tableName(),
                  Key: keys.discountCode(code),
                  UpdateExpression: 'SET redeemed = redeemed + :one',
                  ConditionExpression:
                    '#status = :active AND (attribute_type(expiresAt, :null) OR expiresAt > :now) AND ' +
                    '(attribute_type(maxRedemptions, :null) OR redeemed < maxRedemptions)',
                  ExpressionAttributeNames: { '#status': 'status' },
                  ExpressionAttributeValues: { ':one': 1, ':active': 'active', ':null': 'NULL', ':now': nowSeconds },
                },
              },
            ],
          }),
        );
        return 'counted';
      } catch (error) {
        if (conditionFailedAt(error, 0)) return 'again';
        if (conditionFailedAt(error, 1)) return 'refused';
        if (isTransactionConflict(error) && attempt < MAX_REDEEM_TRIES) {
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * Math.min(attempt + 1, 8)));
          continue;
        }
        throw error;
      }
    }
  },

  async release(code, checkoutHash) {
    try {
      await db().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Delete: {
                TableName: tableName(),
                Key: keys.discountCodeUse(code, checkoutHash),
                ConditionExpression: 'attribute_exists(pk)',
              },
            },
            {
              Update: {
                TableName: tableName(),
                Key: keys.discountCode(code),
                UpdateExpression: 'SET redeemed = redeemed - :one',
                ConditionExpression: 'redeemed > :zero',
                ExpressionAttributeValues: { ':one': 1, ':zero': 0 },
              },
            },
          ],
        }),
      );
    } catch (error) {
      // Given back already, or never counted: nothing to give back.
      if (conditionFailedAt(error, 0) || conditionFailedAt(error, 1)) return;
      throw error;
    }
  },
};
