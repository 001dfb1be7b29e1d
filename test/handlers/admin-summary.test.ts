import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { handler as addOrder } from '../../functions/src/handlers/add-order';
import { handler as getAdminSummary } from '../../functions/src/handlers/get-admin-summary';
import { handler as markAsFufilled } from '../../functions/src/handlers/mark-as-fulfilled';
import { handler as markAsOrdered } from '../../functions/src/handlers/mark-as-ordered';
import { handler as markAsShipped } from '../../functions/src/handlers/mark-as-shipped';
import { db, tableName } from '../../functions/src/adapters/dynamo-client';
import { failedPayoutCount } from '../../functions/src/adapters/orders/dynamo-failed-payouts';
import { dynamoProducts } from '../../functions/src/adapters/products/dynamo-products';
import { availableSortKey, keys, lists } from '../../shared/src/db/table';
import { clock } from '../../functions/src/config/clock';
import { createCommission } from './commission-fixtures';
import { auth, call, tokenFor } from './helpers';
import { member, product } from './sales-helpers';

const admin = await tokenFor(true);
const summary = async () => {
  const result = await call(getAdminSummary, { body: {}, headers: auth(admin) });
  expect(result.status).toBe(200);
  return result.body;
};

/** A commission item as the sales layout keeps it, in `list` at the sort key `sortKey` makes of its id. */
async function putCommission(
  list: 'to_stripe' | 'to_be_paid',
  sortKey: (id: string) => string,
  fields: Record<string, unknown>,
): Promise<void> {
  const id = randomUUID();
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.commission(id),
        entity: 'commission',
        id,
        gsi2pk: lists.commissionsAt(list).partition,
        gsi2sk: sortKey(id),
        ...fields,
      },
    }),
  );
}

/** A commission in the members' Stripe balance, as `payout.failed` leaves it (or a plain one to be paid). */
const toBePaid = (failure: string | null) =>
  putCommission('to_be_paid', (id) => `${new Date().toISOString()}#${id}`, {
    status: 'in_stripe',
    payoutFailure: failure,
  });

describe('getAdminSummary', () => {
  it('answers each list’s size from the counters and the bounded counts, and follows every move', async () => {
    expect(await summary()).toEqual({
      orders: { toOrder: 0, toShip: 0, toFulfil: 0 },
      commissions: { toSend: 0, toSendAmount: 0, toPay: 0, toPayAmount: 0 },
      failedPayouts: { count: 0, atLeast: false },
      productsInReview: { count: 0, atLeast: false },
    });

    const seller = await member();
    const sold = await product(2500);
    const orderIds: string[] = [];
    for (let index = 0; index < 3; index++) {
      const recorded = await call(addOrder, {
        body: { product_id: sold, qty: 1, ref: seller.shareCode },
        headers: auth(admin),
      });
      expect(recorded.status).toBe(200);
      orderIds.push((recorded.body.order as { id: string }).id);
    }
    await product(1000, 'review');
    await product(1000, 'review');
    await createCommission({ memberId: seller.id, memberEmail: seller.email, amountCents: 700 });
    await toBePaid('The bank could not process this payout.');
    await toBePaid(null);

    const mark = (handler: typeof markAsOrdered, id: string) => call(handler, { body: { id }, headers: auth(admin) });
    expect((await mark(markAsOrdered, orderIds[0]!)).status).toBe(200);
    expect((await mark(markAsOrdered, orderIds[1]!)).status).toBe(200);
    expect((await mark(markAsShipped, orderIds[1]!)).status).toBe(200);
    expect((await mark(markAsShipped, orderIds[0]!)).status).toBe(200);
    expect((await mark(markAsFufilled, orderIds[0]!)).status).toBe(200);

    const after = await summary();
    // Order 3 to order, none to ship, order 2 to fulfil (order 1 is fulfilled).
    expect(after.orders).toEqual({ toOrder: 1, toShip: 0, toFulfil: 1 });
    // What can be sent to Stripe now: none. Two sales' commissions wait for fulfilment, order 1's is
    // on hold for COMMISSION_HOLD_DAYS, and the 7.00 one's order is not past a hold either.
    expect(after.commissions).toMatchObject({ toSend: 0, toSendAmount: 0 });
    // Both commissions in members' Stripe balances can be paid (one after a failed payout).
    expect(after.commissions).toMatchObject({ toPay: 2 });
    expect(after.failedPayouts).toEqual({ count: 1, atLeast: false });
    expect(after.productsInReview).toEqual({ count: 2, atLeast: false });

    // Past order 1's hold, its commission (2.50) is the one that can be sent.
    const real = clock.now;
    clock.now = () => real() + 15 * 24 * 3600 * 1000;
    try {
      expect((await summary()).commissions).toMatchObject({ toSend: 1, toSendAmount: 2.5 });
    } finally {
      clock.now = real;
    }
  });

  it('counts only what the admin can act on: not a commission held for review, nor one in Stripe held', async () => {
    type Work = { toSend: number; toSendAmount: number; toPay: number };
    const before = (await summary()).commissions as Work;
    const at = new Date(clock.now() - 1000).toISOString();
    // A commission past its hold but held for review (a dispute): out of the AVAILABLE# range.
    await putCommission('to_stripe', (id) => `HELD#${at}#${id}`, {
      status: 'review',
      heldFrom: 'processing',
      amountCents: 900,
    });
    // One in a member's Stripe balance held for review: still in the To be paid list, not payable.
    await putCommission('to_be_paid', (id) => `${at}#${id}`, {
      status: 'review',
      heldFrom: 'in_stripe',
      amountCents: 400,
    });
    // And one past its hold: counted, with its amount.
    await putCommission('to_stripe', (id) => availableSortKey(Date.parse(at), id), {
      status: 'processing',
      amountCents: 650,
      availableAt: Date.parse(at),
    });
    const after = (await summary()).commissions as Work;
    expect(after.toSend - before.toSend).toBe(1);
    expect(Math.round((after.toSendAmount - before.toSendAmount) * 100)).toBe(650);
    expect(after.toPay).toBe(before.toPay);
  });

  it('counts at most its cap, and says there are more', async () => {
    for (let index = 0; index < 3; index++) await toBePaid(`failure ${index}`);
    expect(await failedPayoutCount(2)).toEqual({ count: 2, atLeast: true });
    expect(await dynamoProducts.reviewCount(1)).toEqual({ count: 1, atLeast: true });
    expect((await dynamoProducts.reviewCount(100)).atLeast).toBe(false);
  });

  it('is for admins only', async () => {
    const memberToken = await tokenFor(false);
    expect((await call(getAdminSummary, { body: {}, headers: auth(memberToken) })).status).toBe(403);
    const extra = await call(getAdminSummary, { body: { day: 'today' }, headers: auth(admin) });
    expect(extra.status).toBe(400);
  });
});
