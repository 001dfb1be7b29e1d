import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys, lists } from '@portal/shared/db/table';
import { productIdFromSpuNo } from '@portal/shared/domain/csv-product';
import {
  catalogueListOf,
  membersSee,
  productTransition,
  searchableName,
  type CatalogueList,
  type ProductAction,
} from '@portal/shared/domain/product-status';
import {
  batchGetAll,
  batchWriteAll,
  db,
  decodeCursor,
  encodeCursor,
  isConditionFailed,
  queryPages,
  scanPages,
  tableName,
  writtenUnlessConditionFails,
} from '../dynamo-client';
import type {
  BoundedCount,
  ModerationOutcome,
  MoveOutcome,
  Page,
  ProductContent,
  ProductRecord,
  ProductRepository,
  ProductState,
} from '../../products/product-store';
import type { HostedPicture } from '@portal/shared/domain/pictures';

const review = lists.productsInReview;
const approved = lists.productsApproved;
const sortKey = (time: string, id: string) => `${time}#${id}`;
const nameKey = (name: string, id: string) => `${searchableName(name)}#${id}`;

/** The gsi3 keys of the catalogue list a product is in (none while in review for the first time). */
function catalogueKeys(product: Pick<ProductRecord, 'id' | 'status' | 'current' | 'approved'>) {
  const list = catalogueListOf(product.status, product.approved !== undefined);
  if (!list) return {};
  const shown = list === 'banned' ? product.current : (product.approved ?? product.current);
  return { gsi3pk: lists.catalogue(list).partition, gsi3sk: nameKey(shown.product_name, product.id) };
}

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
    ...(membersSee(product.status, product.approved !== undefined) && product.approvedAt
      ? { gsi2pk: approved.partition, gsi2sk: sortKey(product.approvedAt, product.id) }
      : {}),
    ...catalogueKeys(product),
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

interface Update {
  set: Record<string, unknown>;
  remove: string[];
}

/** What each admin move writes besides the status (PRODUCT_TRANSITIONS says which moves exist). */
function updateFor(action: ProductAction, product: ProductRecord, now: string): Update {
  const id = product.id;
  switch (action) {
    case 'approve':
      return {
        set: {
          approved: product.current,
          approvedAt: now,
          updatedAt: now,
          gsi2pk: approved.partition,
          gsi2sk: sortKey(now, id),
          gsi3pk: lists.catalogue('approved').partition,
          gsi3sk: nameKey(product.current.product_name, id),
        },
        remove: ['gsi1pk', 'gsi1sk'],
      };
    case 'ban':
      return {
        set: {
          bannedAt: now,
          updatedAt: now,
          gsi3pk: lists.catalogue('banned').partition,
          gsi3sk: nameKey(product.current.product_name, id),
        },
        remove: ['gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk'],
      };
    case 'withdraw':
      return {
        set: {
          withdrawnAt: now,
          updatedAt: now,
          gsi3pk: lists.catalogue('withdrawn').partition,
          gsi3sk: nameKey((product.approved ?? product.current).product_name, id),
        },
        remove: ['gsi2pk', 'gsi2sk'],
      };
    case 'reopen':
      // Back as a new product: members see nothing of it until it is approved again.
      return {
        set: { updatedAt: now, gsi1pk: review.partition, gsi1sk: sortKey(now, id) },
        remove: ['approved', 'approvedAt', 'bannedAt', 'withdrawnAt', 'gsi2pk', 'gsi2sk', 'gsi3pk', 'gsi3sk'],
      };
  }
}

/** A move that lost its race is read and decided again, at most this many times in all. */
const MOVE_ATTEMPTS = 4;

async function move(id: string, action: ProductAction, now: string, version?: string): Promise<MoveOutcome> {
  for (let attempt = 0; attempt < MOVE_ATTEMPTS; attempt++) {
    const found = await db().send(
      new GetCommand({ TableName: tableName(), Key: keys.product(id), ConsistentRead: true }),
    );
    if (!found.Item) return { outcome: 'not-found' };
    const product = fromItem(found.Item);
    const contentHash = String(found.Item.contentHash);
    const transition = productTransition(action, product.status);
    if (!transition) return { outcome: 'not-allowed', status: product.status };
    if (version !== undefined && version !== contentHash) return { outcome: 'changed' };
    const update = updateFor(action, product, now);
    const names: Record<string, string> = { '#status': 'status' };
    const values: Record<string, unknown> = {
      ':to': transition.to,
      ':from': transition.from,
      ':hash': contentHash,
    };
    const sets = ['#status = :to'];
    for (const [name, value] of Object.entries(update.set)) {
      names[`#${name}`] = name;
      values[`:${name}`] = value;
      sets.push(`#${name} = :${name}`);
    }
    const removes = update.remove.map((name) => {
      names[`#${name}`] = name;
      return `#${name}`;
    });
    try {
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.product(id),
          UpdateExpression: `SET ${sets.join(', ')} REMOVE ${removes.join(', ')}`,
          // The state this move was decided on: the status it starts from and the version read.
          ConditionExpression: '#status = :from AND contentHash = :hash',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      );
      return { outcome: 'done', status: transition.to };
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
      // Someone moved it, or an import changed it, since the read: decide again on what is there now.
    }
  }
  return { outcome: 'changed' };
}

function moderation(outcome: MoveOutcome): ModerationOutcome {
  if (outcome.outcome === 'done' || outcome.outcome === 'not-found' || outcome.outcome === 'changed') {
    return outcome.outcome;
  }
  return 'not-in-review';
}

/**
 * One page of a catalogue list by name (gsi3, key conditions only: no filter, so a page costs the
 * same whatever the catalogue's size). A search reads the product whose SPU it is (GetItem by the
 * id the SPU gives) for the first page, and the names that start with it.
 */
async function cataloguePage(
  list: CatalogueList,
  search: string | undefined,
  cursor: string | undefined,
  limit: number,
): Promise<Page<ProductRecord>> {
  const source = lists.catalogue(list);
  const prefix = search ? searchableName(search) : '';
  // SPUs are compared as the import stores them (case kept): as typed, then in capitals.
  const spuIds =
    search && cursor === undefined
      ? [...new Set([search, search.toUpperCase()])].map((spu) => productIdFromSpuNo(spu))
      : [];
  const bySpu = (await Promise.all(spuIds.map(getProduct))).find(
    (product) => product && catalogueListOf(product.status, product.approved !== undefined) === list,
  );
  const result = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: source.index,
      KeyConditionExpression: prefix ? '#pk = :partition AND begins_with(#sk, :prefix)' : '#pk = :partition',
      ExpressionAttributeNames: { '#pk': `${source.index}pk`, ...(prefix ? { '#sk': `${source.index}sk` } : {}) },
      ExpressionAttributeValues: { ':partition': source.partition, ...(prefix ? { ':prefix': prefix } : {}) },
      Limit: limit,
      ExclusiveStartKey: decodeCursor(cursor, {
        attributes: ['pk', 'sk', `${source.index}pk`, `${source.index}sk`],
        equals: { [`${source.index}pk`]: source.partition, sk: 'PRODUCT' },
        startsWith: { pk: 'PRODUCT#' },
      }),
    }),
  );
  const items = (result.Items ?? []).map(fromItem).filter((product) => product.id !== bySpu?.id);
  return {
    items: bySpu ? [bySpu, ...items] : items,
    nextCursor: encodeCursor(result.LastEvaluatedKey),
  };
}

/** How many products wait for review: a COUNT Query of the review index, read up to `cap`. */
async function reviewCount(cap: number): Promise<BoundedCount> {
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const result = await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: review.index,
        KeyConditionExpression: '#pk = :partition',
        ExpressionAttributeNames: { '#pk': `${review.index}pk` },
        ExpressionAttributeValues: { ':partition': review.partition },
        Select: 'COUNT',
        Limit: cap + 1 - count,
        ExclusiveStartKey: start,
      }),
    );
    count += result.Count ?? 0;
    start = result.LastEvaluatedKey;
  } while (start && count <= cap);
  return count > cap ? { count: cap, atLeast: true } : { count, atLeast: false };
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
  for await (const page of scanPages({
    FilterExpression: 'entity = :product',
    ProjectionExpression: 'id',
    ExpressionAttributeValues: { ':product': 'Product' },
  })) {
    for (const item of page.Items ?? []) ids.push(String(item.id));
  }
  await putIdChunk(ids);
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.productIdsComplete(), entity: 'ProductIds', count: ids.length },
    }),
  );
}

/**
 * Gives the products stored before the catalogue lists existed their list keys (gsi3), once per
 * table (a marker says it is done): one Scan, as `buildIdDirectory` does. `npm start` runs it, and
 * a deployed stack after each deploy (handlers/deploy/upgrade-table.ts). Each write is conditional on the status
 * read, so a product moved meanwhile keeps the keys its move gave it.
 */
export async function upgradeCatalogueKeys(): Promise<number> {
  const marker = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.catalogueKeysUpgrade(), ConsistentRead: true }),
  );
  if (marker.Item) return 0;
  let upgraded = 0;
  for await (const page of scanPages({
    FilterExpression: 'entity = :product AND attribute_not_exists(gsi3pk)',
    ExpressionAttributeValues: { ':product': 'Product' },
  })) {
    for (const item of page.Items ?? []) {
      const product = fromItem(item);
      const listKeys = catalogueKeys(product);
      if (!('gsi3pk' in listKeys)) continue;
      const written = await writtenUnlessConditionFails(() =>
        db().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: keys.product(product.id),
            UpdateExpression: 'SET gsi3pk = :pk, gsi3sk = :sk',
            ConditionExpression: '#status = :status AND attribute_not_exists(gsi3pk)',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':pk': listKeys.gsi3pk, ':sk': listKeys.gsi3sk, ':status': product.status },
          }),
        ),
      );
      if (written) upgraded++;
    }
  }
  await db().send(
    new PutCommand({ TableName: tableName(), Item: { ...keys.catalogueKeysUpgrade(), entity: 'Upgrade', upgraded } }),
  );
  return upgraded;
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
    // held the import to 0.64 of the raw write rate on DynamoDB Local (docs/architecture.md#the-import-path).
    await batchWriteAll(products.map((product) => ({ PutRequest: { Item: productItem(product) } })));
  },

  async knownIds(limit) {
    const complete = await db().send(
      new GetCommand({ TableName: tableName(), Key: keys.productIdsComplete(), ConsistentRead: true }),
    );
    if (!complete.Item) await buildIdDirectory();
    const ids = new Set<string>();
    for await (const page of queryPages({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :ids)',
      ExpressionAttributeValues: { ':pk': keys.productIdsComplete().pk, ':ids': 'IDS#' },
      ProjectionExpression: 'ids',
      ConsistentRead: true,
    })) {
      for (const item of page.Items ?? []) for (const id of String(item.ids).split(' ')) ids.add(id);
      if (ids.size > limit) return null;
    }
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

  approve: async (id, version, now) => moderation(await move(id, 'approve', now, version)),
  ban: async (id, now) => moderation(await move(id, 'ban', now)),
  move,
  catalogue: cataloguePage,
  reviewCount,
};

/**
 * Writes a product version's hosted pictures (issue 38) onto the versions that are still it: the
 * one in review and the approved one, each by a condition on its content hash, so a newer import
 * is never given an older version's pictures. An approval that read the version in review before
 * the pictures landed copies it without them: read again, and the approved version is given them too.
 */
export async function setHostedPictures(
  id: string,
  version: string,
  hosted: Record<string, HostedPicture>,
): Promise<boolean> {
  const onto = (side: 'current' | 'approved') =>
    writtenUnlessConditionFails(() =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.product(id),
          UpdateExpression: 'SET #side.hosted_images = :hosted',
          ConditionExpression: '#side.content_hash = :version',
          ExpressionAttributeNames: { '#side': side },
          ExpressionAttributeValues: { ':hosted': hosted, ':version': version },
        }),
      ),
    );
  const [current, approvedVersion] = await Promise.all([onto('current'), onto('approved')]);
  if (!current && !approvedVersion) return false;
  for (let check = 0; check < 3; check++) {
    const product = await getProduct(id);
    const approvedContent = product?.approved;
    if (approvedContent?.content_hash !== version) break;
    const has = approvedContent.hosted_images ?? {};
    if (Object.keys(hosted).every((address) => has[address])) break;
    await onto('approved');
  }
  return true;
}
