import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '@portal/shared/db/table';
import { db, tableName, writtenUnlessConditionFails } from '../dynamo-client';
import type { AccountLocks } from '../../auth/account-lock';

/** What is left of a lock whose holder died is deleted by the TTL this long after its lease. */
const KEEP_AFTER_LEASE_S = 24 * 60 * 60;

/**
 * The account's locks: `USER#<id>` / `LOCK#<name>`, put only while absent or past its lease, and
 * deleted by its holder (decision 0243).
 */
export const dynamoAccountLocks: AccountLocks = {
  take: (userId, name, holder, now, leaseMs) =>
    writtenUnlessConditionFails(() =>
      db().send(
        new PutCommand({
          TableName: tableName(),
          Item: {
            ...keys.accountLock(userId, name),
            entity: 'AccountLock',
            holder,
            leaseUntil: now + leaseMs,
            expiresAt: Math.ceil((now + leaseMs) / 1000) + KEEP_AFTER_LEASE_S,
          },
          ConditionExpression: 'attribute_not_exists(pk) OR leaseUntil <= :now',
          ExpressionAttributeValues: { ':now': now },
        }),
      ),
    ),

  release: async (userId, name, holder) => {
    await writtenUnlessConditionFails(() =>
      db().send(
        new DeleteCommand({
          TableName: tableName(),
          Key: keys.accountLock(userId, name),
          ConditionExpression: 'holder = :holder',
          ExpressionAttributeValues: { ':holder': holder },
        }),
      ),
    );
  },
};
