import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { newShareCode } from '@portal/shared/domain/crockford';
import { keys } from '@portal/shared/db/table';
import { backoff, conditionFailedAt, db, isConditionFailed, isTransactionConflict, tableName } from '../dynamo-client';
import type { UserRepository } from '../../auth/user-store';
import { NEXT_LINK_GENERATION, fromItem, userById } from '../dynamo-user-items';

/** How many fresh codes a collision (or a conflicting transaction) may cost before giving up. */
const MAX_CODE_TRIES = 8;

export const dynamoUsers: UserRepository = {
  async create(user) {
    for (let attempt = 0; ; attempt++) {
      const code = user.shareCode;
      try {
        await db().send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName: tableName(),
                  Item: { ...keys.user(user.id), entity: 'User', ...user },
                  ConditionExpression: 'attribute_not_exists(pk)',
                },
              },
              {
                Put: {
                  TableName: tableName(),
                  Item: { ...keys.email(user.email), entity: 'UserEmail', userId: user.id },
                  ConditionExpression: 'attribute_not_exists(pk)',
                },
              },
              ...(code
                ? [
                    {
                      Put: {
                        TableName: tableName(),
                        Item: { ...keys.shareCode(code), entity: 'ShareCode', userId: user.id },
                        ConditionExpression: 'attribute_not_exists(pk)',
                      },
                    },
                  ]
                : []),
            ],
          }),
        );
        return true;
      } catch (error) {
        if (conditionFailedAt(error, 1)) return false;
        // Another transaction was writing the same claim (a sign-up for this address at this
        // moment): try again, and the retry finds the address taken or free.
        if (isTransactionConflict(error) && attempt < MAX_CODE_TRIES) {
          await backoff(attempt);
          continue;
        }
        // Another member holds this code (one chance in about a trillion per member): a new one.
        if (code && conditionFailedAt(error, 2) && attempt < MAX_CODE_TRIES) {
          user.shareCode = newShareCode();
          continue;
        }
        throw error;
      }
    }
  },

  async ensureShareCode(user) {
    if (user.shareCode) return user;
    for (let attempt = 0; attempt < MAX_CODE_TRIES; attempt++) {
      const code = newShareCode();
      try {
        await db().send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName: tableName(),
                  Item: { ...keys.shareCode(code), entity: 'ShareCode', userId: user.id },
                  ConditionExpression: 'attribute_not_exists(pk)',
                },
              },
              {
                Update: {
                  TableName: tableName(),
                  Key: keys.user(user.id),
                  UpdateExpression: 'SET shareCode = :code',
                  ConditionExpression:
                    'attribute_exists(pk) AND (attribute_not_exists(shareCode) OR attribute_type(shareCode, :null))',
                  ExpressionAttributeValues: { ':code': code, ':null': 'NULL' },
                },
              },
            ],
          }),
        );
        return { ...user, shareCode: code };
      } catch (error) {
        // The code is taken: try another. The user has one now (a concurrent check), or is being
        // given one: read it.
        if (conditionFailedAt(error, 0)) continue;
        if (!conditionFailedAt(error, 1) && !isTransactionConflict(error)) throw error;
        const stored = await this.get(user.id);
        if (!stored) return user;
        if (stored.shareCode) return stored;
        await backoff(attempt);
      }
    }
    throw new Error(`No share code could be given to user ${user.id} after ${MAX_CODE_TRIES} tries`);
  },

  get: userById,

  async findByEmail(normalizedEmail) {
    const claim = await db().send(
      new GetCommand({ TableName: tableName(), Key: keys.email(normalizedEmail), ConsistentRead: true }),
    );
    const userId = claim.Item?.userId;
    return typeof userId === 'string' ? this.get(userId) : undefined;
  },

  async setAdmin(userId, isAdmin) {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.user(userId),
        UpdateExpression: 'SET isAdmin = :isAdmin',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':isAdmin': isAdmin },
      }),
    );
  },

  async setMailPreferences(userId, preferences) {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.user(userId),
        UpdateExpression: 'SET mailPreferences = :preferences',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':preferences': preferences },
      }),
    );
  },

  async updateProfile(userId, profile) {
    try {
      const result = await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.user(userId),
          UpdateExpression:
            'SET first_name = :first_name, last_name = :last_name, display_name = :display_name, phone = :phone, ' +
            'street_address_1 = :street_address_1, address_unit = :address_unit, city = :city, #state = :state, zipcode = :zipcode',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: Object.fromEntries(
            Object.entries(profile).map(([name, value]) => [`:${name}`, value]),
          ),
          ReturnValues: 'ALL_NEW',
        }),
      );
      return result.Attributes ? fromItem(result.Attributes) : undefined;
    } catch (error) {
      if (isConditionFailed(error)) return undefined;
      throw error;
    }
  },

  async setPassword(userId, expectedHash, newHash, keepFamilyId) {
    const user = {
      Update: {
        TableName: tableName(),
        Key: keys.user(userId),
        UpdateExpression: `SET passwordHash = :new, sessionGeneration = if_not_exists(sessionGeneration, :zero) + :one, ${NEXT_LINK_GENERATION}`,
        ConditionExpression: 'attribute_exists(pk) AND passwordHash = :expected',
        ExpressionAttributeValues: { ':new': newHash, ':expected': expectedHash, ':zero': 0, ':one': 1 },
      },
    };
    try {
      if (!keepFamilyId) {
        await db().send(new UpdateCommand(user.Update));
        return true;
      }
      const stored = await this.get(userId);
      if (!stored || stored.passwordHash !== expectedHash) return false;
      await db().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                ...user.Update,
                // The generation read with the hash: what the kept family moves on from.
                ConditionExpression: `${user.Update.ConditionExpression} AND ${
                  stored.sessionGeneration === undefined
                    ? 'attribute_not_exists(sessionGeneration)'
                    : 'sessionGeneration = :generation'
                }`,
                ExpressionAttributeValues: {
                  ...user.Update.ExpressionAttributeValues,
                  ...(stored.sessionGeneration === undefined ? {} : { ':generation': stored.sessionGeneration }),
                },
              },
            },
            {
              Update: {
                TableName: tableName(),
                Key: keys.sessionFamily(keepFamilyId),
                UpdateExpression: 'SET generation = :next',
                ConditionExpression: 'attribute_exists(pk) AND userId = :userId AND attribute_not_exists(revokedAt)',
                ExpressionAttributeValues: { ':next': (stored.sessionGeneration ?? 0) + 1, ':userId': userId },
              },
            },
          ],
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailed(error) || conditionFailedAt(error, 0) || conditionFailedAt(error, 1)) return false;
      if (isTransactionConflict(error)) return false;
      throw error;
    }
  },
};
