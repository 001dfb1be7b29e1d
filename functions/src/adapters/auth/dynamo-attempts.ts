import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '@portal/shared/db/table';
import { db, isConditionFailed, tableName } from '../dynamo-client';
import type { AttemptStore } from '../../auth/attempt-store';

/**
 * One item per counter: `count` attempts in the window that began at `windowStart` (epoch ms),
 * and for paced counters `notBefore`, the earliest time of the next paced attempt. The item
 * expires (TTL) when its window does.
 */
interface AttemptItem {
  count: number;
  windowStart: number;
  notBefore?: number;
}

const MAX_RESETS = 5;

async function read(key: ReturnType<typeof keys.attempts>): Promise<AttemptItem | undefined> {
  const result = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  return result.Item as AttemptItem | undefined;
}

export const dynamoAttempts: AttemptStore = {
  async take(kind, value, limit, windowMs, now) {
    const key = keys.attempts(kind, value);
    const expiresAt = Math.ceil((now + windowMs) / 1000);
    for (let attempt = 0; attempt < MAX_RESETS; attempt++) {
      try {
        // Count first: the condition lets the write through only while the window is open and
        // below the limit, so of any number of simultaneous attempts exactly `limit` are counted.
        const result = await db().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: key,
            UpdateExpression:
              'ADD #count :one SET windowStart = if_not_exists(windowStart, :now), expiresAt = if_not_exists(expiresAt, :expiresAt), entity = :entity',
            ConditionExpression: 'attribute_not_exists(pk) OR (windowStart > :windowFloor AND #count < :limit)',
            ExpressionAttributeNames: { '#count': 'count' },
            ExpressionAttributeValues: {
              ':one': 1,
              ':now': now,
              ':expiresAt': expiresAt,
              ':entity': 'Attempts',
              ':windowFloor': now - windowMs,
              ':limit': limit,
            },
            ReturnValues: 'ALL_NEW',
          }),
        );
        const item = result.Attributes as AttemptItem;
        return { allowed: true, count: item.count, windowStart: item.windowStart };
      } catch (error) {
        if (!isConditionFailed(error)) throw error;
      }
      const stored = await read(key);
      if (!stored) continue;
      if (stored.windowStart > now - windowMs) {
        // Another instance may have opened the window a moment "after" this one's clock reading.
        return { allowed: false, retryAfterMs: Math.min(windowMs, stored.windowStart + windowMs - now) };
      }
      // The window has run out: start a new one, unless another attempt just did.
      try {
        await db().send(
          new PutCommand({
            TableName: tableName(),
            Item: { ...key, entity: 'Attempts', count: 1, windowStart: now, expiresAt },
            ConditionExpression: 'windowStart = :stale',
            ExpressionAttributeValues: { ':stale': stored.windowStart },
          }),
        );
        return { allowed: true, count: 1, windowStart: now };
      } catch (error) {
        if (!isConditionFailed(error)) throw error;
      }
    }
    throw new Error(`Attempt counter ${kind} kept changing while it was reset ${MAX_RESETS} times`);
  },

  async giveBack(kind, value, windowStart) {
    try {
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.attempts(kind, value),
          UpdateExpression: 'ADD #count :minusOne',
          ConditionExpression: 'windowStart = :windowStart AND #count > :zero',
          ExpressionAttributeNames: { '#count': 'count' },
          ExpressionAttributeValues: { ':minusOne': -1, ':windowStart': windowStart, ':zero': 0 },
        }),
      );
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
    }
  },

  async clear(kind, value) {
    await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.attempts(kind, value) }));
  },

  async pace(kind, value, now, nextAt, onlyIfDue) {
    const key = keys.attempts(kind, value);
    try {
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: key,
          UpdateExpression: 'SET notBefore = :nextAt',
          ConditionExpression: onlyIfDue
            ? 'attribute_exists(pk) AND (attribute_not_exists(notBefore) OR notBefore <= :now)'
            : 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':nextAt': nextAt, ...(onlyIfDue ? { ':now': now } : {}) },
        }),
      );
      return { allowed: true };
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
    }
    const stored = await read(key);
    // The counter is gone (its window was cleared meanwhile): nothing to pace against.
    if (!stored?.notBefore) return { allowed: true };
    return { allowed: false, retryAfterMs: Math.max(1, stored.notBefore - now) };
  },
};
