import { describe, expect, it } from 'vitest';
import { handler as getPaymentIntent } from '../../functions/src/handlers/get-payment-intent';
import { handler as confirmCheckout } from '../../functions/src/handlers/confirm-checkout';
import { handler as addOrder } from '../../functions/src/handlers/add-order';
import { handler as getOrders } from '../../functions/src/handlers/get-orders';
import { handler as getOrdersNotOrdered } from '../../functions/src/handlers/get-orders-not-ordered';
import { handler as getOrdersNotShipped } from '../../functions/src/handlers/get-orders-not-shipped';
import { handler as getOrdersNotFufilled } from '../../functions/src/handlers/get-orders-not-fulfilled';
import { handler as markAsOrdered } from '../../functions/src/handlers/mark-as-ordered';
import { handler as markAsShipped } from '../../functions/src/handlers/mark-as-shipped';
import { handler as markAsFufilled } from '../../functions/src/handlers/mark-as-fulfilled';
import { handler as getSharedProduct } from '../../functions/src/handlers/get-shared-product';
import { handler as exportCsv } from '../../functions/src/handlers/export-csv';
import { allItems, auth, call, tokenFor } from './helpers';
import {
  customer,
  deliver,
  paidCheckout,
  succeededEvent,
  itemsOf,
  member,
  product,
  stripeAtEmulator,
  addedOrder,
} from './sales-helpers';

/**
 * Recording sales against the real engines: a checkout paid at the Stripe emulator (intent made by
 * getPaymentIntent's logic, confirmed with pm_card_visa, its signed payment_intent.succeeded
 * delivered to the webhook handler), the admin's manual order, the marks and the lists.
 */
const stripe = stripeAtEmulator();
const admin = await tokenFor(true);

const counters = async () => {
  const result = await call(getOrders, { body: { limit: 1 }, headers: auth(admin) });
  return result.body.counters as { all: number; notOrdered: number; notShipped: number; notFulfilled: number };
};

describe('a checkout paid at Stripe', () => {
  it('records one order and one commission from the signed webhook, with the buyer from the form', async () => {
    const seller = await member();
    const id = await product(1295, 'approved', 'Desk Lamp');
    const intentId = await paidCheckout(stripe, id, 1295, 3, { ref: seller.shareCode, customer });
    // The form's buyer is on the intent, so the webhook can record them.
    expect(await stripe.paymentIntents.retrieve(intentId)).toMatchObject({
      receipt_email: customer.email,
      shipping: { name: customer.name, address: { line1: '1 Main St', line2: 'Apt 2', postal_code: '62701' } },
      metadata: { product_id: id, qty: '3', unit_amount: '1295', ref: seller.shareCode, customer_name: customer.name },
    });
    const delivered = await deliver(await succeededEvent(stripe, intentId));
    expect(delivered.status).toBe(200);

    const orders = await itemsOf('order', (item) => item.paymentIntentId === intentId);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({
      qty: 3,
      product_id: id,
      product_name: 'Desk Lamp',
      unitCents: 1295,
      totalCents: 3885,
      customer,
      memberId: seller.id,
      source: 'checkout',
      status: 'not_ordered',
    });
    // One status is stored; the spec's flags are derived from it in the answers.
    expect(orders[0]).not.toHaveProperty('isOrdered');
    expect(orders[0]!.orderID).toMatch(/^RP-[0-9A-HJKMNP-TV-Z]{8}$/);
    const commissions = await itemsOf('commission', (item) => item.orderId === orders[0]!.id);
    // 10 % of $12.95 is $1.295, rounded half up to $1.30, × 3.
    expect(commissions).toEqual([
      expect.objectContaining({ memberId: seller.id, amountCents: 390, status: 'order_open' }),
    ]);

    // The browser's report afterwards answers the same order.
    const confirmed = await call(confirmCheckout, { body: { paymentIntentId: intentId } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ orderID: orders[0]!.orderID, qty: 3, totalPayed: 38.85 });
  });

  it('records one order for a payment reported by the webhook three times and the browser twice at once', async () => {
    const seller = await member();
    const id = await product(2000);
    const before = await counters();
    const intentId = await paidCheckout(stripe, id, 2000, 2, { ref: seller.shareCode, customer });
    const payload = await succeededEvent(stripe, intentId);
    const answers = await Promise.all([
      deliver(payload),
      call(confirmCheckout, { body: { paymentIntentId: intentId } }),
      deliver(payload),
      call(confirmCheckout, { body: { paymentIntentId: intentId } }),
      deliver(payload),
    ]);
    // The browser's reports answer the order. Of the three deliveries one applies the event; one
    // that arrives while it is being applied is told to come back (409: Stripe delivers it again).
    expect([answers[1]!.status, answers[3]!.status]).toEqual([200, 200]);
    const deliveries = [answers[0]!, answers[2]!, answers[4]!];
    expect(deliveries.filter((answer) => answer.status === 200).length).toBeGreaterThanOrEqual(1);
    for (const answer of deliveries.filter((one) => one.status !== 200)) {
      expect([answer.status, answer.body.message]).toEqual([
        409,
        'This event is being applied by another delivery right now; Stripe will deliver it again.',
      ]);
    }
    // Stripe's later redelivery is acknowledged and changes nothing.
    expect((await deliver(payload)).status).toBe(200);
    const orders = await itemsOf('order', (item) => item.paymentIntentId === intentId);
    expect(orders).toHaveLength(1);
    // The payment's charge is kept on the order and its commission: it funds the commission's transfer.
    const { latest_charge: charge } = await stripe.paymentIntents.retrieve(intentId);
    expect(orders[0]!.chargeId).toBe(charge);
    expect((await itemsOf('commission', (item) => item.memberId === seller.id))[0]?.chargeId).toBe(charge);
    expect(answers[1]!.body.orderID).toBe(orders[0]!.orderID);
    expect(answers[3]!.body.orderID).toBe(orders[0]!.orderID);
    expect(await itemsOf('commission', (item) => item.memberId === seller.id)).toHaveLength(1);
    const after = await counters();
    expect(after.all - before.all).toBe(1);
    expect(after.notOrdered - before.notOrdered).toBe(1);
  });

  it('takes the buyer from what Stripe has when the checkout sent none, and sells with no commission on an unknown code', async () => {
    const id = await product(1000);
    const intentId = await paidCheckout(stripe, id, 1000, 1, { ref: 'NOSUCHCD' });
    const confirmed = await call(confirmCheckout, { body: { paymentIntentId: intentId } });
    expect(confirmed.status).toBe(200);
    const [order] = await itemsOf('order', (item) => item.paymentIntentId === intentId);
    expect(order).toMatchObject({ memberId: null, commissionId: null, customer: { name: '', email: '' } });
  });

  it('answers 409 for a payment that has not succeeded and 404 for an unknown one, recording nothing', async () => {
    const id = await product(1500);
    const created = await call(getPaymentIntent, { body: { id, amount: 1500 } });
    const intentId = String(created.body.clientSecret).split('_secret_')[0]!;
    const before = await allItems();
    const unpaid = await call(confirmCheckout, { body: { paymentIntentId: intentId } });
    expect(unpaid.status).toBe(409);
    expect(unpaid.body.message).toBe(
      'This payment has not gone through. Finish paying with your card, or try another card.',
    );
    const unknown = await call(confirmCheckout, { body: { paymentIntentId: 'pi_doesnotexist' } });
    expect(unknown.status).toBe(404);
    expect((await allItems()).length).toBe(before.length);
  });

  it('records nothing for a succeeded payment that is not a checkout of ours', async () => {
    const intent = await stripe.paymentIntents.create({
      amount: 5000,
      currency: 'usd',
      payment_method: 'pm_card_visa',
    });
    await stripe.paymentIntents.confirm(intent.id);
    const before = await counters();
    expect((await deliver(await succeededEvent(stripe, intent.id))).status).toBe(200);
    expect(await itemsOf('order', (item) => item.paymentIntentId === intent.id)).toEqual([]);
    expect(await counters()).toEqual(before);
    expect((await call(confirmCheckout, { body: { paymentIntentId: intent.id } })).status).toBe(404);
  });
});

describe('/api/addOrder', () => {
  it('refuses an unknown product, a banned one, an unknown code and a quantity outside 1 to 99, naming the field', async () => {
    const seller = await member();
    const id = await product(1000);
    const banned = await product(1000, 'banned');
    const before = await allItems();
    const cases: [Record<string, unknown>, string][] = [
      [{ product_id: 'f'.repeat(32), qty: 1, ref: seller.shareCode }, 'product_id'],
      [{ product_id: banned, qty: 1, ref: seller.shareCode }, 'product_id'],
      [{ product_id: id, qty: 1, ref: 'ZZZZZZZZ' }, 'ref'],
      [{ product_id: id, qty: 0, ref: seller.shareCode }, 'qty'],
      [{ product_id: id, qty: 100, ref: seller.shareCode }, 'qty'],
      [{ product_id: id, qty: 1.5, ref: seller.shareCode }, 'qty'],
    ];
    for (const [body, field] of cases) {
      const result = await call(addOrder, { body, headers: auth(admin) });
      expect([field, result.status]).toEqual([field, 400]);
      expect(Object.keys(result.body.fields as object)).toEqual([field]);
    }
    expect((await call(addOrder, { body: cases[1]![0], headers: auth(admin) })).body.message).toBe(
      'This product is banned: it can no longer be sold.',
    );
    expect((await allItems()).length).toBe(before.length);
  });

  it('records the sale at the approved price and answers the order and the commission', async () => {
    const seller = await member();
    const id = await product(1294);
    const result = await call(addOrder, {
      body: { product_id: id, qty: 2, ref: seller.shareCode.toLowerCase(), customer },
      headers: auth(admin),
    });
    expect(result.status).toBe(200);
    expect(result.body.order).toMatchObject({
      qty: 2,
      sell_price: 12.94,
      totalPayed: 25.88,
      source: 'admin',
      member: { id: seller.id, email: seller.email },
      customer,
    });
    // $1.294 rounds half up to $1.29, × 2.
    expect(result.body.commission).toMatchObject({ amount: 2.58, state: 'processing', member: { id: seller.id } });
  });
});

describe('the order marks', () => {
  async function newOrder() {
    const { order, commission } = await addedOrder(admin, await member(), await product(1000));
    return { id: order.id, commissionId: commission.id };
  }
  const mark = (handler: typeof markAsOrdered, id: string) => call(handler, { body: { id }, headers: auth(admin) });
  const listIds = async (handler: typeof getOrdersNotOrdered) =>
    ((await call(handler, { body: { limit: 500 }, headers: auth(admin) })).body.items as { id: string }[]).map(
      (order) => order.id,
    );

  it('go ordered → shipped → fulfilled only in that order, moving the order between the lists and the counters', async () => {
    const { id, commissionId } = await newOrder();
    const start = await counters();
    expect(await listIds(getOrdersNotOrdered)).toContain(id);

    const early = await mark(markAsShipped, id);
    expect(early.status).toBe(409);
    expect(early.body.message).toBe('This order is not marked as ordered yet: mark it as ordered first.');
    expect((await mark(markAsFufilled, id)).status).toBe(409);

    expect((await mark(markAsOrdered, id)).body.order).toMatchObject({ isOrdered: 1, isShipped: 0 });
    expect(await listIds(getOrdersNotOrdered)).not.toContain(id);
    expect(await listIds(getOrdersNotShipped)).toContain(id);
    expect((await mark(markAsFufilled, id)).status).toBe(409);

    expect((await mark(markAsShipped, id)).status).toBe(200);
    expect(await listIds(getOrdersNotFufilled)).toContain(id);
    const fulfilled = await mark(markAsFufilled, id);
    expect(fulfilled.body.order).toMatchObject({ isOrdered: 1, isShipped: 1, isFufilled: 1 });
    expect(await listIds(getOrdersNotFufilled)).not.toContain(id);
    const [commission] = await itemsOf('commission', (item) => item.id === commissionId);
    expect(commission!.status).toBe('processing');

    const again = await mark(markAsOrdered, id);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This order was already marked as ordered by someone else; the list is reloaded.');
    const end = await counters();
    expect([end.all - start.all, end.notOrdered - start.notOrdered, end.notShipped - start.notShipped]).toEqual([
      0, -1, 0,
    ]);
    expect(end.notFulfilled - start.notFulfilled).toBe(0);
  });

  it('gives one of two admins marking at once a 200 and the other a 409', async () => {
    const { id } = await newOrder();
    const answers = await Promise.all([mark(markAsOrdered, id), mark(markAsOrdered, id)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.status === 409)!.body.message).toBe(
      'This order was already marked as ordered by someone else; the list is reloaded.',
    );
    const [order] = await itemsOf('order', (item) => item.id === id);
    expect(order).toMatchObject({ status: 'ordered', gsi2pk: 'ORDERS#STAGE#not_shipped' });
  });

  it('answers 404 for an unknown order', async () => {
    const result = await mark(markAsOrdered, 'nosuchorder');
    expect(result.status).toBe(404);
    expect(result.body.message).toBe('There is no order with this id.');
  });

  it('keeps the counters equal to the lists after a sequence of sales and marks', async () => {
    const made = await Promise.all([newOrder(), newOrder(), newOrder()]);
    await mark(markAsOrdered, made[0]!.id);
    await mark(markAsOrdered, made[1]!.id);
    await mark(markAsShipped, made[1]!.id);
    const count = counters();
    const [all, notOrdered, notShipped, notFulfilled] = await Promise.all([
      call(getOrders, { body: { limit: 500 }, headers: auth(admin) }),
      listIds(getOrdersNotOrdered),
      listIds(getOrdersNotShipped),
      listIds(getOrdersNotFufilled),
    ]);
    expect(await count).toEqual({
      all: (all.body.items as unknown[]).length,
      notOrdered: notOrdered.length,
      notShipped: notShipped.length,
      notFulfilled: notFulfilled.length,
    });
  });
});

describe('/api/getSharedProduct', () => {
  it('answers the product, its unit price and whether the code names a member; banned or unknown is a 404', async () => {
    const seller = await member();
    const id = await product(2599, 'approved', 'Shared Lamp');
    const known = await call(getSharedProduct, { body: { id, ref: seller.shareCode } });
    expect(known.status).toBe(200);
    expect(known.body).toMatchObject({
      unitAmountCents: 2599,
      refKnown: true,
      product: { id, product_name: 'Shared Lamp' },
    });
    expect((await call(getSharedProduct, { body: { id, ref: 'UNKNOWN1' } })).body.refKnown).toBe(false);
    for (const missing of [await product(1000, 'banned'), 'f'.repeat(32)]) {
      const result = await call(getSharedProduct, { body: { id: missing } });
      expect(result.status).toBe(404);
      expect(result.body.message).toBe('This product is no longer available.');
    }
  });
});

describe('/api/exportCsv', () => {
  it('exports the orders with formula cells escaped', async () => {
    const seller = await member();
    await call(addOrder, {
      body: {
        product_id: await product(1000),
        qty: 1,
        ref: seller.shareCode,
        customer: { ...customer, name: '=cmd|/C calc!A0' },
      },
      headers: auth(admin),
    });
    const result = await call(exportCsv, { body: { kind: 'orders' }, headers: auth(admin) });
    expect(result.status).toBe(200);
    const csv = String(result.body.csv);
    expect(csv).toContain(`"'=cmd|/C calc!A0"`);
    expect(csv).not.toContain(`"=cmd`);
    expect(result.body.rows).toBe(csv.trim().split('\r\n').length - 1);
    expect(result.body.truncated).toBeUndefined();
    const commissions = await call(exportCsv, { body: { kind: 'commissions' }, headers: auth(admin) });
    expect(String(commissions.body.csv)).toContain(seller.email);
  });
});
