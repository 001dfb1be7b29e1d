import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '@portal/shared/db/table';
import type { OrderLinkStore } from '../../orders/order-links';
import { db, tableName } from '../dynamo-client';

/** Order page links: `ORDER_LINK#<sha256 of token>` / `ORDER_LINK` → orderId (orders/order-links.ts). */
export const dynamoOrderLinks: OrderLinkStore = {
  async save(tokenHash, orderId, createdAt) {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.orderLink(tokenHash), entity: 'OrderLink', orderId, createdAt },
        // 32 random bytes never repeat; the condition says so rather than overwrite a link.
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  },

  async orderOf(tokenHash) {
    const result = await db().send(
      new GetCommand({
        TableName: tableName(),
        Key: keys.orderLink(tokenHash),
        ProjectionExpression: 'orderId',
      }),
    );
    const orderId = result.Item?.orderId;
    return typeof orderId === 'string' ? orderId : undefined;
  },
};
