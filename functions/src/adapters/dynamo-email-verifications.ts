import { GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '@portal/shared/db/table';
import { backoff, cancellationReasons, conditionFailedAt, db, tableName } from './dynamo-client';
import type { ConsumeOutcome, VerificationRecord, VerificationStore } from '../email/verification-store';

/** A record stays this long after its link expires, so a late click is told "expired", not "not valid". */
const KEEP_AFTER_EXPIRY_MS = 7 * 24 * 60 * 60 * 1000;
const MAX_TRIES = 5;

async function read(tokenHash: string): Promise<VerificationRecord | undefined> {
  const result = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.emailVerification(tokenHash), ConsistentRead: true }),
  );
  if (!result.Item) return undefined;
  const { pk: _pk, sk: _sk, entity: _entity, expiresAt: _expiresAt, ...record } = result.Item;
  return record as VerificationRecord;
}

/**
 * One transaction: the token used, the user's address moved (conditional on the old one), the new
 * address claimed (only if nobody holds it) and the old claim released (only if it is this user's).
 */
async function moveAddress(
  tokenHash: string,
  record: VerificationRecord,
  from: string,
  now: number,
): Promise<ConsumeOutcome | 'retry' | 'read-again'> {
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName(),
              Key: keys.emailVerification(tokenHash),
              UpdateExpression: 'SET usedAt = :now',
              ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(usedAt) AND expiresAtMs > :now',
              ExpressionAttributeValues: { ':now': now },
            },
          },
          {
            Update: {
              TableName: tableName(),
              Key: keys.user(record.userId),
              UpdateExpression: 'SET email = :to, isEmailVerified = :verified',
              ConditionExpression: 'attribute_exists(pk) AND email = :from',
              ExpressionAttributeValues: { ':to': record.email, ':from': from, ':verified': true },
            },
          },
          {
            Put: {
              TableName: tableName(),
              Item: { ...keys.email(record.email), entity: 'UserEmail', userId: record.userId },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Delete: {
              TableName: tableName(),
              Key: keys.email(from),
              ConditionExpression: 'userId = :userId',
              ExpressionAttributeValues: { ':userId': record.userId },
            },
          },
        ],
      }),
    );
    return { outcome: 'verified', record: { ...record, usedAt: now } };
  } catch (error) {
    if (!cancellationReasons(error)) throw error;
    if (conditionFailedAt(error, 1) || conditionFailedAt(error, 3)) return { outcome: 'address-changed' };
    if (conditionFailedAt(error, 2)) return { outcome: 'taken' };
    // The token's condition failed (another click used it): read it again. Else another
    // transaction held one of the items: wait a little and read again.
    return conditionFailedAt(error, 0) ? 'read-again' : 'retry';
  }
}

export const dynamoEmailVerifications: VerificationStore = {
  async save(record) {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.emailVerification(record.tokenHash),
          entity: 'EmailVerification',
          ...record,
          expiresAt: Math.ceil((record.expiresAtMs + KEEP_AFTER_EXPIRY_MS) / 1000),
        },
        // 32 random bytes never repeat; the condition says so rather than overwrite a record.
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  },

  async consume(tokenHash, now): Promise<ConsumeOutcome> {
    for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
      const record = await read(tokenHash);
      if (!record) return { outcome: 'unknown' };
      if (record.usedAt !== undefined) return { outcome: 'used' };
      if (record.expiresAtMs <= now) return { outcome: 'expired' };
      if (record.replaces !== undefined) {
        const changed = await moveAddress(tokenHash, record, record.replaces, now);
        if (changed === 'retry') {
          await backoff(attempt);
          continue;
        }
        if (changed !== 'read-again') return changed;
        continue;
      }
      try {
        await db().send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: tableName(),
                  Key: keys.emailVerification(tokenHash),
                  UpdateExpression: 'SET usedAt = :now',
                  ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(usedAt) AND expiresAtMs > :now',
                  ExpressionAttributeValues: { ':now': now },
                },
              },
              {
                Update: {
                  TableName: tableName(),
                  Key: keys.user(record.userId),
                  UpdateExpression: 'SET isEmailVerified = :verified',
                  ConditionExpression: 'attribute_exists(pk) AND email = :email',
                  ExpressionAttributeValues: { ':verified': true, ':email': record.email },
                },
              },
            ],
          }),
        );
        return { outcome: 'verified', record: { ...record, usedAt: now } };
      } catch (error) {
        if (!cancellationReasons(error)) throw error;
        if (conditionFailedAt(error, 1)) return { outcome: 'address-changed' };
        // The token's condition failed (another click used it) or another transaction held the
        // items: read it again and decide from what is stored now.
        if (!conditionFailedAt(error, 0)) await backoff(attempt);
      }
    }
    throw new Error(`E-mail verification kept conflicting after ${MAX_TRIES} tries`);
  },
};
