import { DeleteCommand, GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { commissionIs, commissionMove, updateExpression, type StatusMove } from '@portal/shared/db/sales-status';
import { keys, lists, shardOf } from '@portal/shared/db/table';
import { commissionStatusOf } from '@portal/shared/domain/sales-status';
import type {
  BatchCommission,
  CandidateCommission,
  ClaimResult,
  MemberBatch,
  PayoutBatchStore,
  StoredBatchState,
} from '../../commissions/batch-store';
import {
  batchGetAll,
  db,
  decodeCursor,
  encodeCursor,
  isConditionFailed,
  queryPages,
  tableName,
  transact,
} from '../dynamo-client';

/**
 * The payout batches on the table (commissions/batches.ts): the member's lock
 * (`USER#<id>` / `PAYOUT_LOCK`), their part of a batch (`BATCH#<batchId>` / `MEMBER#<id>`), their
 * clawback debt (`USER#<id>` / `OWED`), and the commission moves, each one transaction with the
 * batch item first and the counters and earnings ADDed on the batch's own shard.
 */

type TransactItems = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>;

const TO_BE_PAID = lists.commissionsAt('to_be_paid').partition;

/** A transaction: true, or false when a condition failed (the reasons say which item). */
async function transaction(items: TransactItems): Promise<{ ok: true } | { ok: false; failedAt: number[] }> {
  const outcome = await transact(items);
  return outcome.ok ? outcome : { ok: false, failedAt: outcome.failedAt };
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

/** The commissions the batch's payout carries: those in Stripe, and those its transfer carried (not wholly netted). */
const paidBy = (batch: MemberBatch) =>
  batch.commissions.filter((c) => c.from === 'in_stripe' || c.nettedCents < c.amountCents);

/**
 * A record step's first item: the batch item moved on from `from`, its attributes SET from
 * `set` (name → value), while its state is `from` and `also` holds.
 */
function batchMove(
  batch: MemberBatch,
  from: StoredBatchState,
  set: Record<string, unknown>,
  also?: { condition: string; values: Record<string, unknown>; names?: Record<string, string> },
): TransactItems[number] {
  const fields = Object.entries(set);
  return {
    Update: {
      TableName: tableName(),
      Key: batchKey(batch),
      UpdateExpression: `SET ${fields.map((_, index) => `#f${index} = :f${index}`).join(', ')}`,
      ConditionExpression: `#state = :from${also ? ` AND ${also.condition}` : ''}`,
      ExpressionAttributeNames: {
        '#state': 'state',
        ...also?.names,
        ...Object.fromEntries(fields.map(([name], index) => [`#f${index}`, name])),
      },
      ExpressionAttributeValues: {
        ':from': from,
        ...Object.fromEntries(fields.map(([, value], index) => [`:f${index}`, value])),
        ...also?.values,
      },
    },
  };
}

/**
 * A commission the step moves (along `move`, the transition table's, when its status changes),
 * with its SET and REMOVE, while `condition` holds (and its status is the move's).
 */
function carried(
  id: string,
  step: { move?: StatusMove; set?: string[]; remove?: string[]; condition: string; values: Record<string, unknown> },
): TransactItems[number] {
  const { move } = step;
  const set = step.set ?? [];
  const remove = step.remove ?? [];
  return {
    Update: {
      TableName: tableName(),
      Key: keys.commission(id),
      UpdateExpression: move
        ? updateExpression(move, set, remove)
        : `${set.length ? `SET ${set.join(', ')}` : ''}${remove.length ? `${set.length ? ' ' : ''}REMOVE ${remove.join(', ')}` : ''}`,
      ConditionExpression: move ? `${move.condition} AND ${step.condition}` : step.condition,
      ...(move ? { ExpressionAttributeNames: move.names } : {}),
      ExpressionAttributeValues: { ...move?.values, ...step.values },
    },
  };
}

/** One record step: the batch item's move, the commissions', then counters and earnings, in one transaction. */
async function record(
  batchItem: TransactItems[number],
  commissions: TransactItems,
  totals: TransactItems,
): Promise<boolean> {
  return (await transaction([batchItem, ...commissions, ...totals])).ok;
}

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
    for await (const page of queryPages({
      IndexName: list.index,
      KeyConditionExpression: 'gsi3pk = :pk',
      FilterExpression: 'attribute_not_exists(batchId)',
      ExpressionAttributeValues: { ':pk': list.partition },
      ScanIndexForward: true,
    })) {
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
          ...(typeof item.payoutFailure === 'string' ? { payoutFailure: item.payoutFailure } : {}),
          ...(typeof item.payoutFailureCode === 'string' ? { payoutFailureCode: item.payoutFailureCode } : {}),
          ...(typeof item.failedPayoutId === 'string' ? { failedPayoutId: item.failedPayoutId } : {}),
          ...(typeof item.failedPayoutCents === 'number' ? { failedPayoutCents: item.failedPayoutCents } : {}),
          ...(typeof item.updatedAt === 'string' ? { updatedAt: item.updatedAt } : {}),
        });
        if (status === 'processing' && !item.transferPendingAt && (availableAt === undefined || availableAt <= now)) {
          found.push(candidate('processing'));
        } else if (status === 'in_stripe' && !item.payoutPendingAt && !item.reversalPending) {
          // A refund's transfer reversal reserved on it (commissions/refunds.ts) takes its share first: skipped until then.
          found.push(candidate('in_stripe'));
        }
      }
      if (found.length >= 1000) break;
    }
    return found;
  },

  async owed(memberId) {
    const result = await db().send(
      new GetCommand({ TableName: tableName(), Key: keys.memberOwed(memberId), ConsistentRead: true }),
    );
    const owed = result.Item?.owedCents;
    return typeof owed === 'number' && owed > 0 ? owed : 0;
  },

  async debts(cursor, limit) {
    const list = lists.memberDebts;
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: list.index,
        KeyConditionExpression: 'gsi1pk = :partition',
        ExpressionAttributeValues: { ':partition': list.partition },
        Limit: limit,
        ExclusiveStartKey: decodeCursor(cursor, {
          attributes: ['pk', 'sk', 'gsi1pk', 'gsi1sk'],
          equals: { gsi1pk: list.partition, sk: 'OWED' },
          startsWith: { pk: 'USER#' },
        }),
      }),
    );
    const owing = (page.Items ?? []).flatMap((item) =>
      typeof item.memberId === 'string' && typeof item.owedCents === 'number' && item.owedCents > 0
        ? [{ memberId: item.memberId, owedCents: item.owedCents }]
        : [],
    );
    const users = owing.length
      ? await batchGetAll(
          owing.map((debt) => ({ ...keys.user(debt.memberId) })),
          { expression: '#id, #email', names: { '#id': 'id', '#email': 'email' } },
        )
      : [];
    const emails = new Map(users.map((user) => [String(user.id), String(user.email ?? '')]));
    return {
      items: owing.map((debt) => ({ ...debt, memberEmail: emails.get(debt.memberId) ?? '' })),
      nextCursor: encodeCursor(page.LastEvaluatedKey),
    };
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
          // The last cent netted: the member leaves the admin's list of debts (lists.memberDebts).
          UpdateExpression:
            batch.nettedCents >= batch.owedSeenCents
              ? 'SET owedCents = owedCents - :netted REMOVE gsi1pk, gsi1sk'
              : 'SET owedCents = owedCents - :netted',
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

  release(batch, failure, now) {
    return record(
      batchMove(batch, 'claimed', { state: 'released', failure, updatedAt: now }),
      batch.commissions.map((commission) =>
        carried(commission.id, {
          remove: commission.from === 'processing' ? ['batchId', 'nettedCents'] : ['batchId'],
          condition: 'batchId = :batch',
          values: { ':batch': batch.batchId },
        }),
      ),
      batch.nettedCents > 0
        ? [
            {
              Update: {
                TableName: tableName(),
                Key: keys.memberOwed(batch.memberId),
                // The debt given back: the member is in the admin's list of debts again.
                UpdateExpression: 'SET gsi1pk = :debts, gsi1sk = :member ADD owedCents :netted',
                ExpressionAttributeValues: {
                  ':netted': batch.nettedCents,
                  ':debts': lists.memberDebts.partition,
                  ':member': batch.memberId,
                },
              },
            },
          ]
        : [],
    );
  },

  recordTransfer(batch, now) {
    const next = batch.kind === 'send' ? 'sent' : 'transferred';
    const processing = batch.commissions.filter((c) => c.from === 'processing');
    const settled = processing.filter((c) => c.nettedCents >= c.amountCents);
    const moved = processing.filter((c) => c.nettedCents < c.amountCents);
    const settledCents = total(settled);
    // Each commission names its own transfer (its charge's): a refund reverses that one.
    const transferOf = new Map<string, string | null>();
    for (const part of batch.transfers ?? []) for (const id of part.commissionIds) transferOf.set(id, part.id);
    return record(
      batchMove(batch, 'claimed', { state: next, transfers: batch.transfers ?? [], updatedAt: now }),
      [
        ...moved.map((commission) => {
          const transferId = transferOf.get(commission.id) ?? null;
          return carried(commission.id, {
            move: commissionMove('processing', 'in_stripe'),
            set: ['transferId = :transfer', 'transferredAt = :now', 'updatedAt = :now', 'gsi2pk = :stage'],
            // A `send` frees them at once: each may then be paid by its own button or a later batch.
            remove: batch.kind === 'send' ? ['batchId'] : [],
            condition: 'batchId = :batch',
            values: { ':transfer': transferId, ':now': now, ':stage': TO_BE_PAID, ':batch': batch.batchId },
          });
        }),
        ...settled.map((commission) =>
          carried(commission.id, {
            move: commissionMove('processing', 'paid'),
            set: ['settledBatchId = :batch', 'paidAt = :now', 'updatedAt = :now'],
            remove: ['gsi2pk', 'gsi2sk', 'batchId'],
            condition: 'batchId = :batch',
            values: { ':now': now, ':batch': batch.batchId },
          }),
        ),
      ],
      [
        ...counters(batch, {
          toStripeCount: -processing.length,
          toStripeCents: -total(processing),
          toBePaidCount: moved.length,
          toBePaidCents: total(moved),
          paidCents: settledCents,
          processingCents: -settledCents,
        }),
        ...earnings(batch, settledCents),
      ],
    );
  },

  refusePayout(batch, failure, now) {
    // The reason on each commission the payout would carry too: the admin's lists and home show it.
    return record(
      batchMove(
        batch,
        'transferred',
        { failure, payoutAttempt: batch.payoutAttempt + 1, updatedAt: now },
        { condition: 'payoutAttempt = :attempt', values: { ':attempt': batch.payoutAttempt } },
      ),
      paidBy(batch).map((commission) =>
        carried(commission.id, {
          set: ['payoutFailure = :failure', 'updatedAt = :now'],
          // A refusal's reason is Stripe's message; a failed payout's code before it no longer words it.
          remove: ['payoutFailureCode'],
          condition: 'batchId = :batch',
          values: { ':failure': failure, ':now': now, ':batch': batch.batchId },
        }),
      ),
      [],
    );
  },

  async fallBackToStandard(batch, reason, topUpCents, now) {
    const result = await transaction([
      batchMove(
        batch,
        'transferred',
        {
          method: 'standard',
          feeCents: 0,
          payoutCents: batch.payoutCents + topUpCents,
          topUpCents,
          topUpTransferId: null,
          instantRefused: reason,
          payoutAttempt: batch.payoutAttempt + 1,
          updatedAt: now,
        },
        {
          condition: 'payoutAttempt = :attempt AND #method = :instant',
          values: { ':attempt': batch.payoutAttempt, ':instant': 'instant' },
          names: { '#method': 'method' },
        },
      ),
    ]);
    return result.ok;
  },

  async recordTopUp(batch, transferId, now) {
    const result = await transaction([
      batchMove(
        batch,
        'transferred',
        { topUpTransferId: transferId, updatedAt: now },
        { condition: 'topUpTransferId = :none', values: { ':none': null } },
      ),
    ]);
    return result.ok;
  },

  dropPayout(batch, failure, now) {
    return record(
      batchMove(
        batch,
        'transferred',
        { state: 'payout_failed', failure, payoutAttempt: batch.payoutAttempt + 1, updatedAt: now },
        { condition: 'payoutAttempt = :attempt', values: { ':attempt': batch.payoutAttempt } },
      ),
      paidBy(batch).map((commission) =>
        carried(commission.id, {
          set: ['payoutFailure = :failure', 'updatedAt = :now'],
          remove: ['batchId', 'payoutFailureCode'],
          condition: 'batchId = :batch',
          values: { ':failure': failure, ':now': now, ':batch': batch.batchId },
        }),
      ),
      [],
    );
  },

  recordPayout(batch, payoutId, now) {
    const paid = paidBy(batch);
    const paidCents = total(paid);
    return record(
      batchMove(
        batch,
        'transferred',
        {
          state: 'paid',
          payoutId,
          method: batch.method,
          arrivalDate: batch.arrivalDate ?? null,
          failure: null,
          updatedAt: now,
        },
        { condition: 'payoutAttempt = :attempt', values: { ':attempt': batch.payoutAttempt } },
      ),
      paid.map((commission) =>
        carried(commission.id, {
          move: commissionMove('in_stripe', 'paid'),
          set: [
            'payoutId = :payout',
            'payoutFailure = :null',
            'payoutArrivalDate = :arrival',
            'paidAt = :now',
            'updatedAt = :now',
          ],
          remove: ['gsi2pk', 'gsi2sk', 'batchId', 'payoutPendingAt', 'payoutFailureCode'],
          condition: 'batchId = :batch',
          values: {
            ':payout': payoutId,
            ':null': null,
            ':arrival': batch.arrivalDate ?? null,
            ':now': now,
            ':batch': batch.batchId,
          },
        }),
      ),
      [
        ...counters(batch, {
          toBePaidCount: -paid.length,
          toBePaidCents: -paidCents,
          paidCents,
          processingCents: -paidCents,
        }),
        ...earnings(batch, paidCents),
      ],
    );
  },

  failPayout(batch, payoutId, failure, now, feeBackCents = 0, failureCode = null) {
    const paid = paidBy(batch);
    const paidCents = total(paid);
    return record(
      batchMove(
        batch,
        'paid',
        {
          state: 'payout_failed',
          failure,
          updatedAt: now,
          ...(feeBackCents > 0 ? { feeBackCents, feeBackTransferId: null } : {}),
        },
        { condition: 'payoutId = :payout', values: { ':payout': payoutId } },
      ),
      paid.map((commission) =>
        carried(commission.id, {
          move: commissionMove('paid', 'in_stripe'),
          set: [
            'payoutId = :null',
            'failedPayoutId = :payout',
            'failedPayoutCents = :payoutCents',
            'payoutFailure = :failure',
            'payoutFailureCode = :failureCode',
            'updatedAt = :now',
            'gsi2pk = :stage',
            'gsi2sk = :sort',
          ],
          remove: ['paidAt', 'payoutPaidAt'],
          condition: 'payoutId = :payout',
          values: {
            ':null': null,
            ':payout': payoutId,
            ':payoutCents': batch.payoutCents,
            ':failure': failure,
            ':failureCode': failureCode,
            ':now': now,
            ':stage': TO_BE_PAID,
            ':sort': `${commission.createdAt}#${commission.id}`,
          },
        }),
      ),
      [
        ...counters(batch, {
          toBePaidCount: paid.length,
          toBePaidCents: paidCents,
          paidCents: -paidCents,
          processingCents: paidCents,
        }),
        ...earnings(batch, -paidCents),
      ],
    );
  },

  async recordFeeBack(batch, transferId, now) {
    const result = await transaction([
      batchMove(
        batch,
        'payout_failed',
        { feeBackTransferId: transferId, updatedAt: now },
        {
          condition: 'payoutId = :payout AND feeBackTransferId = :none',
          values: { ':payout': batch.payoutId, ':none': null },
        },
      ),
    ]);
    return result.ok;
  },

  async acknowledgePayoutPaid(batch, payoutId, paidAt) {
    try {
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: batchKey(batch),
          UpdateExpression: 'SET payoutPaidAt = if_not_exists(payoutPaidAt, :at)',
          ConditionExpression: '#state = :paid AND payoutId = :payout',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':at': paidAt, ':paid': 'paid', ':payout': payoutId },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailed(error)) return false;
      throw error;
    }
  },

  async membersWithOpenCommissions() {
    const members = new Map<string, string>();
    for (const stage of ['to_stripe', 'to_be_paid'] as const) {
      const list = lists.commissionsAt(stage);
      let read = 0;
      for await (const page of queryPages({
        IndexName: list.index,
        KeyConditionExpression: 'gsi2pk = :pk',
        ExpressionAttributeValues: { ':pk': list.partition },
        ProjectionExpression: 'memberId, memberEmail',
      })) {
        for (const item of page.Items ?? []) {
          if (typeof item.memberId === 'string' && !members.has(item.memberId)) {
            members.set(item.memberId, String(item.memberEmail ?? ''));
          }
        }
        read += page.Items?.length ?? 0;
        if (read >= 50_000) break;
      }
    }
    return [...members].map(([memberId, memberEmail]) => ({ memberId, memberEmail }));
  },
};
