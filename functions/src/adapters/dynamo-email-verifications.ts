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
