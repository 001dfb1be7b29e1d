import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '@portal/shared/db/table';
import { db, isConditionFailed, tableName } from './dynamo-client';
import type { ProcessedEvents } from '../payments/processed-events';

/** One item per processed Stripe event (`STRIPE_EVENT#<id>`), removed by the table's TTL. */
export const dynamoProcessedEvents: ProcessedEvents = {
  async claim(eventId, expiresAt) {
    try {
      await db().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...keys.stripeEvent(eventId), entity: 'StripeEvent', eventId, expiresAt },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailed(error)) return false;
      throw error;
    }
  },

  async release(eventId) {
    await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.stripeEvent(eventId) }));
  },
};
