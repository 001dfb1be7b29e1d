import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '@portal/shared/db/table';
import type { CommissionMoneyStore, CommissionRecord, PayoutProfile } from '../commissions/money-store';
import { backoff, cancellationReasons, db, isConditionFailed, isTransactionConflict, tableName } from './dynamo-client';

/**
 * The keys of the shared sales layout (common brief, "Shared data layout"): the commission, the
 * commissions' counters and the member's earnings.
 * TODO(merge): the same builders live in shared/src/db/table.ts once the orders branch is merged.
 */
const commissionKey = (id: string) => ({ pk: `COMMISSION#${id}`, sk: 'COMMISSION' });
const COMMISSION_COUNTERS = { pk: 'COUNTER#COMMISSIONS', sk: 'COUNTER' };
const earningsKey = (memberId: string) => ({ pk: `USER#${memberId}`, sk: 'EARNINGS' });
const STAGE_TO_BE_PAYED = 'COMMISSIONS#STAGE#to_be_payed';

/** An UpdateItem answering the item after, or undefined when its condition failed. */
async function conditionalUpdate(
  input: ConstructorParameters<typeof UpdateCommand>[0],
): Promise<CommissionRecord | undefined> {
  try {
    const result = await db().send(new UpdateCommand({ ...input, ReturnValues: 'ALL_NEW' }));
    return result.Attributes as CommissionRecord;
  } catch (error) {
    if (isConditionFailed(error)) return undefined;
    throw error;
  }
}

/** Tries of a transaction that meets another one writing the same items (the counters are written by every move). */
const MAX_CONFLICT_TRIES = 5;

/** A transaction whose first item carries the condition: false when that condition failed. */
async function transaction(items: NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>) {
  for (let attempt = 0; ; attempt++) {
    try {
      await db().send(new TransactWriteCommand({ TransactItems: items }));
      return true;
    } catch (error) {
      const reasons = cancellationReasons(error);
      if (reasons?.[0]?.Code === 'ConditionalCheckFailed') return false;
      // Nothing was written and the condition still decides: the same transaction again, after a wait.
      if (isTransactionConflict(error) && attempt < MAX_CONFLICT_TRIES) {
        await backoff(attempt);
        continue;
      }
      throw error;
    }
  }
}

/** ADD to the commissions' counters (the item is made by the first ADD). */
const counters = (add: Record<string, number>) => ({
  Update: {
    TableName: tableName(),
    Key: COMMISSION_COUNTERS,
    UpdateExpression: `ADD ${Object.keys(add)
      .map((name) => `${name} :${name}`)
      .join(', ')}`,
    ExpressionAttributeValues: Object.fromEntries(Object.entries(add).map(([name, value]) => [`:${name}`, value])),
  },
});

/**
 * The member's earnings: paid and processing move, the total does not, so the top earners' padded
 * sort key (built from the total) stays as it is and an ADD is enough.
 */
const earnings = (memberId: string, add: { paidCents: number; processingCents: number }) => ({
  Update: {
    TableName: tableName(),
    Key: earningsKey(memberId),
    UpdateExpression: 'ADD paidCents :paid, processingCents :processing',
    ExpressionAttributeValues: { ':paid': add.paidCents, ':processing': add.processingCents },
  },
});

export const dynamoCommissionMoney: CommissionMoneyStore = {
  async get(id) {
    const result = await db().send(
      new GetCommand({ TableName: tableName(), Key: commissionKey(id), ConsistentRead: true }),
    );
    return result.Item?.entity === 'commission' ? (result.Item as CommissionRecord) : undefined;
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
    const result = await db().send(
      new GetCommand({
        TableName: tableName(),
        Key: earningsKey(memberId),
        ConsistentRead: true,
        ProjectionExpression: 'processingCents',
      }),
    );
    return Number(result.Item?.processingCents ?? 0);
  },

  reserveTransfer(id, now) {
    return conditionalUpdate({
      TableName: tableName(),
      Key: commissionKey(id),
      UpdateExpression:
        'SET transferPendingAt = if_not_exists(transferPendingAt, :now), transferAttempt = if_not_exists(transferAttempt, :zero)',
      ConditionExpression: 'isInCustomersAccount = :zero AND orderFulfilled = :one',
      ExpressionAttributeValues: { ':now': now, ':zero': 0, ':one': 1 },
    });
  },

  async refuseTransfer(id, attempt, failure, now) {
    return (
      (await conditionalUpdate({
        TableName: tableName(),
        Key: commissionKey(id),
        UpdateExpression:
          'SET transferFailure = :failure, transferAttempt = transferAttempt + :one, updatedAt = :now REMOVE transferPendingAt',
        ConditionExpression: 'isInCustomersAccount = :zero AND transferAttempt = :attempt',
        ExpressionAttributeValues: { ':failure': failure, ':one': 1, ':zero': 0, ':now': now, ':attempt': attempt },
      })) !== undefined
    );
  },

  completeTransfer(commission, transferId, now) {
    const amount = commission.amountCents;
    return transaction([
      {
        Update: {
          TableName: tableName(),
          Key: commissionKey(commission.id),
          UpdateExpression:
            'SET isInCustomersAccount = :one, transferId = :transfer, transferredAt = :now, updatedAt = :now, gsi2pk = :stage',
          ConditionExpression: 'isInCustomersAccount = :zero AND orderFulfilled = :one',
          ExpressionAttributeValues: {
            ':one': 1,
            ':zero': 0,
            ':transfer': transferId,
            ':now': now,
            ':stage': STAGE_TO_BE_PAYED,
          },
        },
      },
      counters({ toStripeCount: -1, toStripeCents: -amount, toBePayedCount: 1, toBePayedCents: amount }),
    ]);
  },

  reservePayout(id, now) {
    return conditionalUpdate({
      TableName: tableName(),
      Key: commissionKey(id),
      UpdateExpression:
        'SET payoutAttempt = if_not_exists(payoutAttempt, :zero), payoutPendingAt = if_not_exists(payoutPendingAt, :now)',
      ConditionExpression: 'isInCustomersAccount = :one AND isPayed = :zero',
      ExpressionAttributeValues: { ':now': now, ':zero': 0, ':one': 1 },
    });
  },

  completePayout(commission, attempt, payoutId, now) {
    const amount = commission.amountCents;
    return transaction([
      {
        Update: {
          TableName: tableName(),
          Key: commissionKey(commission.id),
          UpdateExpression:
            'SET isPayed = :one, payoutId = :payout, payoutFailure = :null, paidAt = :now, updatedAt = :now REMOVE gsi2pk, gsi2sk, payoutPendingAt',
          ConditionExpression: 'isInCustomersAccount = :one AND isPayed = :zero AND payoutAttempt = :attempt',
          ExpressionAttributeValues: {
            ':one': 1,
            ':zero': 0,
            ':payout': payoutId,
            ':null': null,
            ':now': now,
            ':attempt': attempt,
          },
        },
      },
      counters({ toBePayedCount: -1, toBePayedCents: -amount, paidCents: amount, processingCents: -amount }),
      earnings(commission.memberId, { paidCents: amount, processingCents: -amount }),
    ]);
  },

  reversePayout(commission, payoutId, failure, now) {
    const amount = commission.amountCents;
    return transaction([
      {
        Update: {
          TableName: tableName(),
          Key: commissionKey(commission.id),
          UpdateExpression:
            'SET isPayed = :zero, payoutId = :null, failedPayoutId = :payout, payoutFailure = :failure, payoutAttempt = payoutAttempt + :one, updatedAt = :now, gsi2pk = :stage, gsi2sk = :sort REMOVE paidAt, payoutPaidAt',
          ConditionExpression: 'isPayed = :one AND payoutId = :payout',
          ExpressionAttributeValues: {
            ':zero': 0,
            ':one': 1,
            ':null': null,
            ':payout': payoutId,
            ':failure': failure,
            ':now': now,
            ':stage': STAGE_TO_BE_PAYED,
            ':sort': `${commission.createdAt}#${commission.id}`,
          },
        },
      },
      counters({ toBePayedCount: 1, toBePayedCents: amount, paidCents: -amount, processingCents: amount }),
      earnings(commission.memberId, { paidCents: -amount, processingCents: amount }),
    ]);
  },

  async failPendingPayout(id, attempt, failure, now) {
    return (
      (await conditionalUpdate({
        TableName: tableName(),
        Key: commissionKey(id),
        UpdateExpression:
          'SET payoutFailure = :failure, payoutAttempt = payoutAttempt + :one, updatedAt = :now REMOVE payoutPendingAt',
        ConditionExpression: 'isPayed = :zero AND payoutAttempt = :attempt',
        ExpressionAttributeValues: { ':failure': failure, ':one': 1, ':zero': 0, ':now': now, ':attempt': attempt },
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
