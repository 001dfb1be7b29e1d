import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { EARNINGS_PREFIX, keys, lists, topEarnerSortKey } from '@portal/shared/db/table';
import type { Earnings } from '../orders/sales-store';
import { db, isConditionFailed, queryAll, tableName } from './dynamo-client';

/**
 * A member's earnings and their place among the top earners (the EARNINGS items and their shards):
 * the sale recorder (orders) writes them with a sale, the commissions read and refresh them
 * (decision 0401: a common adapter helper, so neither capability's folder reads the other's).
 */

export const sortKey = (time: string, id: string) => `${time}#${id}`;

export const num = (value: unknown): number => (typeof value === 'number' ? value : 0);

/** A top earner as their EARNINGS item ranks them: the sums of their last refresh (or the totals of before). */
export function toEarnings(item: Record<string, unknown>): Earnings {
  return {
    memberId: String(item.memberId),
    memberEmail: String(item.memberEmail ?? ''),
    count: typeof item.rankCount === 'number' ? item.rankCount : num(item.count),
    totalCents: typeof item.rankCents === 'number' ? item.rankCents : num(item.totalCents),
    paidCents: num(item.paidCents),
    processingCents: num(item.processingCents),
  };
}

/** A member's earnings items: their shards and the EARNINGS item (totals of before, the rank), one Query. */
async function earningsItems(memberId: string): Promise<Record<string, unknown>[]> {
  return queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.earnings(memberId).pk, ':prefix': EARNINGS_PREFIX },
    ConsistentRead: true,
  });
}

const sumOf = (found: readonly Record<string, unknown>[], name: string) =>
  found.reduce((total, item) => total + num(item[name]), 0);

function earningsOf(memberId: string, found: readonly Record<string, unknown>[]): Earnings | undefined {
  if (found.length === 0) return undefined;
  const base = found.find((item) => item.sk === EARNINGS_PREFIX);
  return {
    memberId,
    memberEmail: String(base?.memberEmail ?? ''),
    count: sumOf(found, 'count'),
    totalCents: sumOf(found, 'totalCents'),
    paidCents: sumOf(found, 'paidCents'),
    processingCents: sumOf(found, 'processingCents'),
  };
}

/**
 * A member's totals: the sum of their earnings shards and of the totals kept before the shards
 * (the EARNINGS item's own `count`/`totalCents`/`paidCents`/`processingCents`), one Query.
 */
export async function earnings(memberId: string): Promise<Earnings | undefined> {
  return earningsOf(memberId, await earningsItems(memberId));
}

/**
 * The member's place among the top earners, from the sum of their shards: written on the EARNINGS
 * item unless a later refresh wrote a newer one already. What orders the refreshes is the rank
 * version, the sum of the shards' `count` (a sale ADDs 1) and `rankMoves` (a refund that takes
 * from a commission ADDs 1): it only grows, and every change of the totals moves it, so the last
 * refresh to read the newest sums wins whether a sale raised them or a refund lowered them. A
 * refresh that failed is retried from the table's stream (the places function, decision 0481).
 */
export async function refreshRank(memberId: string): Promise<void> {
  // The member's address as it is now (an address changed since their last sale shows at once).
  const [found, profile] = await Promise.all([
    earningsItems(memberId),
    db().send(new GetCommand({ TableName: tableName(), Key: keys.user(memberId), ProjectionExpression: 'email' })),
  ]);
  const sums = earningsOf(memberId, found);
  if (!sums) return;
  const email = typeof profile.Item?.email === 'string' ? profile.Item.email : sums.memberEmail;
  const version = sums.count + sumOf(found, 'rankMoves');
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.earnings(memberId),
        UpdateExpression:
          'SET entity = :entity, memberId = :member, memberEmail = :email, rankCount = :count, rankCents = :total, ' +
          'rankVersion = :version, gsi1pk = :top, gsi1sk = :rank',
        // Items ranked before the version: by their count, as then.
        ConditionExpression:
          '(attribute_not_exists(rankVersion) AND (attribute_not_exists(rankCount) OR rankCount <= :count)) OR rankVersion < :version',
        ExpressionAttributeValues: {
          ':entity': 'earnings',
          ':member': memberId,
          ':email': email,
          ':count': sums.count,
          ':total': sums.totalCents,
          ':version': version,
          ':top': lists.topEarners.partition,
          ':rank': topEarnerSortKey(sums.totalCents, memberId),
        },
      }),
    );
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
  }
}
