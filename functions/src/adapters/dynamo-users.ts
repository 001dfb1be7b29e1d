import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '@portal/shared/db/table';
import { conditionFailedAt, db, tableName } from './dynamo-client';
import type { UserRecord, UserRepository } from '../auth/user-store';

export const dynamoUsers: UserRepository = {
  async create(user) {
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
          ],
        }),
      );
      return true;
    } catch (error) {
      if (conditionFailedAt(error, 1)) return false;
      throw error;
    }
  },

  async get(userId) {
    const result = await db().send(
      new GetCommand({ TableName: tableName(), Key: keys.user(userId), ConsistentRead: true }),
    );
    return result.Item ? fromItem(result.Item) : undefined;
  },

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
};

export function fromItem(item: Record<string, unknown>): UserRecord {
  const { pk: _pk, sk: _sk, entity: _entity, ...rest } = item;
  return rest as unknown as UserRecord;
}
