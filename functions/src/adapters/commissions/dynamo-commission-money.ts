import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  commissionIs,
  commissionMove,
  commissionSendable,
  updateExpression,
  type StatusExpression,
} from '@portal/shared/db/sales-status';
import { keys, lists, shardOf } from '@portal/shared/db/table';
import type { CommissionMoneyStore, CommissionRecord, PayoutProfile } from '../../commissions/money-store';
import { db, isConditionFailed, tableName, transact, type TransactItems } from '../dynamo-client';
import { toCommissionRecord } from '../dynamo-sales-items';
import { earnings as memberEarnings } from '../dynamo-earnings';

/**
 * The commission's moves (shared/src/db/sales-status.ts builds each condition from the transition
 * table), with the commissions' counters and the member's earnings moved in the same transactions:
 * on the commission's own shard of each (shared/src/db/table.ts, COUNTER_SHARDS), so no move
 * writes an item every sale writes.
 */
const commissionKey = (id: string) => keys.commission(id);
const STAGE_TO_BE_PAID = lists.commissionsAt('to_be_paid').partition;

/** A move's or a status check's condition, ANDed with more, with its names and values. */
const withCondition = (status: StatusExpression, more: string, values: Record<string, unknown>) => ({
  ConditionExpression: more ? `${status.condition} AND ${more}` : status.condition,
  ExpressionAttributeNames: status.names,
  ExpressionAttributeValues: { ...status.values, ...values },
});

/** An UpdateItem answering the item after, or undefined when its condition failed. */
async function conditionalUpdate(
  input: ConstructorParameters<typeof UpdateCommand>[0],
): Promise<CommissionRecord | undefined> {
  try {
    const result = await db().send(new UpdateCommand({ ...input, ReturnValues: 'ALL_NEW' }));
    return result.Attributes ? toCommissionRecord<CommissionRecord>(result.Attributes) : undefined;
  } catch (error) {
    if (isConditionFailed(error)) return undefined;
    throw error;
  }
}

/** A transaction whose first item carries the condition: false when that condition failed. */
async function transaction(items: TransactItems) {
  const outcome = await transact(items);
  if (outcome.ok) return true;
  if (outcome.failedAt.includes(0)) return false;
  throw outcome.error;
}

/** ADD to the commission's shard of the commissions' counters (the item is made by the first ADD). */
const counters = (commissionId: string, add: Record<string, number>) => ({
  Update: {
    TableName: tableName(),
    Key: keys.commissionsCounterShard(shardOf(commissionId)),
    UpdateExpression: `ADD ${Object.keys(add)
      .map((name) => `${name} :${name}`)
      .join(', ')}`,
    ExpressionAttributeValues: Object.fromEntries(Object.entries(add).map(([name, value]) => [`:${name}`, value])),
  },
});

/**
 * The member's earnings (the commission's shard of them): paid and processing move, the total does
 * not, so the top earners' place (built from the total) stays as it is and an ADD is enough.
 */
const earnings = (commission: CommissionRecord, add: { paidCents: number; processingCents: number }) => ({
  Update: {
    TableName: tableName(),
    Key: keys.earningsShard(commission.memberId, shardOf(commission.id)),
    UpdateExpression: 'ADD paidCents :paid, processingCents :processing',
    ExpressionAttributeValues: { ':paid': add.paidCents, ':processing': add.processingCents },
  },
});

export const dynamoCommissionMoney: CommissionMoneyStore = {
  async get(id) {
    const result = await db().send(
      new GetCommand({ TableName: tableName(), Key: commissionKey(id), ConsistentRead: true }),
    );
    return result.Item?.entity === 'commission' ? toCommissionRecord<CommissionRecord>(result.Item) : undefined;
  },

  async payoutProfile(memberId) {
    const result = await db().send(
      new GetCommand({
        TableName: tableName(),
        Key: keys.user(memberId),
        ConsistentRead: true,
        ProjectionExpression: 'stripeID, isAccountCreated, isPayoutMethodAdded, payoutAccount.transfers',
      }),
    );
    if (!result.Item) return undefined;
    const item = result.Item as Partial<PayoutProfile> & { payoutAccount?: { transfers?: string } };
    return {
      stripeID: item.stripeID ?? null,
      isAccountCreated: item.isAccountCreated === 1 ? 1 : 0,
      isPayoutMethodAdded: item.isPayoutMethodAdded === 1 ? 1 : 0,
      ...(item.payoutAccount?.transfers ? { transfers: item.payoutAccount.transfers } : {}),
    };
  },

  async unpaidCents(memberId) {
    // the member's totals are the sum of their earnings shards (and the totals kept before them)
    return (await memberEarnings(memberId))?.processingCents ?? 0;
  },

  reserveTransfer(id, now) {
    return conditionalUpdate({
      TableName: tableName(),
      Key: commissionKey(id),
      UpdateExpression:
        'SET transferPendingAt = if_not_exists(transferPendingAt, :now), transferAttempt = if_not_exists(transferAttempt, :zero)',
      // The sendable condition: in processing and past its hold; not while a payout batch holds it
      // (commissions/batches.ts): the batch moves it.
      ...withCondition(commissionSendable(Date.parse(now)), 'attribute_not_exists(batchId)', {
        ':now': now,
        ':zero': 0,
      }),
    });
  },

  async refuseTransfer(id, attempt, failure, now) {
    return (
      (await conditionalUpdate({
        TableName: tableName(),
        Key: commissionKey(id),
        UpdateExpression:
          'SET transferFailure = :failure, transferAttempt = transferAttempt + :one, updatedAt = :now REMOVE transferPendingAt',
        ...withCondition(commissionIs('processing'), 'transferAttempt = :attempt', {
          ':failure': failure,
          ':one': 1,
          ':now': now,
          ':attempt': attempt,
        }),
      })) !== undefined
    );
  },

  completeTransfer(commission, transferId, now) {
    const amount = commission.amountCents;
    const move = commissionMove('processing', 'in_stripe');
    return transaction([
      {
        Update: {
          TableName: tableName(),
          Key: commissionKey(commission.id),
          UpdateExpression: updateExpression(move, [
            'transferId = :transfer',
            'transferredAt = :now',
            'updatedAt = :now',
            'gsi2pk = :stage',
          ]),
          ...withCondition(move, '', { ':transfer': transferId, ':now': now, ':stage': STAGE_TO_BE_PAID }),
        },
      },
      counters(commission.id, { toStripeCount: -1, toStripeCents: -amount, toBePaidCount: 1, toBePaidCents: amount }),
    ]);
  },

  reservePayout(id, now) {
    return conditionalUpdate({
      TableName: tableName(),
      Key: commissionKey(id),
      UpdateExpression:
        'SET payoutAttempt = if_not_exists(payoutAttempt, :zero), payoutPendingAt = if_not_exists(payoutPendingAt, :now)',
      // Not while a refund's transfer reversal is reserved (commissions/refunds.ts): it takes its share
      // first; nor while a payout batch holds it.
      ...withCondition(
        commissionIs('in_stripe'),
        'attribute_not_exists(reversalPending) AND attribute_not_exists(batchId)',
        { ':now': now, ':zero': 0 },
      ),
    });
  },

  completePayout(commission, attempt, payoutId, now, arrivalDate) {
    const amount = commission.amountCents;
    const move = commissionMove('in_stripe', 'paid');
    return transaction([
      {
        Update: {
          TableName: tableName(),
          Key: commissionKey(commission.id),
          UpdateExpression: updateExpression(
            move,
            [
              'payoutId = :payout',
              'payoutFailure = :null',
              'payoutArrivalDate = :arrival',
              'paidAt = :now',
              'updatedAt = :now',
            ],
            ['gsi2pk', 'gsi2sk', 'payoutPendingAt'],
          ),
          ...withCondition(move, 'payoutAttempt = :attempt', {
            ':payout': payoutId,
            ':arrival': arrivalDate ?? null,
            ':null': null,
            ':now': now,
            ':attempt': attempt,
          }),
        },
      },
      counters(commission.id, {
        toBePaidCount: -1,
        toBePaidCents: -amount,
        paidCents: amount,
        processingCents: -amount,
      }),
      earnings(commission, { paidCents: amount, processingCents: -amount }),
    ]);
  },

  reversePayout(commission, payoutId, failure, now) {
    const amount = commission.amountCents;
    const move = commissionMove('paid', 'in_stripe');
    return transaction([
      {
        Update: {
          TableName: tableName(),
          Key: commissionKey(commission.id),
          UpdateExpression: updateExpression(
            move,
            [
              'payoutId = :null',
              'failedPayoutId = :payout',
              'payoutFailure = :failure',
              'payoutAttempt = payoutAttempt + :one',
              'updatedAt = :now',
              'gsi2pk = :stage',
              'gsi2sk = :sort',
            ],
            ['paidAt', 'payoutPaidAt'],
          ),
          ...withCondition(move, 'payoutId = :payout', {
            ':one': 1,
            ':null': null,
            ':payout': payoutId,
            ':failure': failure,
            ':now': now,
            ':stage': STAGE_TO_BE_PAID,
            ':sort': `${commission.createdAt}#${commission.id}`,
          }),
        },
      },
      counters(commission.id, { toBePaidCount: 1, toBePaidCents: amount, paidCents: -amount, processingCents: amount }),
      earnings(commission, { paidCents: -amount, processingCents: amount }),
    ]);
  },

  async failPendingPayout(id, attempt, failure, now) {
    return (
      (await conditionalUpdate({
        TableName: tableName(),
        Key: commissionKey(id),
        UpdateExpression:
          'SET payoutFailure = :failure, payoutAttempt = payoutAttempt + :one, updatedAt = :now REMOVE payoutPendingAt',
        ...withCondition(commissionIs('in_stripe'), 'payoutAttempt = :attempt', {
          ':failure': failure,
          ':one': 1,
          ':now': now,
          ':attempt': attempt,
        }),
      })) !== undefined
    );
  },

  async acknowledge(id, field, when, condition) {
    const values: Record<string, unknown> = { ':when': when };
    let expression = 'attribute_exists(pk)';
    if (condition.payoutAttempt !== undefined) {
      expression += ' AND payoutAttempt = :attempt';
      values[':attempt'] = condition.payoutAttempt;
    }
    const result = await conditionalUpdate({
      TableName: tableName(),
      Key: commissionKey(id),
      UpdateExpression: `SET #field = if_not_exists(#field, :when)`,
      ConditionExpression: expression,
      ExpressionAttributeNames: { '#field': field },
      ExpressionAttributeValues: values,
    });
    return result !== undefined;
  },
};
