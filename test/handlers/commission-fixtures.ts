import { randomUUID } from 'node:crypto';
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailed, tableName } from '../../functions/src/adapters/dynamo-client';

/**
 * Commission items written exactly per the shared sales layout (common brief, "Shared data
 * layout"), for the money movement's tests until the orders branch records them from real orders:
 * the commission in processing (`orderFulfilled` as asked), the commissions' counters and the
 * member's EARNINGS item (with its TOP_EARNERS key), moved together as addOrder moves them.
 */
export interface CommissionFixture {
  id: string;
  memberId: string;
  amountCents: number;
}

export const commissionKey = (id: string) => ({ pk: `COMMISSION#${id}`, sk: 'COMMISSION' });
export const COUNTERS_KEY = { pk: 'COUNTER#COMMISSIONS', sk: 'COUNTER' };
export const earningsKey = (memberId: string) => ({ pk: `USER#${memberId}`, sk: 'EARNINGS' });

const padded = (cents: number, memberId: string) => `${String(cents).padStart(15, '0')}#${memberId}`;

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
              isPayed: 0,
              isInCustomersAccount: 0,
              orderFulfilled: options.orderFulfilled ?? 1,
              ...(options.chargeId ? { chargeId: options.chargeId } : {}),
              transferId: null,
              payoutId: null,
              payoutFailure: null,
              createdAt,
              updatedAt: createdAt,
              gsi1pk: 'COMMISSIONS',
              gsi1sk: `${createdAt}#${id}`,
              gsi2pk: 'COMMISSIONS#STAGE#to_stripe',
              gsi2sk: `${createdAt}#${id}`,
              gsi3pk: `COMMISSIONS#USER#${options.memberId}`,
              gsi3sk: `${createdAt}#${id}`,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Update: {
            TableName: tableName(),
            Key: COUNTERS_KEY,
            UpdateExpression:
              'ADD #count :one, totalCents :amount, paidCents :zero, processingCents :amount, toStripeCount :one, toStripeCents :amount, toBePayedCount :zero, toBePayedCents :zero',
            ExpressionAttributeNames: { '#count': 'count' },
            ExpressionAttributeValues: { ':one': 1, ':zero': 0, ':amount': amount },
          },
        },
      ],
    }),
  );
  // The padded top-earners key cannot be ADDed: read, then write on the condition of what was read.
  for (;;) {
    const current = (await db().send(new GetCommand({ TableName: tableName(), Key: earningsKey(options.memberId) })))
      .Item as { totalCents?: number } | undefined;
    const before = current?.totalCents;
    const total = (before ?? 0) + amount;
    try {
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: earningsKey(options.memberId),
          UpdateExpression:
            'SET entity = :entity, memberId = :member, memberEmail = :email, totalCents = :total, gsi1pk = :top, gsi1sk = :rank ADD #count :one, processingCents :amount, paidCents :zero',
          ConditionExpression: before === undefined ? 'attribute_not_exists(totalCents)' : 'totalCents = :before',
          ExpressionAttributeNames: { '#count': 'count' },
          ExpressionAttributeValues: {
            ':entity': 'earnings',
            ':member': options.memberId,
            ':email': options.memberEmail,
            ':total': total,
            ':top': 'TOP_EARNERS',
            ':rank': padded(total, options.memberId),
            ':one': 1,
            ':zero': 0,
            ':amount': amount,
            ...(before === undefined ? {} : { ':before': before }),
          },
        }),
      );
      break;
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
    }
  }
  return { id, memberId: options.memberId, amountCents: amount };
}

export async function item(key: { pk: string; sk: string }): Promise<Record<string, unknown> | undefined> {
  return (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;
}
