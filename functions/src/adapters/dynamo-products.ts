import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys, lists } from '@portal/shared/db/table';
import {
  backoff,
  batchGetAll,
  cancellationReasons,
  db,
  decodeCursor,
  encodeCursor,
  isConditionFailed,
  isThrottled,
  tableName,
  writtenUnlessConditionFails,
} from './dynamo-client';
import type {
  ModerationOutcome,
  Page,
  ProductContent,
  ProductRecord,
  ProductRepository,
  ProductState,
} from '../products/product-store';

const review = lists.productsInReview;
const approved = lists.productsApproved;
const sortKey = (time: string, id: string) => `${time}#${id}`;

/** The table item of a product: its keys, its index keys while in review or approved, and its record. */
export function productItem(product: ProductRecord): Record<string, unknown> {
  return {
    ...keys.product(product.id),
    entity: 'Product',
    ...product,
    contentHash: product.current.content_hash,
    ...(product.status === 'review'
      ? { gsi1pk: review.partition, gsi1sk: sortKey(product.updatedAt, product.id) }
      : {}),
    ...(product.approved && product.status !== 'banned' && product.approvedAt
      ? { gsi2pk: approved.partition, gsi2sk: sortKey(product.approvedAt, product.id) }
      : {}),
  };
}

function fromItem(item: Record<string, unknown>): ProductRecord {
  const { id, status, current, approved: approvedContent, createdAt, updatedAt, approvedAt, lastJobId } = item;
  return {
    id,
    status,
    current,
    ...(approvedContent ? { approved: approvedContent } : {}),
    createdAt,
    updatedAt,
    ...(approvedAt ? { approvedAt } : {}),
    lastJobId,
  } as ProductRecord;
}

async function page(list: { index: string; partition: string }, cursor: string | undefined, limit: number) {
  const result = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: list.index,
      KeyConditionExpression: '#pk = :partition',
      ExpressionAttributeNames: { '#pk': `${list.index}pk` },
      ExpressionAttributeValues: { ':partition': list.partition },
      ScanIndexForward: false,
      Limit: limit,
      // A page of a GSI ends on the base table's key and the index's own key.
      ExclusiveStartKey: decodeCursor(cursor, {
        attributes: ['pk', 'sk', `${list.index}pk`, `${list.index}sk`],
        equals: { [`${list.index}pk`]: list.partition, sk: 'PRODUCT' },
        startsWith: { pk: 'PRODUCT#' },
      }),
    }),
  );
  return {
    items: (result.Items ?? []).map(fromItem),
    nextCursor: encodeCursor(result.LastEvaluatedKey),
  } satisfies Page<ProductRecord>;
}

async function moderate(
  id: string,
  update: string,
  values: Record<string, unknown>,
  names: Record<string, string> = {},
  version?: string,
): Promise<ModerationOutcome> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.product(id),
        UpdateExpression: update,
        // Only a product under review can be approved or banned: a second click changes nothing.
        // Approve also needs the version the admin reviewed to be the one in review.
        ConditionExpression:
          'attribute_exists(pk) AND #status = :review' + (version === undefined ? '' : ' AND contentHash = :version'),
        ExpressionAttributeNames: { '#status': 'status', ...names },
        ExpressionAttributeValues: {
          ':review': 'review',
          ...values,
          ...(version === undefined ? {} : { ':version': version }),
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return 'done';
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    const old = (error as { Item?: Record<string, unknown> }).Item;
    if (!old) return 'not-found';
    // The SDK gives the old item in DynamoDB's own format here.
    const status = (old.status as { S?: string } | undefined)?.S ?? old.status;
    return status === 'review' ? 'changed' : 'not-in-review';
  }
}

const MAX_CREATE_ATTEMPTS = 10;
/** DynamoDB takes at most 100 actions and 4 MB in one transaction. */
const TRANSACTION_PUTS = 100;
const TRANSACTION_BYTES = 3_500_000;

/** Products in groups that fit one transaction: at most TRANSACTION_PUTS, and well under 4 MB. */
function transactionChunks(products: readonly ProductRecord[]): ProductRecord[][] {
  const chunks: ProductRecord[][] = [];
  let current: ProductRecord[] = [];
  let bytes = 0;
  for (const product of products) {
    const size = JSON.stringify(product).length * 2;
    if (current.length > 0 && (current.length >= TRANSACTION_PUTS || bytes + size > TRANSACTION_BYTES)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(product);
    bytes += size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** One product by id: on its own, so a function that only reads products (the sales webhook) bundles no more. */
export async function getProduct(id: string): Promise<ProductRecord | undefined> {
  const result = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.product(id), ConsistentRead: true }),
  );
  return result.Item ? fromItem(result.Item) : undefined;
}

export const dynamoProducts: ProductRepository = {
  get: getProduct,

  async states(ids) {
    const items = await batchGetAll(
      ids.map((id) => keys.product(id) as unknown as Record<string, string>),
      { expression: 'id, #status, contentHash', names: { '#status': 'status' } },
    );
    return new Map(
      items.map((item) => [
        String(item.id),
        { id: String(item.id), status: item.status as ProductState['status'], contentHash: String(item.contentHash) },
      ]),
    );
  },

  async createNew(products) {
    // Conditional puts (BatchWriteItem takes no condition): of two imports creating the same new
    // spu_no at once, one creates it and the other finds it there and revises it. They go in
    // transactions of up to 100 puts: with BENCH_ROWS=10000 on a busy 2-core machine the import ran
    // at 38 % of the raw BatchWrite rate with unconditional BatchWrites, 15 % with one conditional
    // PutItem per product, 21 % with transactions of 25 and 28 % with transactions of 100. A
    // transaction cancelled because some of its products exist says which (CancellationReasons);
    // those are answered as existing and the rest are put again.
    const existing: string[] = [];
    await Promise.all(
      transactionChunks(products).map(async (chunk) => {
        let pending = chunk;
        for (let attempt = 0; pending.length > 0; attempt++) {
          if (attempt >= MAX_CREATE_ATTEMPTS) {
            throw new Error(`DynamoDB kept cancelling the creation of ${pending.length} products`);
          }
          if (attempt > 0) await backoff(attempt);
          try {
            await db().send(
              new TransactWriteCommand({
                TransactItems: pending.map((product) => ({
                  Put: {
                    TableName: tableName(),
                    Item: productItem(product),
                    ConditionExpression: 'attribute_not_exists(pk)',
                  },
                })),
              }),
            );
            return;
          } catch (error) {
            const reasons = cancellationReasons(error);
            // Throttled beyond the SDK's own retries: the same products again, after a longer wait.
            if (!reasons && isThrottled(error)) continue;
            if (!reasons) throw error;
            const taken = new Set(
              pending.filter((_, index) => reasons[index]?.Code === 'ConditionalCheckFailed').map((p) => p.id),
            );
            existing.push(...taken);
            // Anything else (a conflict with another writer) is tried again with the products left.
            pending = pending.filter((product) => !taken.has(product.id));
          }
        }
      }),
    );
    return existing;
  },

  revise(id, content: ProductContent, expected, jobId, now) {
    return writtenUnlessConditionFails(() =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.product(id),
          UpdateExpression:
            'SET #current = :current, contentHash = :hash, #status = :review, updatedAt = :now, lastJobId = :job, gsi1pk = :reviewPartition, gsi1sk = :reviewSort',
          ConditionExpression: '#status = :expectedStatus AND contentHash = :expectedHash',
          ExpressionAttributeNames: { '#current': 'current', '#status': 'status' },
          ExpressionAttributeValues: {
            ':current': content,
            ':hash': content.content_hash,
            ':review': 'review',
            ':now': now,
            ':job': jobId,
            ':reviewPartition': review.partition,
            ':reviewSort': sortKey(now, id),
            ':expectedStatus': expected.status,
            ':expectedHash': expected.contentHash,
          },
        }),
      ),
    );
  },

  inReview: (cursor, limit) => page(review, cursor, limit),
  approvedPage: (cursor, limit) => page(approved, cursor, limit),

  approve: (id, version, now) =>
    moderate(
      id,
      'SET #status = :approved, approved = #current, approvedAt = :now, updatedAt = :now, gsi2pk = :partition, gsi2sk = :sort REMOVE gsi1pk, gsi1sk',
      { ':approved': 'approved', ':now': now, ':partition': approved.partition, ':sort': sortKey(now, id) },
      { '#current': 'current' },
      version,
    ),

  ban: (id, now) =>
    moderate(id, 'SET #status = :banned, bannedAt = :now, updatedAt = :now REMOVE gsi1pk, gsi1sk, gsi2pk, gsi2sk', {
      ':banned': 'banned',
      ':now': now,
    }),
};
