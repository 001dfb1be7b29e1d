import { describe, expect, it } from 'vitest';
import { handler as getMyLinkStatistics } from '../../functions/src/handlers/get-my-link-statistics';
import { handler as getLinkStatistics } from '../../functions/src/handlers/get-link-statistics';
import { describeDemoVisits, seedDemoVisits } from '../../infra/local/demo-visits';
import { getProduct } from '../../functions/src/adapters/products/dynamo-products';
import { dynamoSaleRecorder } from '../../functions/src/adapters/orders/dynamo-sale-recorder';
import { addOrder, type SaleDeps } from '../../functions/src/orders/record-sale';
import { customer, member, product } from './sales-helpers';
import { auth, call, tokenFor } from './helpers';

type Stats = { days: string[]; total: Record<string, number[]>; products: { name: string }[] };
const sum = (values: number[] | undefined) => (values ?? []).reduce((total, value) => total + value, 0);

/**
 * The demo seed of the link statistics (infra/local/demo-visits.ts), on this file's own table: 90
 * days of visits on the demo member's six links, the orders counted as sales, once; a later start
 * changes nothing.
 */
describe('the demo link statistics seed', () => {
  it("fills the demo member's chart for 90 days and counts the orders as sales, once", async () => {
    const seller = await member();
    const admin = await tokenFor(true);
    // An order recorded as the demo sales record theirs: without the calls' statistics hook.
    const deps: SaleDeps = { sales: dynamoSaleRecorder, products: { get: getProduct }, now: () => Date.now() };
    await addOrder(deps, { product_id: await product(3000), qty: 2, ref: seller.shareCode, customer });
    expect(await seedDemoVisits({ memberEmail: 'nobody@example.com' })).toEqual({ seeded: false, reason: 'no-member' });

    const first = await seedDemoVisits({ memberEmail: seller.email });
    expect(first).toMatchObject({ seeded: true, sales: 1 });
    expect(describeDemoVisits(first)).toMatch(
      /^Seeded the link statistics: \d+ visits over 90 days, 1 sales counted\.$/,
    );
    const mine = (await call(getMyLinkStatistics, { body: {}, headers: auth(seller.token) })).body as unknown as Stats;
    expect(mine.products).toHaveLength(7);
    // Visits on (nearly) every one of the 90 days, and more in the last month than in the first.
    expect(mine.total.visits!.filter((visits) => visits > 0).length).toBeGreaterThan(80);
    expect(sum(mine.total.visits!.slice(60))).toBeGreaterThan(sum(mine.total.visits!.slice(0, 30)));
    expect(sum(mine.total.sales)).toBe(1);
    expect(sum(mine.total.earningsCents)).toBe(600);
    const all = (await call(getLinkStatistics, { body: {}, headers: auth(admin) })).body as unknown as Stats;
    expect(sum(all.total.visits)).toBe((first as { visits: number }).visits);

    expect(await seedDemoVisits({ memberEmail: seller.email })).toEqual({ seeded: false, reason: 'seeded' });
    const again = (await call(getMyLinkStatistics, { body: {}, headers: auth(seller.token) })).body as unknown as Stats;
    expect(again.total).toEqual(mine.total);
  });
});
