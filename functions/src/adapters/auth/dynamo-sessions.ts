import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '@portal/shared/db/table';
import { conditionFailedAt, db, isConditionFailed, isTransactionConflict, tableName } from '../dynamo-client';
import type { SessionFamilyRecord, SessionRecord, SessionRepository } from '../../auth/session-store';

const sessionItem = (session: SessionRecord) => ({ ...keys.session(session.tokenHash), entity: 'Session', ...session });

export const dynamoSessions: SessionRepository = {
  async start(session, generation = 0) {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName(),
              Item: {
                ...keys.sessionFamily(session.familyId),
                entity: 'SessionFamily',
                familyId: session.familyId,
                userId: session.userId,
                expiresAt: session.expiresAt,
                generation,
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Put: {
              TableName: tableName(),
              Item: sessionItem(session),
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ],
      }),
    );
  },

  async get(tokenHash) {
    const result = await db().send(
      new GetCommand({ TableName: tableName(), Key: keys.session(tokenHash), ConsistentRead: true }),
    );
    return result.Item as SessionRecord | undefined;
  },

  async getFamily(familyId) {
    const result = await db().send(
      new GetCommand({ TableName: tableName(), Key: keys.sessionFamily(familyId), ConsistentRead: true }),
    );
    return result.Item as SessionFamilyRecord | undefined;
  },

  async rotate(old, next, rotation, generation = 0) {
    try {
      await db().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: tableName(),
                Key: keys.session(old.tokenHash),
                UpdateExpression: 'SET rotatedAt = :rotatedAt, successor = :successor',
                ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(rotatedAt)',
                ExpressionAttributeValues: { ':rotatedAt': rotation.rotatedAt, ':successor': rotation.successor },
              },
            },
            {
              Update: {
                TableName: tableName(),
                Key: keys.sessionFamily(old.familyId),
                UpdateExpression: 'SET expiresAt = :expiresAt',
                // A family of an earlier session generation (a password change or reset since) is ended.
                ConditionExpression:
                  'attribute_exists(pk) AND attribute_not_exists(revokedAt) AND ' +
                  '(generation = :generation OR (attribute_not_exists(generation) AND :generation = :zero))',
                ExpressionAttributeValues: { ':expiresAt': next.expiresAt, ':generation': generation, ':zero': 0 },
              },
            },
            {
              Put: { TableName: tableName(), Item: sessionItem(next), ConditionExpression: 'attribute_not_exists(pk)' },
            },
          ],
        }),
      );
      return 'rotated';
    } catch (error) {
      if (conditionFailedAt(error, 0)) return 'already-rotated';
      if (conditionFailedAt(error, 1)) return 'revoked';
      if (isTransactionConflict(error)) return 'conflict';
      throw error;
    }
  },

  async revokeFamily(familyId, at) {
    try {
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.sessionFamily(familyId),
          UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :now)',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':now': at },
        }),
      );
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
    }
  },
};
