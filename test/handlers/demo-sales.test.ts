import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, s3Events, tokenFor } from './catalogue-helpers';
import { allItems, call, uniqueIp } from './helpers';
import { ownStripe, type OwnStripe } from './own-stripe';
import { placesRefreshed, withTableStream } from './places';

// The top-earners places are written from the table's stream (decision 0481).
await withTableStream();

/**
 * The demo sales (infra/local/demo-sales.ts), from empty data as a fresh `npm start` seeds them:
 * the demo accounts, catalogue and member first, then the sales. This file's own table and its own
 * emulator, so the emulator's transfers and payouts are the seed's alone.
 */
const EMAIL = 'member@example.com';
const PASSWORD = 'member-demo-password';
let fileStripe: OwnStripe;

beforeAll(async () => {
  // Pointed at it before the functions make their Stripe client.
  fileStripe = await ownStripe('demo-sales');
});
afterAll(() => fileStripe?.stop());

const stripe = () => fileStripe.stripe;
const seedSales = async () => {
  const { seedDemoSales } = await import('../../infra/local/demo-sales');
  return seedDemoSales({
    memberEmail: EMAIL,
    stripeApiUrl: process.env.STRIPE_API_URL,
    stripeSecretKey: process.env.STRIPE_SECRET_KEY!,
  });
};

async function everything<T>(handler: Parameters<typeof call>[0], token: string, body: object = {}): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await call(handler, {
      body: { ...body, limit: 500, ...(cursor ? { cursor } : {}) },
      headers: auth(token),
    });
    expect(page.status).toBe(200);
    items.push(...(page.body.items as T[]));
    cursor = (page.body.nextCursor as string | null) ?? undefined;
  } while (cursor);
  return items;
}

interface Order {
  isOrdered: number;
  isShipped: number;
  isFufilled: number;
  source: string;
  created_at: string;
  refundState: string;
}
interface Commission {
  state: string;
  status: string;
  amount: number;
  originalAmount: number;
  member: { id: string };
}

describe('the demo sales', () => {
  it('seed orders and commissions in every state, moved through the emulator, once', async () => {
    const { ensureAccount } = await import('../../infra/local/accounts');
    const { seedDemoCatalogue } = await import('../../infra/local/demo-catalogue');
    const { seedDemoMember } = await import('../../infra/local/demo-member');
    expect(await ensureAccount(EMAIL, PASSWORD, false)).toBe('created');
    await seedDemoCatalogue({
      origin: 'http://localhost:3000',
      imagesDir: join(fileStripe.dataDir, 'images'),
      afterUpload: () => s3Events.idle(),
    });
    await seedDemoMember({
      email: EMAIL,
      stripeApiUrl: process.env.STRIPE_API_URL,
      stripeSecretKey: process.env.STRIPE_SECRET_KEY!,
    });

    const outcome = await seedSales();
    expect(outcome).toMatchObject({ seeded: true, moneyMoved: true, orders: 36 });
    if (!outcome.seeded) return;
    expect(outcome.processing + outcome.inStripe + outcome.paid).toBe(outcome.commissions);

    const admin = await tokenFor(true);
    const { handler: getOrders } = await import('../../functions/src/handlers/get-orders');
    const { handler: getCommisions } = await import('../../functions/src/handlers/get-commissions');
    const { handler: getTopEarners } = await import('../../functions/src/handlers/get-top-earners');
    const { handler: byUser } = await import('../../functions/src/handlers/get-commissions-by-user');

    // The order counters agree with the lists; every state is there.
    const orders = await everything<Order>(getOrders, admin);
    expect(orders).toHaveLength(36);
    const first = await call(getOrders, { body: {}, headers: auth(admin) });
    const counters = first.body.counters as Record<string, number>;
    const notOrdered = orders.filter((order) => !order.isOrdered).length;
    const notShipped = orders.filter((order) => order.isOrdered && !order.isShipped).length;
    const notFulfilled = orders.filter((order) => order.isShipped && !order.isFufilled).length;
    const fulfilled = orders.filter((order) => order.isFufilled).length;
    expect(counters).toEqual({ all: 36, notOrdered, notShipped, notFulfilled });
    for (const count of [notOrdered, notShipped, notFulfilled, fulfilled]) expect(count).toBeGreaterThan(0);
    for (const type of ['not_ordered', 'not_shipped', 'not_fulfilled'] as const) {
      const list = await everything<Order>(getOrders, admin, { type });
      expect(list).toHaveLength(
        { not_ordered: notOrdered, not_shipped: notShipped, not_fulfilled: notFulfilled }[type],
      );
    }
    expect(new Set(orders.map((order) => order.source))).toEqual(new Set(['checkout', 'admin']));
    // Spread over the last two months.
    const ages = orders.map((order) => (Date.now() - Date.parse(order.created_at)) / 86_400_000);
    expect(Math.max(...ages)).toBeGreaterThan(50);
    expect(Math.min(...ages)).toBeLessThan(10);

    // The commission totals agree with the list; every state is there.
    const commissions = await everything<Commission>(getCommisions, admin);
    expect(commissions).toHaveLength(outcome.commissions);
    const byState = (state: string) => commissions.filter((commission) => commission.state === state);
    expect([byState('processing').length, byState('in_stripe').length, byState('paid').length]).toEqual([
      outcome.processing,
      outcome.inStripe,
      outcome.paid,
    ]);
    for (const state of ['processing', 'in_stripe', 'paid']) expect(byState(state).length).toBeGreaterThan(0);
    const cents = (list: Commission[]) =>
      list.reduce((sum, commission) => sum + Math.round(commission.amount * 100), 0);
    const totals = (await call(getCommisions, { body: {}, headers: auth(admin) })).body.totals;
    expect(totals).toEqual({
      count: commissions.length,
      paid: cents(byState('paid')) / 100,
      processing: (cents(byState('processing')) + cents(byState('in_stripe'))) / 100,
    });

    // Top earners: five members, their totals adding up to all commissions (their places written
    // from the table's stream, as the places function writes them).
    await placesRefreshed();
    const earners = await everything<{ count: number; totalCommisions: number }>(getTopEarners, admin);
    expect(earners).toHaveLength(5);
    expect(earners.reduce((sum, earner) => sum + earner.count, 0)).toBe(commissions.length);

    // The demo member's own totals are real figures.
    const { handler: login } = await import('../../functions/src/handlers/login');
    const member = await call(login, { body: { email: EMAIL, password: PASSWORD }, sourceIp: uniqueIp() });
    const memberId = (member.body.userProfile as { id: string }).id;
    const own = await call(byUser, { body: { id: memberId }, headers: auth(String(member.body.access_token)) });
    expect(own.status).toBe(200);
    const ownTotals = own.body.totals as { paid: number; processing: number; count: number };
    expect(ownTotals.paid).toBeGreaterThan(0);
    expect(ownTotals.processing).toBeGreaterThan(0);
    expect(ownTotals.count).toBe(commissions.filter((commission) => commission.member.id === memberId).length);

    // The emulator's ledger agrees with the table.
    const transfers = await stripe().transfers.list({ limit: 100 });
    expect(transfers.data).toHaveLength(outcome.inStripe + outcome.paid + outcome.reversed + outcome.clawedBack);
    // What stays transferred is what is in Stripe or paid, and what was clawed back (paid out, owed back).
    const byStatus = (status: string) => commissions.filter((commission) => commission.status === status);
    const clawedBack = byStatus('clawed_back').reduce((sum, c) => sum + Math.round(c.originalAmount * 100), 0);
    expect(cents(byState('in_stripe')) + cents(byState('paid')) + clawedBack).toBe(
      transfers.data.reduce((sum, transfer) => sum + transfer.amount - transfer.amount_reversed, 0),
    );
    // A commission in every status of the money rules, and the refunds that made the side exits.
    expect(outcome).toMatchObject({ cancelled: 1, reversed: 1, clawedBack: 1, refundedOrders: 4 });
    for (const status of [
      'waiting_for_fulfilment',
      'on_hold',
      'available',
      'in_stripe',
      'paid',
      'cancelled',
      'reversed',
      'clawed_back',
    ]) {
      expect(byStatus(status).length, status).toBeGreaterThan(0);
    }
    expect(orders.filter((order) => order.refundState === 'full')).toHaveLength(3);
    expect(orders.filter((order) => order.refundState === 'partial')).toHaveLength(1);
    const accounts = [...new Set(transfers.data.map((transfer) => String(transfer.destination)))];
    let payouts = 0;
    for (const account of accounts) {
      payouts += (await stripe().payouts.list({ limit: 100 }, { stripeAccount: account })).data.length;
    }
    expect(payouts).toBe(outcome.paid + outcome.clawedBack);

    // A second start creates nothing, at the table or at the emulator.
    const before = (await allItems()).filter((item) => item.entity !== 'Session' && item.entity !== 'Family');
    expect(await seedSales()).toEqual({ seeded: false, reason: 'present' });
    const after = (await allItems()).filter((item) => item.entity !== 'Session' && item.entity !== 'Family');
    expect(after).toEqual(before);
    expect((await stripe().transfers.list({ limit: 100 })).data).toHaveLength(transfers.data.length);
    expect((await stripe().paymentIntents.list({ limit: 100 })).data).toHaveLength(
      orders.filter((order) => order.source === 'checkout').length,
    );
  });

  it('says so, and moves nothing, when the emulator’s state was wiped but the table was not', async () => {
    await fileStripe.wipe();
    const before = (await allItems()).filter((item) => item.entity !== 'Session' && item.entity !== 'Family');
    expect(await seedSales()).toMatchObject({ seeded: false, reason: 'emulator-wiped' });
    const after = (await allItems()).filter((item) => item.entity !== 'Session' && item.entity !== 'Family');
    expect(after).toEqual(before);
    expect((await stripe().transfers.list({ limit: 100 })).data).toEqual([]);
  });

  it('seeds nothing twice from a seed that stopped half-way', async () => {
    const { DEMO_SALES_MARKER } = await import('../../infra/local/demo-sales');
    const { db, tableName } = await import('../../functions/src/adapters/dynamo-client');
    const { PutCommand } = await import('@aws-sdk/lib-dynamodb');
    await db().send(
      new PutCommand({ TableName: tableName(), Item: { ...DEMO_SALES_MARKER, entity: 'DemoSeed', state: 'seeding' } }),
    );
    expect(await seedSales()).toEqual({ seeded: false, reason: 'half-seeded' });
  });
});
