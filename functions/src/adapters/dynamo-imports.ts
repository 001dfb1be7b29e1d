import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ImportIssue } from '@portal/shared/api/products';
import { keys, lists } from '@portal/shared/db/table';
import { batchWriteAll, db, decodeCursor, encodeCursor, isConditionFailed, tableName } from './dynamo-client';
import { blankRun } from '../imports/jobs';
import type { ImportJobRecord, ImportJobRepository } from '../imports/job-store';

const JOB_FIELDS = [
  'id',
  'fileName',
  'status',
  'phase',
  'rowsDone',
  'createdAt',
  'finishedAt',
  'rowsRead',
  'created',
  'updated',
  'unchanged',
  'rejected',
  'banned',
  'warnings',
  'failure',
  'bucket',
  'key',
  'attempt',
  'heartbeatAt',
  'expiresAt',
] as const;

function fromItem(item: Record<string, unknown>): ImportJobRecord {
  return Object.fromEntries(JOB_FIELDS.map((field) => [field, item[field] ?? null])) as unknown as ImportJobRecord;
}

/** SET clauses for a partial update, with generated placeholders. */
function setClause(update: Record<string, unknown>) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const parts = Object.entries(update).map(([field, value], index) => {
    names[`#f${index}`] = field;
    values[`:v${index}`] = value;
    return `#f${index} = :v${index}`;
  });
  return { expression: `SET ${parts.join(', ')}`, names, values };
}

export const dynamoImports: ImportJobRepository = {
  async create(job) {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.importJob(job.id),
          entity: 'ImportJob',
          ...job,
          gsi1pk: lists.importJobs.partition,
          gsi1sk: `${job.createdAt}#${job.id}`,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  },

  async get(id) {
    const result = await db().send(
      new GetCommand({ TableName: tableName(), Key: keys.importJob(id), ConsistentRead: true }),
    );
    return result.Item ? fromItem(result.Item) : undefined;
  },

  async claim(job, now, staleBefore) {
    // Every attribute by placeholder: several of these names (bucket, key, status) are reserved words.
    const reset = setClause({
      ...blankRun(),
      status: 'running',
      heartbeatAt: now,
      phase: 'validating',
      entity: 'ImportJob',
      id: job.id,
      bucket: job.bucket,
      key: job.key,
      gsi1pk: lists.importJobs.partition,
    });
    try {
      const result = await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.importJob(job.id),
          UpdateExpression:
            [
              reset.expression,
              '#attempt = if_not_exists(#attempt, :zero) + :one',
              '#fileName = if_not_exists(#fileName, :fileName)',
              '#createdAt = if_not_exists(#createdAt, :now)',
              '#gsi1sk = if_not_exists(#gsi1sk, :sort)',
            ].join(', ') + ' REMOVE #expiresAt',
          ConditionExpression:
            'attribute_not_exists(pk) OR #status IN (:queued, :failed) OR (#status = :running AND #heartbeatAt < :stale)',
          ExpressionAttributeNames: {
            ...reset.names,
            '#status': 'status',
            '#heartbeatAt': 'heartbeatAt',
            '#attempt': 'attempt',
            '#fileName': 'fileName',
            '#createdAt': 'createdAt',
            '#gsi1sk': 'gsi1sk',
            '#expiresAt': 'expiresAt',
          },
          ExpressionAttributeValues: {
            ...reset.values,
            ':running': 'running',
            ':queued': 'queued',
            ':failed': 'failed',
            ':zero': 0,
            ':one': 1,
            ':now': now,
            ':stale': staleBefore,
            ':fileName': job.fileName,
            ':sort': `${now}#${job.id}`,
          },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return Number(result.Attributes?.attempt);
    } catch (error) {
      if (isConditionFailed(error)) return null;
      throw error;
    }
  },

  async progress(id, attempt, update) {
    const clause = setClause(update);
    try {
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.importJob(id),
          UpdateExpression: clause.expression,
          ConditionExpression: '#attemptNo = :attempt',
          ExpressionAttributeNames: { ...clause.names, '#attemptNo': 'attempt' },
          ExpressionAttributeValues: { ...clause.values, ':attempt': attempt },
        }),
      );
    } catch (error) {
      if (isConditionFailed(error)) throw new Error(`Import ${id} was taken over by a newer run`);
      throw error;
    }
  },

  async finish(id, attempt, update) {
    await this.progress(id, attempt, { ...update, heartbeatAt: null, phase: null });
  },

  async putIssues(id, issues) {
    await batchWriteAll(
      issues.map((issue, index) => ({
        PutRequest: { Item: { ...keys.importIssue(id, index), entity: 'ImportIssue', ...issue } },
      })),
    );
  },

  async issues(id, cursor, limit) {
    const result = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :issue)',
        ExpressionAttributeValues: { ':pk': keys.importJob(id).pk, ':issue': 'ISSUE#' },
        Limit: limit,
        ExclusiveStartKey: decodeCursor(cursor, {
          attributes: ['pk', 'sk'],
          equals: { pk: keys.importJob(id).pk },
          startsWith: { sk: 'ISSUE#' },
        }),
      }),
    );
    return {
      items: (result.Items ?? []).map(({ row, column, message, severity }) => ({
        row: (row as number | null) ?? null,
        column: (column as string | null) ?? null,
        message: String(message),
        severity: severity as ImportIssue['severity'],
      })),
      nextCursor: encodeCursor(result.LastEvaluatedKey),
    };
  },
};
