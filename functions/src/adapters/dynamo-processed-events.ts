import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '@portal/shared/db/table';
import { db, tableName, writtenUnlessConditionFails } from './dynamo-client';
import type { ProcessedEvents } from '../payments/processed-events';

/** One item per processed Stripe event (`STRIPE_EVENT#<id>`), removed by the table's TTL. */
export const dynamoProcessedEvents: ProcessedEvents = {
  claim(eventId, expiresAt) {
    return writtenUnlessConditionFails(() =>
      db().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...keys.stripeEvent(eventId), entity: 'StripeEvent', eventId, expiresAt },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    );
  },

  async release(eventId) {
    await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.stripeEvent(eventId) }));
  },
};
