import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { db, tableName } from '../../functions/src/adapters/dynamo-client';
import { upgradeSalesItems } from '../../functions/src/adapters/orders/dynamo-sales-upgrade';
import { handler as getCommissions } from '../../functions/src/handlers/get-commissions';
import { handler as getOrders } from '../../functions/src/handlers/get-orders';
import { handler as markAsOrdered } from '../../functions/src/handlers/mark-as-ordered';
import { NO_MEMBER_WITH_EMAIL } from '../../functions/src/orders/manage';
import { keys } from '../../shared/src/db/table';
import { ONE_SEARCH_AT_A_TIME, ORDER_NUMBER_FORMAT, SEARCH_ALL_ORDERS_ONLY } from '../../shared/src/api/sales';
import { allItems, auth, call, tokenFor } from './helpers';
import { addedOrder, markFulfilled, member, product, type Member } from './sales-helpers';

/**
 * Searching All orders (order number, member, product, status) and All commissions (member,
 * state) on the server, against DynamoDB Local: exact results from the indexes, pages with
 * cursors, and every bad search a 400 (or an unknown member a 404) in words that changes nothing.
 */

interface OrderAnswer {
  id: string;
  orderID: string;
  product_id: string;
  member: { email: string } | null;
  isOrdered: number;
  isShipped: number;
  isFufilled: number;
}
interface CommissionAnswer {
  id: string;
  order_id: string;
  state: string;
  member: { email: string };
}

const admin = await tokenFor(true);
let sellerA: Member;
let sellerB: Member;
let lamp: string;
let mug: string;
/** Newest first, as the lists answer. */
const ordersOfA: OrderAnswer[] = [];
let orderOfB: OrderAnswer;

const searchOrders = (body: Record<string, unknown>) =>
  call(getOrders, { body: { limit: 500, ...body }, headers: auth(admin) });
const searchCommissions = (body: Record<string, unknown>) =>
  call(getCommissions, { body: { limit: 500, ...body }, headers: auth(admin) });
const idsOf = (result: { body: Record<string, unknown> }) => (result.body.items as { id: string }[]).map((o) => o.id);

const recordOrder = async (productId: string, seller: Member) =>
  (await addedOrder(admin, seller, productId)).order as OrderAnswer;

beforeAll(async () => {
  [sellerA, sellerB] = await Promise.all([member(), member()]);
  [lamp, mug] = await Promise.all([product(1999, 'approved', 'Search Lamp'), product(899, 'approved', 'Search Mug')]);
  // One at a time, so that their times (and so the lists' order) differ.
  for (const [productId, seller] of [
    [lamp, sellerA],
    [mug, sellerA],
    [lamp, sellerA],
  ] as const) {
    ordersOfA.unshift(await recordOrder(productId, seller));
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  orderOfB = await recordOrder(lamp, sellerB);
  // A's oldest order goes all the way to fulfilled; their newest is ordered.
  const oldest = ordersOfA[2]!;
  await markFulfilled(admin, oldest.id);
  expect((await call(markAsOrdered, { body: { id: ordersOfA[0]!.id }, headers: auth(admin) })).status).toBe(200);
}, 60_000);

describe('searching All orders', () => {
  it('finds one order by its number, as written or in lower case without the hyphen', async () => {
    const wanted = ordersOfA[1]!;
    for (const orderNumber of [wanted.orderID, wanted.orderID.toLowerCase().replace('-', ''), ` ${wanted.orderID} `]) {
      const result = await searchOrders({ orderNumber });
      expect(result.status).toBe(200);
      expect(idsOf(result)).toEqual([wanted.id]);
      expect(result.body.nextCursor).toBeNull();
    }
    // A number no order has: an empty list, with the counters.
    const none = await searchOrders({ orderNumber: 'RP-00000000' });
    expect(none.status).toBe(200);
    expect(none.body.items).toEqual([]);
    expect((none.body.counters as { all: number }).all).toBeGreaterThanOrEqual(4);
  });

  it("finds a member's orders by their e-mail, newest first, page by page", async () => {
    const all = await searchOrders({ member: sellerA.email.toUpperCase() });
    expect(all.status).toBe(200);
    expect(idsOf(all)).toEqual(ordersOfA.map((order) => order.id));
    // Pages of two: the same orders, in the same order, then no cursor.
    const first = await searchOrders({ member: sellerA.email, limit: 2 });
    expect(idsOf(first)).toEqual(ordersOfA.slice(0, 2).map((order) => order.id));
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await searchOrders({ member: sellerA.email, limit: 2, cursor: first.body.nextCursor });
    expect(idsOf(second)).toEqual([ordersOfA[2]!.id]);
    expect(idsOf(await searchOrders({ member: sellerB.email }))).toEqual([orderOfB.id]);
  });

  it("finds a product's orders by its id, and by status", async () => {
    const lampOrders = await searchOrders({ product: lamp });
    expect(idsOf(lampOrders)).toEqual([orderOfB.id, ordersOfA[0]!.id, ordersOfA[2]!.id]);
    expect(idsOf(await searchOrders({ product: mug }))).toEqual([ordersOfA[1]!.id]);
    // With a status: those of the product in it.
    expect(idsOf(await searchOrders({ product: lamp, status: 'not_ordered' }))).toEqual([orderOfB.id]);
    // A status with a member.
    expect(idsOf(await searchOrders({ member: sellerA.email, status: 'ordered' }))).toEqual([ordersOfA[0]!.id]);
    expect(idsOf(await searchOrders({ member: sellerA.email, status: 'shipped' }))).toEqual([]);
    // A status alone: its stage list, fulfilled from all orders; every answer is in that status.
    const fulfilled = await searchOrders({ status: 'fulfilled' });
    expect(idsOf(fulfilled)).toContain(ordersOfA[2]!.id);
    expect(idsOf(fulfilled)).not.toContain(ordersOfA[0]!.id);
    for (const order of fulfilled.body.items as OrderAnswer[]) expect(order.isFufilled).toBe(1);
    const notOrdered = await searchOrders({ status: 'not_ordered' });
    expect(idsOf(notOrdered)).toEqual(expect.arrayContaining([orderOfB.id, ordersOfA[1]!.id]));
    for (const order of notOrdered.body.items as OrderAnswer[]) expect(order.isOrdered).toBe(0);
  });

  it('refuses a bad search in words, at its field, and changes nothing', async () => {
    const before = await allItems();
    const cases: [Record<string, unknown>, string, string | RegExp][] = [
      [{ orderNumber: '12345' }, 'orderNumber', ORDER_NUMBER_FORMAT],
      [{ orderNumber: '' }, 'orderNumber', 'The order number is required.'],
      [{ member: 'not an address' }, 'member', 'The member’s e-mail address must be a valid e-mail address.'],
      [{ product: ' ' }, 'product', 'The product is required.'],
      [{ status: 'lost' }, 'status', /not_ordered/],
      [{ orderNumber: ordersOfA[0]!.orderID, member: sellerA.email }, 'member', ONE_SEARCH_AT_A_TIME],
      [{ type: 'not_ordered', status: 'ordered' }, 'type', SEARCH_ALL_ORDERS_ONLY],
    ];
    for (const [body, field, message] of cases) {
      const result = await searchOrders(body);
      expect([JSON.stringify(body), result.status]).toEqual([JSON.stringify(body), 400]);
      const fields = result.body.fields as Record<string, string>;
      expect(Object.keys(fields)).toEqual([field]);
      expect(fields[field]).toMatch(message);
    }
    // An address no member has: 404, said at the field.
    const unknown = await searchOrders({ member: 'nobody-at-all@example.com' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.fields).toEqual({ member: NO_MEMBER_WITH_EMAIL });
    // A cursor of another list: 400 at the cursor.
    const page = await searchOrders({ limit: 1 });
    const mixed = await searchOrders({ member: sellerA.email, cursor: page.body.nextCursor });
    expect(mixed.status).toBe(400);
    expect(Object.keys(mixed.body.fields as object)).toEqual(['cursor']);
    expect((await allItems()).length).toBe(before.length);
  });

  it('finds orders stored before the search keys once the upgrade gave them theirs', async () => {
    const wanted = ordersOfA[1]!;
    // As an order of before: no search keys; the upgrade marker not yet written.
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.order(wanted.id),
        UpdateExpression: 'REMOVE gsi3pk, gsi3sk, gsi4pk, gsi4sk',
      }),
    );
    await db().send(
      new DeleteCommand({ TableName: tableName(), Key: { pk: 'UPGRADE#order-search-keys', sk: 'UPGRADE' } }),
    );
    expect(idsOf(await searchOrders({ orderNumber: wanted.orderID }))).toEqual([]);
    expect((await upgradeSalesItems()).searchable).toBeGreaterThanOrEqual(1);
    expect(idsOf(await searchOrders({ orderNumber: wanted.orderID }))).toEqual([wanted.id]);
    expect(idsOf(await searchOrders({ product: mug }))).toEqual([wanted.id]);
    // Done once: the next start reads no order.
    expect((await upgradeSalesItems()).searchable).toBe(0);
  });
});

describe('searching All commissions', () => {
  it("finds a member's commissions by e-mail, and those in a state", async () => {
    const ofA = await searchCommissions({ member: sellerA.email });
    expect(ofA.status).toBe(200);
    const answers = ofA.body.items as CommissionAnswer[];
    expect(answers.map((commission) => commission.order_id)).toEqual(ordersOfA.map((order) => order.id));
    for (const commission of answers) expect(commission.member.email).toBe(sellerA.email);
    // None of A's is in Stripe or paid yet: all in processing.
    expect((await searchCommissions({ member: sellerA.email, status: 'paid' })).body.items).toEqual([]);
    const processing = await searchCommissions({ member: sellerA.email, status: 'processing' });
    expect((processing.body.items as CommissionAnswer[]).map((c) => c.order_id)).toEqual(ordersOfA.map((o) => o.id));
    // A state alone: every answer in it, B's among them.
    const inProcessing = await searchCommissions({ status: 'processing' });
    for (const commission of inProcessing.body.items as CommissionAnswer[]) expect(commission.state).toBe('processing');
    expect((inProcessing.body.items as CommissionAnswer[]).map((c) => c.order_id)).toContain(orderOfB.id);
    for (const commission of (await searchCommissions({ status: 'paid' })).body.items as CommissionAnswer[])
      expect(commission.state).toBe('paid');
  });

  it('finds commissions in each status a person reads: waiting for fulfilment, on hold, available, …', async () => {
    const statuses = async (body: Record<string, unknown>) =>
      ((await searchCommissions(body)).body.items as (CommissionAnswer & { status: string })[]).map((c) => [
        c.order_id,
        c.status,
      ]);
    // A's oldest is fulfilled (on hold for COMMISSION_HOLD_DAYS), the two newer wait for fulfilment.
    expect(await statuses({ member: sellerA.email, status: 'on_hold' })).toEqual([[ordersOfA[2]!.id, 'on_hold']]);
    expect(await statuses({ member: sellerA.email, status: 'waiting_for_fulfilment' })).toEqual([
      [ordersOfA[0]!.id, 'waiting_for_fulfilment'],
      [ordersOfA[1]!.id, 'waiting_for_fulfilment'],
    ]);
    expect(await statuses({ member: sellerA.email, status: 'available' })).toEqual([]);
    // A status alone: from its list, every answer in it.
    const waiting = await statuses({ status: 'waiting_for_fulfilment' });
    expect(waiting.map(([id]) => id)).toContain(orderOfB.id);
    for (const status of ['waiting_for_fulfilment', 'on_hold', 'cancelled', 'clawed_back', 'review'] as const) {
      for (const [, found] of await statuses({ status })) expect(found).toBe(status);
    }
  });

  it('refuses a bad search in words', async () => {
    const badEmail = await searchCommissions({ member: 'ann@' });
    expect(badEmail.status).toBe(400);
    expect(Object.keys(badEmail.body.fields as object)).toEqual(['member']);
    const badState = await searchCommissions({ status: 'gone' });
    expect(badState.status).toBe(400);
    expect(Object.keys(badState.body.fields as object)).toEqual(['status']);
    const unknown = await searchCommissions({ member: 'nobody-at-all@example.com' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.fields).toEqual({ member: NO_MEMBER_WITH_EMAIL });
  });
});
