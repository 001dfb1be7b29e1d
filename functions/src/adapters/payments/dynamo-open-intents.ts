import { createHash } from 'node:crypto';
import { DeleteCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { OPEN_INTENTS_PREFIX, keys } from '@portal/shared/db/table';
import type { OpenIntentStore } from '../../payments/open-intents';
import type { CheckoutOwners } from '../../payments/checkout';
import { db, tableName, transact, type TransactItems } from '../dynamo-client';

/**
 * The checkouts' open payment intents, one item per intent in its product's partition
 * (`OPEN_INTENTS#<productId>` / `PI#<paymentIntentId>`, TTL `expiresAt`), and the two reads that
 * tell a member's own checkout (their share code's claim, their refresh token's session).
 */
function trackItems(productId: string, paymentIntentId: string, expiresAtSeconds: number): TransactItems {
  return [
    {
      // Still sold: approved, or in review with its approved values (what the checkout priced).
      ConditionCheck: {
        TableName: tableName(),
        Key: keys.product(productId),
        ConditionExpression: '#status IN (:approved, :review) AND attribute_exists(approved)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':approved': 'approved', ':review': 'review' },
      },
    },
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...keys.openIntent(productId, paymentIntentId),
          entity: 'openIntent',
          productId,
          paymentIntentId,
          expiresAt: expiresAtSeconds,
        },
      },
    },
  ];
}

export const dynamoOpenIntents: OpenIntentStore = {
  async track(productId, paymentIntentId, expiresAtSeconds) {
    // A ban of this product at the same moment conflicts with the check: tried again, then decided.
    // Only the product's check has a condition: refused means no longer sold.
    return (await transact(trackItems(productId, paymentIntentId, expiresAtSeconds))).ok;
  },

  async page(productId, limit, cursor) {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `${OPEN_INTENTS_PREFIX}${productId}` },
        ConsistentRead: true,
        Limit: limit,
        ExclusiveStartKey: cursor,
      }),
    );
    return {
      ids: (page.Items ?? []).map((item) => String(item.paymentIntentId)),
      next: page.LastEvaluatedKey,
    };
  },

  async forget(productId, paymentIntentId) {
    await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.openIntent(productId, paymentIntentId) }));
  },
};

async function read(key: { pk: string; sk: string }) {
  return (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;
}

export const dynamoCheckoutOwners: CheckoutOwners = {
  async ofShareCode(code) {
    const claim = await read(keys.shareCode(code));
    return typeof claim?.userId === 'string' ? claim.userId : undefined;
  },
  async ofSession(refreshToken, nowMs) {
    // Sessions are found by the SHA-256 of the token (auth/tokens.ts hashRefreshToken), never by the token.
    const session = await read(keys.session(createHash('sha256').update(refreshToken).digest('hex')));
    if (typeof session?.userId !== 'string' || typeof session.expiresAt !== 'number') return undefined;
    return session.expiresAt * 1000 > nowMs ? session.userId : undefined;
  },
};
