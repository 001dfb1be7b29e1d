import { createHash } from 'node:crypto';
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { OPEN_INTENTS_PREFIX, keys } from '@portal/shared/db/table';
import type { CancelProgressStore, OpenIntentStore } from '../../payments/open-intents';
import type { CheckoutOwners } from '../../payments/checkout';
import {
  backoff,
  cancellationReasons,
  db,
  isTransactionConflict,
  tableName,
  transact,
  type TransactItems,
} from '../dynamo-client';

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

  async count(productId) {
    let count = 0;
    let start: Record<string, unknown> | undefined;
    do {
      const page = await db().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': `${OPEN_INTENTS_PREFIX}${productId}` },
          Select: 'COUNT',
          ConsistentRead: true,
          ExclusiveStartKey: start,
        }),
      );
      count += page.Count ?? 0;
      start = page.LastEvaluatedKey;
    } while (start);
    return count;
  },

  async settle(productId, paymentIntentId, outcome) {
    for (let attempt = 0; ; attempt++) {
      try {
        await db().send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Delete: {
                  TableName: tableName(),
                  Key: keys.openIntent(productId, paymentIntentId),
                  ConditionExpression: 'attribute_exists(pk)',
                },
              },
              {
                Update: {
                  TableName: tableName(),
                  Key: keys.checkoutCancels(productId),
                  UpdateExpression: 'ADD #outcome :one',
                  ExpressionAttributeNames: { '#outcome': outcome },
                  ExpressionAttributeValues: { ':one': 1 },
                },
              },
            ],
          }),
        );
        return true;
      } catch (error) {
        if (cancellationReasons(error)?.[0]?.Code === 'ConditionalCheckFailed') return false;
        // Ten steps side by side add to the same counts: their transactions conflict, and are tried again.
        if (isTransactionConflict(error) && attempt < 8) {
          await backoff(attempt);
          continue;
        }
        throw error;
      }
    }
  },
};

/** The counts of a product's cancelling, one item beside its open intents' partition (issue 38). */
export const dynamoCancelProgress: CancelProgressStore = {
  async start(productId, total, atIso) {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.checkoutCancels(productId),
          entity: 'checkoutCancels',
          productId,
          total,
          cancelled: 0,
          paid: 0,
          notCancelled: 0,
          done: total === 0,
          startedAt: atIso,
        },
      }),
    );
  },

  async finish(productId, notCancelled) {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.checkoutCancels(productId),
        UpdateExpression: 'SET done = :done, notCancelled = :left',
        ExpressionAttributeValues: { ':done': true, ':left': notCancelled },
      }),
    );
  },

  async get(productId) {
    const found = await read(keys.checkoutCancels(productId));
    if (!found) return undefined;
    const number = (value: unknown) => (typeof value === 'number' ? value : 0);
    return {
      total: number(found.total),
      cancelled: number(found.cancelled),
      paid: number(found.paid),
      notCancelled: number(found.notCancelled),
      done: found.done === true,
    };
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
