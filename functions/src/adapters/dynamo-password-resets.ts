import { GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '@portal/shared/db/table';
import { backoff, cancellationReasons, conditionFailedAt, db, tableName } from './dynamo-client';
import type { PasswordResetRecord, PasswordResetStore, ResetOutcome } from '../email/password-reset-store';

/** A record stays this long after its link expires, so a late click is told "expired", not "not valid". */
const KEEP_AFTER_EXPIRY_MS = 7 * 24 * 60 * 60 * 1000;
const MAX_TRIES = 5;

async function read(tokenHash: string): Promise<PasswordResetRecord | undefined> {
  const result = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.passwordReset(tokenHash), ConsistentRead: true }),
  );
  if (!result.Item) return undefined;
  const { pk: _pk, sk: _sk, entity: _entity, expiresAt: _expiresAt, ...record } = result.Item;
  return record as PasswordResetRecord;
}

export const dynamoPasswordResets: PasswordResetStore = {
  async save(record) {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.passwordReset(record.tokenHash),
          entity: 'PasswordReset',
          ...record,
          expiresAt: Math.ceil((record.expiresAtMs + KEEP_AFTER_EXPIRY_MS) / 1000),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  },

  get: read,

  async use(tokenHash, passwordHash, now): Promise<ResetOutcome> {
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
                  Key: keys.passwordReset(tokenHash),
                  UpdateExpression: 'SET usedAt = :now',
                  ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(usedAt) AND expiresAtMs > :now',
                  ExpressionAttributeValues: { ':now': now },
                },
              },
              {
                Update: {
                  TableName: tableName(),
                  Key: keys.user(record.userId),
                  // A new generation: every session family of the account (of the old one) ends.
                  UpdateExpression:
                    'SET passwordHash = :hash, sessionGeneration = if_not_exists(sessionGeneration, :zero) + :one',
                  ConditionExpression: 'attribute_exists(pk)',
                  ExpressionAttributeValues: { ':hash': passwordHash, ':zero': 0, ':one': 1 },
                },
              },
            ],
          }),
        );
        return { outcome: 'reset' };
      } catch (error) {
        if (!cancellationReasons(error)) throw error;
        if (conditionFailedAt(error, 1)) return { outcome: 'user-gone' };
        // The token's condition failed (another use): read it again; a conflict: wait, then read again.
        if (!conditionFailedAt(error, 0)) await backoff(attempt);
      }
    }
    throw new Error(`Password reset kept conflicting after ${MAX_TRIES} tries`);
  },
};
