import { DeleteCommand, GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { commissionIs, commissionMove, updateExpression } from '@portal/shared/db/sales-status';
import { keys, lists, shardOf } from '@portal/shared/db/table';
import { commissionStatusOf } from '@portal/shared/domain/sales-status';
import type {
  BatchCommission,
  CandidateCommission,
  ClaimResult,
  MemberBatch,
  PayoutBatchStore,
} from '../commissions/batch-store';
import { backoff, cancellationReasons, db, isConditionFailed, isTransactionConflict, tableName } from './dynamo-client';

/**
 * The payout batches on the table (commissions/batches.ts): the member's lock
 * (`USER#<id>` / `PAYOUT_LOCK`), their part of a batch (`BATCH#<batchId>` / `MEMBER#<id>`), their
 * clawback debt (`USER#<id>` / `OWED`), and the commission moves, each one transaction with the
 * batch item first and the counters and earnings ADDed on the batch's own shard.
 */

type TransactItems = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>;

const TO_BE_PAID = lists.commissionsAt('to_be_paid').partition;
const MAX_CONFLICT_TRIES = 5;

/** A transaction: true, or false when a condition failed (the reasons say which item). */
async function transaction(items: TransactItems): Promise<{ ok: true } | { ok: false; failedAt: number[] }> {
  for (let attempt = 0; ; attempt++) {
    try {
      await db().send(new TransactWriteCommand({ TransactItems: items }));
      return { ok: true };
    } catch (error) {
      const reasons = cancellationReasons(error);
      const failedAt = (reasons ?? []).flatMap((reason, index) =>
        reason.Code === 'ConditionalCheckFailed' ? [index] : [],
      );
      if (failedAt.length) return { ok: false, failedAt };
      if (isTransactionConflict(error) && attempt < MAX_CONFLICT_TRIES) {
        await backoff(attempt);
        continue;
      }
      throw error;
    }
  }
}

const batchKey = (batch: Pick<MemberBatch, 'batchId' | 'memberId'>) => keys.payoutBatch(batch.batchId, batch.memberId);
/** Every ADD of a batch goes to one shard of the counters and of the member's earnings: the batch's own. */
const shard = (batch: MemberBatch) => shardOf(`${batch.batchId}#${batch.memberId}`);

function counters(batch: MemberBatch, add: Record<string, number>) {
  const entries = Object.entries(add).filter(([, value]) => value !== 0);
  if (!entries.length) return [];
  return [
    {
      Update: {
        TableName: tableName(),
        Key: keys.commissionsCounterShard(shard(batch)),
        UpdateExpression: `ADD ${entries.map(([name]) => `${name} :${name}`).join(', ')}`,
        ExpressionAttributeValues: Object.fromEntries(entries.map(([name, value]) => [`:${name}`, value])),
      },
    },
  ];
}

function earnings(batch: MemberBatch, paidCents: number) {
  if (!paidCents) return [];
  return [
    {
      Update: {
        TableName: tableName(),
        Key: keys.earningsShard(batch.memberId, shard(batch)),
        UpdateExpression: 'ADD paidCents :paid, processingCents :processing',
        ExpressionAttributeValues: { ':paid': paidCents, ':processing': -paidCents },
      },
    },
  ];
}

const toBatch = (item: Record<string, unknown>): MemberBatch => {
  const { pk: _pk, sk: _sk, entity: _entity, ...rest } = item;
  return rest as unknown as MemberBatch;
};

const total = (items: readonly BatchCommission[]) => items.reduce((sum, item) => sum + item.amountCents, 0);

export const dynamoPayoutBatches: PayoutBatchStore = {
  async lock(memberId, batchId, now, busyUntil) {
    try {
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.payoutLock(memberId),
          UpdateExpression: 'SET entity = :entity, openBatchId = :batch, busyUntil = :until',
          ConditionExpression: 'attribute_not_exists(openBatchId) OR openBatchId = :batch',
          ExpressionAttributeValues: { ':entity': 'payout-lock', ':batch': batchId, ':until': busyUntil },
        }),
      );
      return { acquired: true };
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
      const held = (
        await db().send(
          new GetCommand({ TableName: tableName(), Key: keys.payoutLock(memberId), ConsistentRead: true }),
        )
      ).Item;
      if (!held?.openBatchId) return this.lock(memberId, batchId, now, busyUntil);
      return {
        acquired: false,
        openBatchId: String(held.openBatchId),
        busy: typeof held.busyUntil === 'number' && held.busyUntil > now,
      };
    }
  },

  async pause(memberId, batchId) {
    try {
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.payoutLock(memberId),
          UpdateExpression: 'REMOVE busyUntil',
          ConditionExpression: 'openBatchId = :batch',
          ExpressionAttributeValues: { ':batch': batchId },
        }),
      );
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
    }
  },

  async unlock(memberId, batchId) {
    try {
      await db().send(
        new DeleteCommand({
          TableName: tableName(),
          Key: keys.payoutLock(memberId),
          ConditionExpression: 'openBatchId = :batch',
          ExpressionAttributeValues: { ':batch': batchId },
        }),
      );
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
    }
  },

  async get(batchId, memberId) {
    const result = await db().send(
      new GetCommand({ TableName: tableName(), Key: keys.payoutBatch(batchId, memberId), ConsistentRead: true }),
    );
    return result.Item ? toBatch(result.Item) : undefined;
  },

  async candidates(memberId, now) {
    const list = lists.commissionsOf(memberId);
    const found: CandidateCommission[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await db().send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: list.index,
          KeyConditionExpression: 'gsi3pk = :pk',
          FilterExpression: 'attribute_not_exists(batchId)',
          ExpressionAttributeValues: { ':pk': list.partition },
          ScanIndexForward: true,
          ExclusiveStartKey: start,
        }),
      );
      for (const item of page.Items ?? []) {
        const status = commissionStatusOf(item);
        const availableAt = typeof item.availableAt === 'number' ? item.availableAt : undefined;
        const candidate = (from: BatchCommission['from']): CandidateCommission => ({
          id: String(item.id),
          amountCents: Number(item.amountCents),
          from,
          nettedCents: typeof item.nettedCents === 'number' ? item.nettedCents : 0,
          ...(typeof item.chargeId === 'string' ? { chargeId: item.chargeId } : {}),
          orderID: String(item.orderID ?? ''),
          createdAt: String(item.createdAt ?? ''),
        });
        if (status === 'processing' && !item.transferPendingAt && (availableAt === undefined || availableAt <= now)) {
          found.push(candidate('processing'));
        } else if (status === 'in_stripe' && !item.payoutPendingAt) {
          found.push(candidate('in_stripe'));
        }
      }
      start = page.LastEvaluatedKey;
    } while (start && found.length < 1000);
    return found;
  },

  async owed(memberId) {
    const result = await db().send(
      new GetCommand({ TableName: tableName(), Key: keys.memberOwed(memberId), ConsistentRead: true }),
    );
    const owed = result.Item?.owedCents;
    return typeof owed === 'number' && owed > 0 ? owed : 0;
  },

  async claim(batch) {
    const items: TransactItems = [
      {
        Put: {
          TableName: tableName(),
          Item: { ...batchKey(batch), entity: 'payout-batch', ...batch },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ];
    for (const commission of batch.commissions) {
      const status = commissionIs(commission.from);
      const pending = commission.from === 'processing' ? 'transferPendingAt' : 'payoutPendingAt';
      items.push({
        Update: {
          TableName: tableName(),
          Key: keys.commission(commission.id),
          UpdateExpression:
            commission.from === 'processing' ? 'SET batchId = :batch, nettedCents = :netted' : 'SET batchId = :batch',
          // The amount as read (a refund changes it) and no refund's reversal reserved (commissions/refunds.ts).
          ConditionExpression: `${status.condition} AND attribute_not_exists(batchId) AND attribute_not_exists(${pending}) AND amountCents = :amount AND attribute_not_exists(reversalPending)`,
          ExpressionAttributeNames: status.names,
          ExpressionAttributeValues: {
            ...status.values,
            ':batch': batch.batchId,
            ':amount': commission.amountCents,
            ...(commission.from === 'processing' ? { ':netted': commission.nettedCents } : {}),
          },
        },
      });
    }
    // The debt as read: lowered by what the batch nets, or checked unchanged when it nets nothing.
    const processing = batch.commissions.some((c) => c.from === 'processing');
    if (batch.nettedCents > 0) {
      items.push({
        Update: {
          TableName: tableName(),
          Key: keys.memberOwed(batch.memberId),
          UpdateExpression: 'SET owedCents = owedCents - :netted',
          ConditionExpression: 'owedCents = :seen',
          ExpressionAttributeValues: { ':netted': batch.nettedCents, ':seen': batch.owedSeenCents },
        },
      });
    } else if (processing) {
      items.push({
        ConditionCheck: {
          TableName: tableName(),
          Key: keys.memberOwed(batch.memberId),
          ConditionExpression: 'attribute_not_exists(owedCents) OR owedCents <= :zero',
          ExpressionAttributeValues: { ':zero': 0 },
        },
      });
    }
    const result = await transaction(items);
    if (result.ok) return 'claimed';
    return (result.failedAt.includes(0) ? 'exists' : 'changed') satisfies ClaimResult;
  },

  async release(batch, failure, now) {
    const items: TransactItems = [
      {
        Update: {
          TableName: tableName(),
          Key: batchKey(batch),
          UpdateExpression: 'SET #state = :released, failure = :failure, updatedAt = :now',
          ConditionExpression: '#state = :claimed',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: {
            ':released': 'released',
            ':claimed': 'claimed',
            ':failure': failure,
            ':now': now,
          },
        },
      },
      ...batch.commissions.map((commission) => ({
        Update: {
          TableName: tableName(),
          Key: keys.commission(commission.id),
          UpdateExpression: commission.from === 'processing' ? 'REMOVE batchId, nettedCents' : 'REMOVE batchId',
          ConditionExpression: 'batchId = :batch',
          ExpressionAttributeValues: { ':batch': batch.batchId },
        },
      })),
      ...(batch.nettedCents > 0
        ? [
            {
              Update: {
                TableName: tableName(),
                Key: keys.memberOwed(batch.memberId),
                UpdateExpression: 'ADD owedCents :netted',
                ExpressionAttributeValues: { ':netted': batch.nettedCents },
              },
            },
          ]
        : []),
    ];
    return (await transaction(items)).ok;
  },

  async recordTransfer(batch, transferId, now) {
    const next = batch.kind === 'send' ? 'sent' : 'transferred';
    const processing = batch.commissions.filter((c) => c.from === 'processing');
    const settled = processing.filter((c) => c.nettedCents >= c.amountCents);
    const moved = processing.filter((c) => c.nettedCents < c.amountCents);
    const items: TransactItems = [
      {
        Update: {
          TableName: tableName(),
          Key: batchKey(batch),
          UpdateExpression: 'SET #state = :next, transferId = :transfer, updatedAt = :now',
          ConditionExpression: '#state = :claimed',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':next': next, ':claimed': 'claimed', ':transfer': transferId, ':now': now },
        },
      },
    ];
    for (const commission of moved) {
      const move = commissionMove('processing', 'in_stripe');
      items.push({
        Update: {
          TableName: tableName(),
          Key: keys.commission(commission.id),
          UpdateExpression: updateExpression(
            move,
            ['transferId = :transfer', 'transferredAt = :now', 'updatedAt = :now', 'gsi2pk = :stage'],
            // A `send` frees them at once: each may then be paid by its own button or a later batch.
            batch.kind === 'send' ? ['batchId'] : [],
          ),
          ConditionExpression: `${move.condition} AND batchId = :batch`,
          ExpressionAttributeNames: move.names,
          ExpressionAttributeValues: {
            ...move.values,
            ':transfer': transferId,
            ':now': now,
            ':stage': TO_BE_PAID,
            ':batch': batch.batchId,
          },
        },
      });
    }
    for (const commission of settled) {
      const move = commissionMove('processing', 'paid');
      items.push({
        Update: {
          TableName: tableName(),
          Key: keys.commission(commission.id),
          UpdateExpression: updateExpression(
            move,
            ['settledBatchId = :batch', 'paidAt = :now', 'updatedAt = :now'],
            ['gsi2pk', 'gsi2sk', 'batchId'],
          ),
          ConditionExpression: `${move.condition} AND batchId = :batch`,
          ExpressionAttributeNames: move.names,
          ExpressionAttributeValues: { ...move.values, ':now': now, ':batch': batch.batchId },
        },
      });
    }
    const settledCents = total(settled);
    items.push(
      ...counters(batch, {
        toStripeCount: -processing.length,
        toStripeCents: -total(processing),
        toBePaidCount: moved.length,
        toBePaidCents: total(moved),
        paidCents: settledCents,
        processingCents: -settledCents,
      }),
      ...earnings(batch, settledCents),
    );
    return (await transaction(items)).ok;
  },

  async refusePayout(batch, failure, now) {
    try {
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: batchKey(batch),
          UpdateExpression: 'SET failure = :failure, payoutAttempt = payoutAttempt + :one, updatedAt = :now',
          ConditionExpression: '#state = :transferred AND payoutAttempt = :attempt',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: {
            ':failure': failure,
            ':one': 1,
            ':now': now,
            ':transferred': 'transferred',
            ':attempt': batch.payoutAttempt,
          },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailed(error)) return false;
      throw error;
    }
  },

  async recordPayout(batch, payoutId, now) {
    const carried = batch.commissions.filter((c) => c.from === 'in_stripe' || c.nettedCents < c.amountCents);
    const items: TransactItems = [
      {
        Update: {
          TableName: tableName(),
          Key: batchKey(batch),
          UpdateExpression:
            'SET #state = :paid, payoutId = :payout, #method = :method, failure = :null, updatedAt = :now',
          ConditionExpression: '#state = :transferred AND payoutAttempt = :attempt',
          ExpressionAttributeNames: { '#state': 'state', '#method': 'method' },
          ExpressionAttributeValues: {
            ':paid': 'paid',
            ':transferred': 'transferred',
            ':payout': payoutId,
            ':method': batch.method,
            ':null': null,
            ':now': now,
            ':attempt': batch.payoutAttempt,
          },
        },
      },
    ];
    for (const commission of carried) {
      const move = commissionMove('in_stripe', 'paid');
      items.push({
        Update: {
          TableName: tableName(),
          Key: keys.commission(commission.id),
          UpdateExpression: updateExpression(
            move,
            ['payoutId = :payout', 'payoutFailure = :null', 'paidAt = :now', 'updatedAt = :now'],
            ['gsi2pk', 'gsi2sk', 'batchId', 'payoutPendingAt'],
          ),
          ConditionExpression: `${move.condition} AND batchId = :batch`,
          ExpressionAttributeNames: move.names,
          ExpressionAttributeValues: {
            ...move.values,
            ':payout': payoutId,
            ':null': null,
            ':now': now,
            ':batch': batch.batchId,
          },
        },
      });
    }
    const paidCents = total(carried);
    items.push(
      ...counters(batch, {
        toBePaidCount: -carried.length,
        toBePaidCents: -paidCents,
        paidCents,
        processingCents: -paidCents,
      }),
      ...earnings(batch, paidCents),
    );
    return (await transaction(items)).ok;
  },

  async failPayout(batch, payoutId, failure, now) {
    const carried = batch.commissions.filter((c) => c.from === 'in_stripe' || c.nettedCents < c.amountCents);
    const items: TransactItems = [
      {
        Update: {
          TableName: tableName(),
          Key: batchKey(batch),
          UpdateExpression: 'SET #state = :failed, failure = :failure, updatedAt = :now',
          ConditionExpression: '#state = :paid AND payoutId = :payout',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: {
            ':failed': 'payout_failed',
            ':paid': 'paid',
            ':payout': payoutId,
            ':failure': failure,
            ':now': now,
          },
        },
      },
    ];
    for (const commission of carried) {
      const move = commissionMove('paid', 'in_stripe');
      items.push({
        Update: {
          TableName: tableName(),
          Key: keys.commission(commission.id),
          UpdateExpression: updateExpression(
            move,
            [
              'payoutId = :null',
              'failedPayoutId = :payout',
              'payoutFailure = :failure',
              'updatedAt = :now',
              'gsi2pk = :stage',
              'gsi2sk = :sort',
            ],
            ['paidAt', 'payoutPaidAt'],
          ),
          ConditionExpression: `${move.condition} AND payoutId = :payout`,
          ExpressionAttributeNames: move.names,
          ExpressionAttributeValues: {
            ...move.values,
            ':null': null,
            ':payout': payoutId,
            ':failure': failure,
            ':now': now,
            ':stage': TO_BE_PAID,
            ':sort': `${commission.createdAt}#${commission.id}`,
          },
        },
      });
    }
    const paidCents = total(carried);
    items.push(
      ...counters(batch, {
        toBePaidCount: carried.length,
        toBePaidCents: paidCents,
        paidCents: -paidCents,
        processingCents: paidCents,
      }),
      ...earnings(batch, -paidCents),
    );
    return (await transaction(items)).ok;
  },

  async membersWithOpenCommissions() {
    const members = new Map<string, string>();
    for (const stage of ['to_stripe', 'to_be_paid'] as const) {
      const list = lists.commissionsAt(stage);
      let start: Record<string, unknown> | undefined;
      let read = 0;
      do {
        const page = await db().send(
          new QueryCommand({
            TableName: tableName(),
            IndexName: list.index,
            KeyConditionExpression: 'gsi2pk = :pk',
            ExpressionAttributeValues: { ':pk': list.partition },
            ProjectionExpression: 'memberId, memberEmail',
            ExclusiveStartKey: start,
          }),
        );
        for (const item of page.Items ?? []) {
          if (typeof item.memberId === 'string' && !members.has(item.memberId)) {
            members.set(item.memberId, String(item.memberEmail ?? ''));
          }
        }
        read += page.Items?.length ?? 0;
        start = page.LastEvaluatedKey;
      } while (start && read < 50_000);
    }
    return [...members].map(([memberId, memberEmail]) => ({ memberId, memberEmail }));
  },
};
