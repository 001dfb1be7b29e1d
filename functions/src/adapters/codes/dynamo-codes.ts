import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { codeListKey, keys, lists } from '@portal/shared/db/table';
import type { CodeSale, CodeStore, CodeWithSales, RedeemOutcome, StoredCode } from '../../codes/code-store';
import {
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
  const {
    pk: _pk,
    sk: _sk,
    entity: _entity,
    gsi1pk: _g1,
    gsi1sk: _g1s,
    gsi2pk: _g2,
    gsi2sk: _g2s,
    gsi3pk: _g3,
    gsi3sk: _g3s,
    ...rest
  } = item;
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

const toSale = (item: Record<string, unknown>): CodeSale => ({
  orderId: String(item.orderId),
  orderID: String(item.orderID),
  createdAt: String(item.createdAt),
  paidCents: Number(item.paidCents),
  discountCents: Number(item.discountCents),
  refundedCents: typeof item.refundedCents === 'number' ? item.refundedCents : 0,
});

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
            gsi2pk: lists.discountCodesWithSales.partition,
            gsi2sk: codeListKey(code.code),
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

  async listWithSales() {
    // The codes and their sales in one range, each code's sales right after it (table.ts codeSaleListKey).
    const items: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await db().send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: lists.discountCodesWithSales.index,
          KeyConditionExpression: 'gsi2pk = :pk',
          ExpressionAttributeValues: { ':pk': lists.discountCodesWithSales.partition },
          ExclusiveStartKey: start,
        }),
      );
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
    const found: CodeWithSales[] = [];
    for (const item of items) {
      if (item.entity === 'discountCode') found.push({ code: toCode(item), sales: [] });
      else if (item.entity === 'discountCodeSale' && typeof item.orderId === 'string') {
        // Its own code's (the item's partition), never the code before it in the list.
        const current = found.at(-1);
        if (current && item.pk === keys.discountCode(current.code.code).pk) current.sales.push(toSale(item));
      }
    }
    return found;
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
