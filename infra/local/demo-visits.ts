import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { productIdFromSpuNo } from '@portal/shared/domain/csv-product';
import { db, isConditionFailed, tableName } from '../../functions/src/adapters/dynamo-client';
import { dynamoSales } from '../../functions/src/adapters/orders/dynamo-sales';
import { dynamoUsers } from '../../functions/src/adapters/auth/dynamo-users';
import { dynamoVisits } from '../../functions/src/adapters/visits/dynamo-visits';
import { dayOf, statsExpiry } from '../../functions/src/visits/days';
import { saleCounted } from '../../functions/src/visits/funnel';
import { demoProducts } from './demo-catalogue';

/**
 * The demo of the link statistics (issue 39), seeded once per data folder after the demo sales:
 * 90 days of visits and checkouts started on the demo member's links to six demo products (a
 * weekly rhythm, a slow rise, a product that took off three weeks ago) and a few on other
 * members' links, ADDed to the counts as countVisit and getPaymentIntent would; and every demo
 * order counted as a sale, as the webhook counts one (saleCounted: once per order, its commission
 * as stored), a checkout's as led by a visit. So My Account's chart and the admin's funnel show
 * what they are for. Visits are made up, so no visit items: only the counts.
 *
 * Once: the marker `DEMO#visits` is put (conditionally) first; a later start finds it and seeds nothing.
 */
export const DEMO_VISITS_MARKER = { pk: 'DEMO#visits', sk: 'DEMO' };

export type DemoVisits =
  { seeded: true; visits: number; sales: number } | { seeded: false; reason: 'seeded' | 'no-member' };

/** A small deterministic generator (mulberry32): the same demo on every fresh start. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

/** Plausible visits of one link on day `age` days ago: weekends busier, a slow rise, noise. */
function visitsOn(next: () => number, base: number, age: number, weekday: number, boostFrom?: number): number {
  const weekend = weekday === 0 || weekday === 6 ? 1.4 : 1;
  const rise = 1 + (90 - age) / 120;
  const boost = boostFrom !== undefined && age <= boostFrom ? 2.5 : 1;
  return Math.max(0, Math.round(base * weekend * rise * boost * (0.6 + next() * 0.8)));
}

async function inBatches<T>(items: readonly T[], size: number, work: (item: T) => Promise<unknown>) {
  for (let start = 0; start < items.length; start += size)
    await Promise.all(items.slice(start, start + size).map(work));
}

export async function seedDemoVisits(options: { memberEmail: string; now?: () => number }): Promise<DemoVisits> {
  const now = options.now ?? (() => Date.now());
  const member = await dynamoUsers.findByEmail(options.memberEmail);
  if (!member) return { seeded: false, reason: 'no-member' };
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...DEMO_VISITS_MARKER, entity: 'DemoMarker', status: 'seeding' },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  } catch (error) {
    if (isConditionFailed(error)) return { seeded: false, reason: 'seeded' };
    throw error;
  }
  const products = demoProducts().map((product) => productIdFromSpuNo(product.spu_no));
  // The demo member's six links, and two other links nobody in the demo logs in as (the admin's "all links").
  const links = [
    ...products.slice(0, 6).map((productId, index) => ({
      productId,
      memberId: member.id as string | null,
      base: [24, 14, 9, 6, 4, 3][index]!,
      boostFrom: index === 2 ? 21 : undefined,
    })),
    ...products.slice(6, 8).map((productId) => ({ productId, memberId: null, base: 8, boostFrom: undefined })),
  ];
  const writes: { day: string; productId: string; memberId: string | null; visits: number; checkouts: number }[] = [];
  let visits = 0;
  for (const [index, link] of links.entries()) {
    const next = random(39 + index);
    for (let age = 89; age >= 0; age--) {
      const at = now() - age * 86_400_000;
      const count = visitsOn(next, link.base, age, new Date(at).getUTCDay(), link.boostFrom);
      const checkouts = Math.round(count * (0.05 + next() * 0.05));
      if (count === 0) continue;
      visits += count;
      writes.push({ day: dayOf(at), productId: link.productId, memberId: link.memberId, visits: count, checkouts });
    }
  }
  await inBatches(writes, 16, (write) =>
    dynamoVisits.add(
      { day: write.day, productId: write.productId, memberId: write.memberId },
      { visits: write.visits, checkouts: write.checkouts },
      statsExpiry(Date.parse(`${write.day}T12:00:00Z`)),
    ),
  );
  // Every demo order as the webhook counts it; a checkout's came through a visit.
  let sales = 0;
  let cursor: string | undefined;
  do {
    const page = await dynamoSales.ordersPage('all', cursor, 100);
    await inBatches(page.items, 8, async (order) => {
      const counted = await saleCounted(
        { store: dynamoVisits, now },
        { ...order, ...(order.source === 'checkout' && !order.visitId ? { visitId: 'demo' } : {}) },
      );
      if (counted) sales++;
    });
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: DEMO_VISITS_MARKER,
      UpdateExpression: 'SET #status = :done, visits = :visits, sales = :sales',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':done': 'done', ':visits': visits, ':sales': sales },
    }),
  );
  return { seeded: true, visits, sales };
}

/** The start's line about the seed, or null when nothing was seeded. */
export function describeDemoVisits(result: DemoVisits): string | null {
  if (result.seeded) {
    return `Seeded the link statistics: ${result.visits} visits over 90 days, ${result.sales} sales counted.`;
  }
  return result.reason === 'no-member' ? 'The link statistics were not seeded: the demo member is missing.' : null;
}
