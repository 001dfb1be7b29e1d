import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '@portal/shared/db/table';
import type { MailClaimStore } from '../../email/mail-claim-store';
import { db, isConditionFailed, tableName } from '../dynamo-client';

/** A mail's claim is kept 400 days: longer than any provider redelivers an event or a person retries. */
const KEEP_SECONDS = 400 * 24 * 3600;

export const dynamoMailClaims: MailClaimStore = {
  async claim(kind, eventId, holder, now, leaseMs) {
    try {
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.mailClaim(kind, eventId),
          UpdateExpression:
            'SET entity = :entity, #status = :claimed, holder = :holder, leaseUntil = :until, claimedAt = :now, expiresAt = :expires ADD attempts :one',
          // New, or claimed by an attempt whose lease ran out before it marked the mail sent.
          ConditionExpression: 'attribute_not_exists(pk) OR (#status = :claimed AND leaseUntil < :now)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':entity': 'MailClaim',
            ':claimed': 'claimed',
            ':holder': holder,
            ':until': now + leaseMs,
            ':now': now,
            ':expires': Math.ceil(now / 1000) + KEEP_SECONDS,
            ':one': 1,
          },
        }),
      );
      return 'claimed';
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
    }
    const found = await db().send(
      new GetCommand({ TableName: tableName(), Key: keys.mailClaim(kind, eventId), ConsistentRead: true }),
    );
    return found.Item?.status === 'claimed' ? 'busy' : 'done';
  },

  async finish(kind, eventId, holder, now, skipped) {
    try {
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.mailClaim(kind, eventId),
          UpdateExpression: `SET #status = :status, doneAt = :now${skipped ? ', skipped = :why' : ''} REMOVE leaseUntil`,
          ConditionExpression: 'holder = :holder',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':status': skipped ? 'skipped' : 'sent',
            ':now': now,
            ':holder': holder,
            ...(skipped ? { ':why': skipped } : {}),
          },
        }),
      );
    } catch (error) {
      // Our lease ran out and another attempt took the claim over: it marks the mail itself.
      if (!isConditionFailed(error)) throw error;
    }
  },

  async release(kind, eventId, holder) {
    try {
      await db().send(
        new DeleteCommand({
          TableName: tableName(),
          Key: keys.mailClaim(kind, eventId),
          ConditionExpression: 'holder = :holder AND #status = :claimed',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':holder': holder, ':claimed': 'claimed' },
        }),
      );
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
    }
  },
};
