import { randomUUID } from 'node:crypto';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { keys, lists, shardOf } from '../../shared/src/db/table';
import { commissionFlags, commissionStatusOf } from '../../shared/src/domain/sales-status';
import { db, tableName } from '../../functions/src/adapters/dynamo-client';
import { earnings, refreshRank } from '../../functions/src/adapters/dynamo-earnings';
import { dynamoCommissionStore } from '../../functions/src/adapters/commissions/dynamo-commission-store';

/**
 * Commission items written exactly per the sales layout (shared/src/db/table.ts), for the money
 * movement's tests that need no real order: the commission in processing (its order fulfilled or
 * not, as asked), and its shard of the commissions' counters and of the member's earnings, moved
 * together as a sale moves them; then the member's top-earners place, as a sale refreshes it.
 */
export interface CommissionFixture {
  id: string;
  memberId: string;
  amountCents: number;
}

export const commissionKey = (id: string) => keys.commission(id);
/** The commissions' counters: `item` answers their sums over the shards. */
export const COUNTERS_KEY = { pk: 'COUNTER#COMMISSIONS', sk: '(all shards)' };
/** A member's earnings: `item` answers their sums over the shards. */
export const earningsKey = (memberId: string) => ({ pk: `USER#${memberId}`, sk: 'EARNINGS(all shards)' });

export async function createCommission(options: {
  memberId: string;
  memberEmail: string;
  amountCents: number;
  orderFulfilled?: 0 | 1;
  /** The sale's charge, as a card sale's commission carries it. */
  chargeId?: string;
}): Promise<CommissionFixture> {
  const id = randomUUID();
  const orderId = randomUUID();
  const createdAt = new Date().toISOString();
  const amount = options.amountCents;
  const shard = shardOf(id);
  await db().send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: tableName(),
            Item: {
              ...commissionKey(id),
              entity: 'commission',
              id,
              memberId: options.memberId,
              memberEmail: options.memberEmail,
              orderId,
              orderID: `RP-${id.replace(/-/g, '').slice(0, 8).toUpperCase()}`,
              product_id: 'product-fixture',
              product_name: 'Fixture product',
              amountCents: amount,
              status: (options.orderFulfilled ?? 1) === 1 ? 'processing' : 'order_open',
              ...(options.chargeId ? { chargeId: options.chargeId } : {}),
              transferId: null,
              payoutId: null,
              payoutFailure: null,
              createdAt,
              updatedAt: createdAt,
              gsi1pk: lists.commissions.partition,
              gsi1sk: `${createdAt}#${id}`,
              gsi2pk: lists.commissionsAt('to_stripe').partition,
              gsi2sk: `${createdAt}#${id}`,
              gsi3pk: lists.commissionsOf(options.memberId).partition,
              gsi3sk: `${createdAt}#${id}`,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Update: {
            TableName: tableName(),
            Key: keys.commissionsCounterShard(shard),
            UpdateExpression:
              'ADD #count :one, totalCents :amount, processingCents :amount, toStripeCount :one, toStripeCents :amount',
            ExpressionAttributeNames: { '#count': 'count' },
            ExpressionAttributeValues: { ':one': 1, ':amount': amount },
          },
        },
        {
          Update: {
            TableName: tableName(),
            Key: keys.earningsShard(options.memberId, shard),
            UpdateExpression: 'ADD #count :one, totalCents :amount, processingCents :amount',
            ExpressionAttributeNames: { '#count': 'count' },
            ExpressionAttributeValues: { ':one': 1, ':amount': amount },
          },
        },
      ],
    }),
  );
  await refreshRank(options.memberId);
  return { id, memberId: options.memberId, amountCents: amount };
}

/**
 * An item as the portal reads it: a commission with the spec's flags derived from its status
 * beside what is stored; the commissions' counters (COUNTERS_KEY) and a member's earnings
 * (earningsKey) as the sums of their shards; any other item as stored.
 */
export async function item(key: { pk: string; sk: string }): Promise<Record<string, unknown> | undefined> {
  if (key === COUNTERS_KEY) return { ...(await dynamoCommissionStore.commissionCounts()) };
  if (key.sk === 'EARNINGS(all shards)') {
    const sums = await earnings(key.pk.slice('USER#'.length));
    return sums ? { ...sums } : undefined;
  }
  const stored = (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;
  if (stored?.entity !== 'commission') return stored;
  return { ...stored, ...commissionFlags(commissionStatusOf(stored)) };
}
