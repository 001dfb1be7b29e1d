import { randomInt } from 'node:crypto';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { STATS_SHARDS, keys, statsPartition, type StatsSeries } from '@portal/shared/db/table';
import {
  COUNT_NAMES,
  type CountRow,
  type CountTarget,
  type Counts,
  type VisitRecord,
  type VisitStore,
} from '../../visits/visit-store';
import {
  batchGetAll,
  db,
  tableName,
  transact,
  writtenUnlessConditionFails,
  type TransactItems,
} from '../dynamo-client';

/**
 * The link statistics on the table (docs/link-statistics.md): the day's salt, one item per counted
 * visit, and the counts in sharded items (`STATS#<series>#<nn>` / `DAY#<day>[#ALL|#P#<productId>]`),
 * ADDed to one random shard each, so no item is written by every visit.
 */

const get = async (key: { pk: string; sk: string }) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

/** The series a target's counts go to: every link, its product, and its member (total and product). */
function seriesKeys(target: CountTarget): { pk: string; sk: string }[] {
  const shardOf = (series: StatsSeries) => randomInt(STATS_SHARDS[series.kind]);
  const all: StatsSeries = { kind: 'all' };
  const product: StatsSeries = { kind: 'product', productId: target.productId };
  const found = [
    keys.statsShard(all, shardOf(all), target.day),
    keys.statsShard(product, shardOf(product), target.day),
  ];
  if (target.memberId) {
    const member: StatsSeries = { kind: 'member', memberId: target.memberId };
    const shard = shardOf(member);
    found.push(
      keys.statsShard(member, shard, target.day),
      keys.statsShard(member, shard, target.day, target.productId),
    );
  }
  return found;
}

/** `ADD visits :visits, …` over the counts that are not 0, with the item's entity and expiry. */
function addExpression(counts: Partial<Counts>, expiresAt: number) {
  const names: Record<string, string> = { '#entity': 'entity', '#expiresAt': 'expiresAt' };
  const values: Record<string, unknown> = { ':entity': 'linkStats', ':expiresAt': expiresAt };
  const adds: string[] = [];
  for (const name of COUNT_NAMES) {
    const value = counts[name];
    if (!value) continue;
    names[`#${name}`] = name;
    values[`:${name}`] = value;
    adds.push(`#${name} :${name}`);
  }
  return {
    UpdateExpression: `SET #entity = :entity, #expiresAt = :expiresAt ADD ${adds.join(', ')}`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

const toVisit = (item: Record<string, unknown>): VisitRecord => ({
  visitId: String(item.visitId),
  productId: String(item.productId),
  memberId: typeof item.memberId === 'string' ? item.memberId : null,
  hour: String(item.hour),
  expiresAt: Number(item.expiresAt),
});

export const dynamoVisits: VisitStore = {
  async saltOf(day, candidate, expiresAt) {
    const key = keys.visitSalt(day);
    const put = await writtenUnlessConditionFails(() =>
      db().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...key, entity: 'visitSalt', salt: candidate.toString('base64'), expiresAt },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    );
    if (put) return candidate;
    const stored = await get(key);
    if (typeof stored?.salt !== 'string') throw new Error(`The visit salt of ${day} could not be read back`);
    return Buffer.from(stored.salt, 'base64');
  },

  async memberOfShareCode(code) {
    const claim = await get(keys.shareCode(code));
    return typeof claim?.userId === 'string' ? claim.userId : undefined;
  },

  putVisit: (visit) =>
    writtenUnlessConditionFails(() =>
      db().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...keys.visit(visit.visitId), entity: 'visit', ...visit },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    ),

  async getVisit(visitId) {
    const item = await get(keys.visit(visitId));
    return item ? toVisit(item) : undefined;
  },

  markCheckout: (visitId, atIso) =>
    writtenUnlessConditionFails(() =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.visit(visitId),
          UpdateExpression: 'SET checkoutAt = :at',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(checkoutAt)',
          ExpressionAttributeValues: { ':at': atIso },
        }),
      ),
    ),

  async add(target, counts, expiresAt) {
    const expression = addExpression(counts, expiresAt);
    await Promise.all(
      seriesKeys(target).map((key) =>
        db().send(new UpdateCommand({ TableName: tableName(), Key: key, ...expression })),
      ),
    );
  },

  async addSaleOnce(orderId, target, counts, expiresAt) {
    const expression = addExpression(counts, expiresAt);
    const items: TransactItems = [
      {
        Put: {
          TableName: tableName(),
          Item: { ...keys.statsSale(orderId), entity: 'statsSale', orderId, expiresAt },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      ...seriesKeys(target).map((key) => ({ Update: { TableName: tableName(), Key: key, ...expression } })),
    ];
    const result = await transact(items);
    if (result.ok) return true;
    if (result.failedAt.includes(0)) return false;
    throw result.error;
  },

  async read(series, fromDay, toDay) {
    const rows: CountRow[] = [];
    const shards = Array.from({ length: STATS_SHARDS[series.kind] }, (_, shard) => shard);
    await Promise.all(
      shards.map(async (shard) => {
        const pk = `${statsPartition(series)}#${String(shard).padStart(2, '0')}`;
        let start: Record<string, unknown> | undefined;
        do {
          const page = await db().send(
            new QueryCommand({
              TableName: tableName(),
              KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
              ExpressionAttributeValues: { ':pk': pk, ':from': `DAY#${fromDay}`, ':to': `DAY#${toDay}~` },
              ExclusiveStartKey: start,
            }),
          );
          for (const item of page.Items ?? []) rows.push(toRow(item));
          start = page.LastEvaluatedKey;
        } while (start);
      }),
    );
    return rows;
  },

  async productNames(productIds) {
    const items = await batchGetAll(productIds.map((id) => ({ ...keys.product(id) })));
    const names = new Map<string, string>();
    for (const item of items) {
      const content = (item.approved ?? item.current) as { product_name?: unknown } | undefined;
      const id = String(item.pk).slice('PRODUCT#'.length);
      names.set(id, typeof content?.product_name === 'string' ? content.product_name : id);
    }
    return names;
  },

  async memberOfEmail(email) {
    const claim = await get(keys.email(email));
    return typeof claim?.userId === 'string' ? claim.userId : undefined;
  },

  async commissionCents(commissionId) {
    const item = await get(keys.commission(commissionId));
    return typeof item?.amountCents === 'number' ? item.amountCents : 0;
  },
};

/** A stored shard as counts: `DAY#<day>`, `DAY#<day>#ALL` or `DAY#<day>#P#<productId>`. */
function toRow(item: Record<string, unknown>): CountRow {
  const [, day = '', part, productId] = String(item.sk).split('#');
  const counts: Partial<Counts> = {};
  for (const name of COUNT_NAMES) if (typeof item[name] === 'number') counts[name] = item[name];
  return { day, ...(part === 'P' && productId ? { productId } : {}), counts };
}
