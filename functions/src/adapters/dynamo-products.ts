import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand, QueryCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys, lists } from '@portal/shared/db/table';
import {
  batchGetAll,
  batchWriteAll,
  db,
  decodeCursor,
  encodeCursor,
  isConditionFailed,
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

/** Ids in one directory chunk: 1 000 ids of 32 characters are 33 KB, far inside an item's 400 KB. */
const ID_CHUNK = 1_000;

async function putIdChunk(ids: readonly string[]): Promise<void> {
  for (let at = 0; at < ids.length; at += ID_CHUNK) {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.productIdChunk(randomBytes(12).toString('hex')),
          entity: 'ProductIds',
          ids: ids.slice(at, at + ID_CHUNK).join(' '),
        },
      }),
    );
  }
}

/**
 * The id directory of products stored before it existed: one Scan of the table, once (the
 * marker says it is done). It runs inside an import that holds the catalogue write lease, so no
 * product is created meanwhile without its id going into the directory too.
 */
async function buildIdDirectory(): Promise<void> {
  const ids: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: 'entity = :product',
        ProjectionExpression: 'id',
        ExpressionAttributeValues: { ':product': 'Product' },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) ids.push(String(item.id));
    start = page.LastEvaluatedKey;
  } while (start);
  await putIdChunk(ids);
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.productIdsComplete(), entity: 'ProductIds', count: ids.length },
    }),
  );
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

  async putNew(products) {
    if (products.length === 0) return;
    // The ids first, then the products: a run that dies between the two leaves ids of products
    // that do not exist (read as missing and created by the next import), never the other way.
    await putIdChunk(products.map((product) => product.id));
    // Plain BatchWrites, no condition: only the holder of the catalogue write lease creates
    // products, on states it read while holding it, so nothing it puts can exist meanwhile
    // (run-import.ts). A conditional create costs DynamoDB a transaction per 100 products, which
    // held the import to 0.64 of the raw write rate on DynamoDB Local (docs/architecture.md).
    await batchWriteAll(products.map((product) => ({ PutRequest: { Item: productItem(product) } })));
  },

  async knownIds(limit) {
    const complete = await db().send(
      new GetCommand({ TableName: tableName(), Key: keys.productIdsComplete(), ConsistentRead: true }),
    );
    if (!complete.Item) await buildIdDirectory();
    const ids = new Set<string>();
    let start: Record<string, unknown> | undefined;
    do {
      const page = await db().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :ids)',
          ExpressionAttributeValues: { ':pk': keys.productIdsComplete().pk, ':ids': 'IDS#' },
          ProjectionExpression: 'ids',
          ConsistentRead: true,
          ExclusiveStartKey: start,
        }),
      );
      for (const item of page.Items ?? []) for (const id of String(item.ids).split(' ')) ids.add(id);
      if (ids.size > limit) return null;
      start = page.LastEvaluatedKey;
    } while (start);
    return ids;
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
