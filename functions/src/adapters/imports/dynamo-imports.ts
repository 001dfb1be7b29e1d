import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ImportIssue } from '@portal/shared/api/products';
import { keys, lists } from '@portal/shared/db/table';
import {
  batchWriteAll,
  db,
  decodeCursor,
  encodeCursor,
  isConditionFailed,
  queryAll,
  tableName,
} from '../dynamo-client';
import { blankRun } from '../../imports/jobs';
import type { RejectedRows, StoredReportRow } from '../../imports/rejected-rows';
import {
  LeaseLostError,
  type ImportCheckpoint,
  type ImportJobRecord,
  type ImportJobRepository,
} from '../../imports/job-store';

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
  const job = Object.fromEntries(JOB_FIELDS.map((field) => [field, item[field] ?? null])) as unknown as ImportJobRecord;
  // ADDed by the import (the total) and the picture function (hosted, failed): issue 38.
  if (item.picturesTotal !== undefined) {
    job.pictures = {
      total: Number(item.picturesTotal),
      hosted: Number(item.picturesHosted ?? 0),
      failed: Number(item.picturesFailed ?? 0),
    };
  }
  // A long import's parts and where the next one starts (run-import.ts).
  if (item.parts !== undefined) job.parts = Number(item.parts);
  if (item.checkpoint) job.checkpoint = item.checkpoint as ImportCheckpoint;
  return job;
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

/**
 * Rejected rows are stored under the job, one entry per row (the header is entry 0), each as
 * JSON in one or more items `ROW#<entry>#<part>` of at most PART_CHARS characters: at most
 * 300 KB of UTF-8, well inside DynamoDB's 400 KB item limit whatever the row holds (a rejected
 * row can be up to 1 MiB, csv-records.ts).
 */
const PART_CHARS = 100_000;

function parts(json: string): string[] {
  const chunks: string[] = [];
  let at = 0;
  while (at < json.length) {
    let end = Math.min(at + PART_CHARS, json.length);
    // Never split a surrogate pair: each part must be valid UTF-16 on its own.
    const last = json.charCodeAt(end - 1);
    if (end < json.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    chunks.push(json.slice(at, end));
    at = end;
  }
  return chunks.length > 0 ? chunks : [''];
}

const rowKey = (jobId: string, entry: number, part: number) => ({
  pk: keys.importJob(jobId).pk,
  sk: `ROW#${String(entry).padStart(9, '0')}#${String(part).padStart(3, '0')}`,
});

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
      // The run's first part; a long file's later parts count on (checkpoint below).
      parts: 1,
      runningPart: 1,
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
            ].join(', ') + ' REMOVE #expiresAt, #checkpoint',
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
            '#checkpoint': 'checkpoint',
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

  async checkpoint(id, attempt, checkpoint, now) {
    const { rowsDone, ...counters } = checkpoint.counters;
    const clause = setClause({ ...counters, rowsDone, checkpoint, parts: checkpoint.part, heartbeatAt: now });
    try {
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.importJob(id),
          UpdateExpression: clause.expression,
          // Only the part that is the job's latest moves it on: parts = the part writing this.
          ConditionExpression:
            '#attemptNo = :attempt AND #parts = :part AND #runningPart = :part AND #status = :running',
          ExpressionAttributeNames: {
            ...clause.names,
            '#attemptNo': 'attempt',
            '#parts': 'parts',
            '#runningPart': 'runningPart',
            '#status': 'status',
          },
          ExpressionAttributeValues: {
            ...clause.values,
            ':attempt': attempt,
            ':part': checkpoint.part - 1,
            ':running': 'running',
          },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailed(error)) return false;
      throw error;
    }
  },

  async claimPart(id, attempt, part, now, staleBefore) {
    try {
      const result = await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.importJob(id),
          UpdateExpression:
            'SET #status = :running, #phase = :importing, #runningPart = :part, #heartbeatAt = :now, #failure = :null, #finishedAt = :null',
          // Its run, at this part, and nobody live on it: the part before it handed over (runningPart
          // is lower), or this part's invocation died (stale heartbeat) or failed in words.
          ConditionExpression:
            '#attemptNo = :attempt AND #parts = :part AND attribute_exists(#checkpoint) AND ' +
            '((#status = :running AND (#runningPart < :part OR #heartbeatAt < :stale)) OR #status = :failed)',
          ExpressionAttributeNames: {
            '#status': 'status',
            '#phase': 'phase',
            '#runningPart': 'runningPart',
            '#heartbeatAt': 'heartbeatAt',
            '#failure': 'failure',
            '#finishedAt': 'finishedAt',
            '#attemptNo': 'attempt',
            '#parts': 'parts',
            '#checkpoint': 'checkpoint',
          },
          ExpressionAttributeValues: {
            ':running': 'running',
            ':importing': 'importing',
            ':failed': 'failed',
            ':part': part,
            ':attempt': attempt,
            ':now': now,
            ':stale': staleBefore,
            ':null': null,
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return result.Attributes ? fromItem(result.Attributes) : null;
    } catch (error) {
      if (isConditionFailed(error)) return null;
      throw error;
    }
  },

  async finish(id, attempt, update) {
    await this.progress(id, attempt, { ...update, heartbeatAt: null, phase: null });
  },

  async takeLease(id, attempt, now, staleBefore) {
    try {
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.catalogueLease(),
          UpdateExpression: 'SET entity = :entity, jobId = :job, attemptNo = :attempt, heartbeatAt = :now',
          ConditionExpression: 'attribute_not_exists(pk) OR jobId = :job OR heartbeatAt < :stale',
          ExpressionAttributeValues: {
            ':entity': 'CatalogueLease',
            ':job': id,
            ':attempt': attempt,
            ':now': now,
            ':stale': staleBefore,
          },
        }),
      );
      return null;
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
      const holder = await db().send(
        new GetCommand({ TableName: tableName(), Key: keys.catalogueLease(), ConsistentRead: true }),
      );
      // Released between the two calls: say it is held once more; the caller asks again.
      return String(holder.Item?.jobId ?? 'another import');
    }
  },

  async renewLease(id, attempt, now) {
    try {
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.catalogueLease(),
          UpdateExpression: 'SET heartbeatAt = :now',
          ConditionExpression: 'jobId = :job AND attemptNo = :attempt',
          ExpressionAttributeValues: { ':job': id, ':attempt': attempt, ':now': now },
        }),
      );
    } catch (error) {
      if (isConditionFailed(error)) throw new LeaseLostError(id);
      throw error;
    }
  },

  async releaseLease(id, attempt) {
    try {
      await db().send(
        new DeleteCommand({
          TableName: tableName(),
          Key: keys.catalogueLease(),
          ConditionExpression: 'jobId = :job AND attemptNo = :attempt',
          ExpressionAttributeValues: { ':job': id, ':attempt': attempt },
        }),
      );
    } catch (error) {
      // Taken over already (this run was taken for dead): nothing of ours to give up.
      if (!isConditionFailed(error)) throw error;
    }
  },

  async putIssues(id, issues, from = 0) {
    await batchWriteAll(
      issues.map((issue, index) => ({
        PutRequest: { Item: { ...keys.importIssue(id, from + index), entity: 'ImportIssue', ...issue } },
      })),
    );
  },

  async clearIssuesAndRows(id) {
    const stale: Record<string, unknown>[] = [];
    for (const prefix of ['ISSUE#', 'ROW#']) {
      stale.push(
        ...(await queryAll({
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': keys.importJob(id).pk, ':prefix': prefix },
          ProjectionExpression: 'pk, sk',
        })),
      );
    }
    await batchWriteAll(stale.map((key) => ({ DeleteRequest: { Key: key } })));
  },

  async putRejectedRows(id, report) {
    // Entry 0 is the header; row i is entry i + 1.
    const entries = [
      JSON.stringify({ header: report.header, truncated: report.truncated }),
      ...report.rows.map((row) => JSON.stringify(row)),
    ];
    await batchWriteAll(
      entries.flatMap((json, entry) =>
        parts(json).map((data, part) => ({
          PutRequest: { Item: { ...rowKey(id, entry, part), entity: 'ImportRow', data } },
        })),
      ),
    );
  },

  async rejectedRows(id) {
    const entries = new Map<string, string>();
    const items = await queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :row)',
      ExpressionAttributeValues: { ':pk': keys.importJob(id).pk, ':row': 'ROW#' },
    });
    for (const item of items) {
      const entry = String(item.sk).split('#')[1] ?? '';
      entries.set(entry, (entries.get(entry) ?? '') + String(item.data));
    }
    const [head, ...rows] = [...entries.values()];
    if (head === undefined) return undefined;
    const { header, truncated } = JSON.parse(head) as Pick<RejectedRows, 'header' | 'truncated'>;
    return { header, truncated, rows: rows.map((json) => JSON.parse(json) as StoredReportRow) };
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
