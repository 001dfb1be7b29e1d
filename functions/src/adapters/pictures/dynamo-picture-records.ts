import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '@portal/shared/db/table';
import {
  backoff,
  conditionFailedAt,
  db,
  decodeCursor,
  encodeCursor,
  isTransactionConflict,
  tableName,
} from '../dynamo-client';
import type { PictureRecord, PictureRecordRepository, PictureWork } from '../../pictures/picture-work';

/**
 * Each product version's pictures under its import job (issue 38): `PICTURES#<product id>`, the
 * idempotency record of the picture function, and `PICFAIL#<product id>` beside it while some of
 * its pictures failed (what the admin's retry reads, without reading the products that passed).
 * The job's counts (picturesTotal, picturesHosted, picturesFailed) are ADDed in the transaction
 * that writes the record: the picture functions write them side by side, the import never SETs them.
 */

/** The failures kept per product (all are counted): a product has at most a few dozen pictures. */
const MAX_FAILURES_KEPT = 40;
const MAX_CONFLICT_TRIES = 8;

const recordKey = (jobId: string, productId: string) => ({
  pk: keys.importJob(jobId).pk,
  sk: `PICTURES#${productId}`,
});
const failedKey = (jobId: string, productId: string) => ({
  pk: keys.importJob(jobId).pk,
  sk: `PICFAIL#${productId}`,
});
/**
 * A failed picture's warning in the import's report: listed with the job's issues (`ISSUE#`),
 * after the file's own ones ('P' sorts after the digits of their sequence), by row.
 */
const issueKey = (work: Pick<PictureWork, 'jobId' | 'productId' | 'row'>, index: number) => ({
  pk: keys.importJob(work.jobId).pk,
  sk: `ISSUE#P#${String(work.row).padStart(9, '0')}#${work.productId}#${String(index).padStart(3, '0')}`,
});

/** Runs a transaction again while another one holds the same job item (TransactionConflict). */
async function transact(write: () => Promise<unknown>): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await write();
      return;
    } catch (error) {
      if (!isTransactionConflict(error) || attempt >= MAX_CONFLICT_TRIES) throw error;
      await backoff(attempt);
    }
  }
}

export const dynamoPictureRecords: PictureRecordRepository = {
  async get(jobId, productId) {
    const { Item } = await db().send(
      new GetCommand({ TableName: tableName(), Key: recordKey(jobId, productId), ConsistentRead: true }),
    );
    if (!Item) return undefined;
    return {
      status: Item.status as PictureRecord['status'],
      version: Item.version as string,
      hosted: Number(Item.hosted ?? 0),
      failed: Number(Item.failed ?? 0),
      failures: (Item.failures as PictureRecord['failures'] | undefined) ?? [],
    };
  },

  async complete(work, record, change) {
    const items: NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']> = [
      {
        Put: {
          TableName: tableName(),
          Item: {
            ...recordKey(work.jobId, work.productId),
            entity: 'PictureRecord',
            productId: work.productId,
            pictures: work.pictures,
            row: work.row,
            status: 'done',
            version: record.version,
            hosted: record.hosted,
            failed: record.failed,
            failures: record.failures.slice(0, MAX_FAILURES_KEPT),
          },
          ConditionExpression: 'attribute_not_exists(pk) OR #status <> :done',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':done': 'done' },
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: keys.importJob(work.jobId),
          UpdateExpression: 'ADD picturesHosted :hosted, picturesFailed :failed, picturesTotal :total',
          ExpressionAttributeValues: {
            ':hosted': change.hostedAdded,
            ':failed': record.failed,
            ':total': change.totalAdded,
          },
        },
      },
    ];
    if (record.failed > 0) {
      items.push({
        Put: {
          TableName: tableName(),
          Item: {
            ...failedKey(work.jobId, work.productId),
            entity: 'PictureFailure',
            productId: work.productId,
            version: work.version,
            pictures: work.pictures,
            row: work.row,
          },
        },
      });
    }
    record.failures.slice(0, MAX_FAILURES_KEPT).forEach((failure, index) =>
      items.push({
        Put: {
          TableName: tableName(),
          Item: { ...issueKey(work, index), entity: 'ImportIssue', row: work.row, severity: 'warning', ...failure },
        },
      }),
    );
    try {
      await transact(() => db().send(new TransactWriteCommand({ TransactItems: items })));
      return true;
    } catch (error) {
      if (conditionFailedAt(error, 0)) return false;
      throw error;
    }
  },

  async failed(jobId, cursor, limit) {
    const result = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.importJob(jobId).pk, ':prefix': 'PICFAIL#' },
        Limit: limit,
        ExclusiveStartKey: decodeCursor(cursor, {
          attributes: ['pk', 'sk'],
          equals: { pk: keys.importJob(jobId).pk },
          startsWith: { sk: 'PICFAIL#' },
        }),
      }),
    );
    return {
      items: (result.Items ?? []).map((item) => ({
        jobId,
        productId: item.productId as string,
        version: item.version as string,
        pictures: Number(item.pictures ?? 0),
        row: Number(item.row ?? 1),
      })),
      nextCursor: encodeCursor(result.LastEvaluatedKey),
    };
  },

  async reopen(work) {
    const stored = await this.get(work.jobId, work.productId);
    if (!stored || stored.status !== 'done' || stored.failed === 0) return false;
    try {
      await transact(() =>
        db().send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: tableName(),
                  Key: recordKey(work.jobId, work.productId),
                  UpdateExpression: 'SET #status = :retrying',
                  ConditionExpression: '#status = :done AND failed = :failed AND version = :version',
                  ExpressionAttributeNames: { '#status': 'status' },
                  ExpressionAttributeValues: {
                    ':retrying': 'retrying',
                    ':done': 'done',
                    ':failed': stored.failed,
                    ':version': stored.version,
                  },
                },
              },
              { Delete: { TableName: tableName(), Key: failedKey(work.jobId, work.productId) } },
              // Its warnings leave the report until the try's own outcome is known.
              ...stored.failures.map((_, index) => ({
                Delete: { TableName: tableName(), Key: issueKey(work, index) },
              })),
              {
                Update: {
                  TableName: tableName(),
                  Key: keys.importJob(work.jobId),
                  UpdateExpression: 'ADD picturesFailed :minus',
                  ExpressionAttributeValues: { ':minus': -stored.failed },
                },
              },
            ],
          }),
        ),
      );
      return true;
    } catch (error) {
      if (conditionFailedAt(error, 0)) return false;
      throw error;
    }
  },
};

/** The import's share of the counts: the pictures of a batch it sent, added before the messages go. */
export async function addPicturesToTotal(jobId: string, pictures: number): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.importJob(jobId),
      UpdateExpression: 'ADD picturesTotal :pictures',
      ExpressionAttributeValues: { ':pictures': pictures },
    }),
  );
}
