import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type Stripe from 'stripe';
import { afterAll, describe, expect, it } from 'vitest';
import { handler as getPaymentIntent } from '../../functions/src/handlers/get-payment-intent';
import { handler as confirmCheckout } from '../../functions/src/handlers/confirm-checkout';
import { handler as banProduct } from '../../functions/src/handlers/ban-product';
import { handler as withdrawProduct } from '../../functions/src/handlers/withdraw-product';
import { handler as getCheckoutCancels } from '../../functions/src/handlers/get-checkout-cancels';
import { handler as getOrders } from '../../functions/src/handlers/get-orders';
import { handler as getCommissions } from '../../functions/src/handlers/get-commissions';
import { handler as getCommissionsByUser } from '../../functions/src/handlers/get-commissions-by-user';
import { handler as reviewHeldCommission } from '../../functions/src/handlers/review-held-commission';
import { handler as getHeldCommissions } from '../../functions/src/handlers/get-held-commissions';
import { handler as markAsOrdered } from '../../functions/src/handlers/mark-as-ordered';
import { handler as markAsShipped } from '../../functions/src/handlers/mark-as-shipped';
import { handler as markAsFufilled } from '../../functions/src/handlers/mark-as-fulfilled';
import { handler as signup } from '../../functions/src/handlers/signup';
import { db, tableName } from '../../functions/src/adapters/dynamo-client';
import { dynamoProducts } from '../../functions/src/adapters/products/dynamo-products';
import { dynamoOpenIntents } from '../../functions/src/adapters/payments/dynamo-open-intents';
import { payments } from '../../functions/src/composition';
import { createCheckoutPaymentIntent } from '../../functions/src/payments/checkout';
import { mailboxOf } from '../../functions/src/orders/abuse';
import { paymentOrderIds } from '../../functions/src/orders/record-sale';
import { keys } from '../../shared/src/db/table';
import { COUNTERS_KEY, earningsKey, item } from './commission-fixtures';
import { checkoutCancelQueue } from './checkout-cancel-queue';
import { auth, call, cookieFrom, tokenFor, uniqueEmail } from './helpers';
import { mailsTo } from './outbox';
import { customer, deliver, member, product, stripeAtEmulator, succeededEvent } from './sales-helpers';

/**
 * Issue 27, "Abuse", against the real engines (DynamoDB Local, the Stripe emulator, the signed
 * webhook): a member buying through their own link (same mailbox, or their own session) has the
 * commission held for review (SELF_PURCHASE=review, the default; abuse-no-commission.test.ts runs
 * the other setting); the admin releases or cancels it; a ban or withdrawal cancels the product's
 * open payment intents at Stripe; a payment that went through anyway is recorded and flagged.
 */
// First: the functions' environment is read once, at the first call.
const cancels = await checkoutCancelQueue();
afterAll(() => cancels.close());
const stripe = stripeAtEmulator();
const admin = await tokenFor(true);

/** The ban's cancelling run to its end by the cancel function behind the queue; its counts. */
async function cancelledThroughQueue(productId: string) {
  const poller = cancels.start();
  await poller.idle();
  await cancels.stop();
  return (await call(getCheckoutCancels, { body: { id: productId }, headers: auth(admin) })).body;
}

const read = async (key: { pk: string; sk: string }) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

/** A member signed up through the handler, with the refresh cookie their browser keeps. */
async function memberWithSession() {
  const email = uniqueEmail('self');
  const result = await call(signup, { body: { email, password: 'a long enough password' } });
  expect(result.status).toBe(200);
  const profile = result.body.userProfile as { id: string; shareCode: string };
  return { id: profile.id, email, shareCode: profile.shareCode, cookie: cookieFrom(result) };
}

/** getPaymentIntent as the customer's page calls it (with the browser's cookies, if any); answers the intent's id. */
async function checkout(
  productId: string,
  cents: number,
  options: { ref?: string; email?: string; cookie?: string; checkoutId?: string } = {},
): Promise<string> {
  const result = await call(getPaymentIntent, {
    body: {
      id: productId,
      amount: cents,
      qty: 1,
      ...(options.ref ? { ref: options.ref } : {}),
      ...(options.checkoutId ? { checkoutId: options.checkoutId } : {}),
      customer: { ...customer, email: options.email ?? customer.email },
    },
    ...(options.cookie ? { cookies: [options.cookie] } : {}),
  });
  expect(result.status).toBe(200);
  return String(result.body.clientSecret).split('_secret_')[0]!;
}

const pay = async (intentId: string) =>
  expect((await stripe.paymentIntents.confirm(intentId, { payment_method: 'pm_card_visa' })).status).toBe('succeeded');

/** The order and the commission a payment recorded, as stored. */
async function recorded(intentId: string) {
  const ids = paymentOrderIds(intentId);
  return { order: await read(keys.order(ids.id)), commission: await read(keys.commission(ids.commissionId)) };
}

/** A product approved, then changed by an import (in review again, still sold at its approved values): a ban applies. */
async function productInReview(cents: number): Promise<string> {
  const id = await product(cents);
  const stored = (await dynamoProducts.get(id))!;
  const changed = { ...stored.current, content_hash: `${stored.current.content_hash.slice(0, 60)}beef` };
  expect(
    await dynamoProducts.revise(
      id,
      changed,
      { id, status: 'approved', contentHash: stored.current.content_hash },
      'job2',
      new Date().toISOString(),
    ),
  ).toBe(true);
  return id;
}

describe('a member buying through their own link', () => {
  it('tells one mailbox however it is written: case, a +tag, and Gmail’s dots', () => {
    expect(mailboxOf(' Ann.Lee+shop@Example.com ')).toBe('ann.lee@example.com');
    expect(mailboxOf('a.n.n+x@googlemail.com')).toBe('ann@gmail.com');
    expect(mailboxOf('ann.lee@example.com')).not.toBe(mailboxOf('annlee@example.com'));
  });

  it('holds the commission for review when the buyer’s e-mail is the member’s (case and +tag aside), and the webhook’s replays change nothing', async () => {
    const seller = await member();
    const id = await product(2000);
    const [local, domain] = seller.email.split('@');
    const intentId = await checkout(id, 2000, {
      ref: seller.shareCode,
      email: `${local!.toUpperCase()}+gift@${domain}`,
    });
    await pay(intentId);
    const event = await succeededEvent(stripe, intentId);
    expect((await deliver(event)).status).toBe(200);

    const first = await recorded(intentId);
    expect(first.order).toMatchObject({ memberId: seller.id, status: 'not_ordered' });
    expect(first.order).not.toHaveProperty('flag');
    expect(first.commission).toMatchObject({
      status: 'review',
      heldFrom: 'order_open',
      heldFor: 'self_purchase',
      amountCents: 200,
      statusReason: 'Bought through own link (same e-mail)',
    });
    // The open intent is gone with the sale.
    expect(await read(keys.openIntent(id, intentId))).toBeUndefined();
    // The buyer has their receipt; the member no "you made a sale" for a commission held at its sale.
    expect(mailsTo(`${local!.toLowerCase()}+gift@${domain}`).length).toBeGreaterThan(0);
    expect(mailsTo(seller.email).filter((mail) => mail.subject.startsWith('You made a sale'))).toEqual([]);

    const counters = await item(COUNTERS_KEY);
    for (let replay = 0; replay < 3; replay++) expect((await deliver(event)).status).toBe(200);
    expect(await recorded(intentId)).toEqual(first);
    expect(await item(COUNTERS_KEY)).toEqual(counters);

    // The admin reads why, and may decide on it; the member sees the status and the reason.
    const listed = await call(getCommissions, { body: { member: seller.email }, headers: auth(admin) });
    expect(listed.status).toBe(200);
    expect(listed.body.items).toEqual([
      expect.objectContaining({
        status: 'review',
        reviewable: true,
        blockedReason: 'Held for review: Bought through own link (same e-mail).',
      }),
    ]);
    const own = await call(getCommissionsByUser, { body: { id: seller.id }, headers: auth(seller.token) });
    expect(own.status).toBe(200);
    expect(own.body.items).toEqual([
      expect.objectContaining({ status: 'review', statusReason: 'Bought through own link (same e-mail)' }),
    ]);
  });

  it('holds it when the member’s own session makes the checkout, whatever e-mail the form gives; another member’s session does not', async () => {
    const seller = await memberWithSession();
    const other = await memberWithSession();
    const id = await product(3000);

    const own = await checkout(id, 3000, { ref: seller.shareCode, cookie: seller.cookie });
    expect((await stripe.paymentIntents.retrieve(own)).metadata).toMatchObject({ self_purchase: 'session' });
    await pay(own);
    // The browser's report records it (the webhook may come later).
    expect((await call(confirmCheckout, { body: { paymentIntentId: own } })).status).toBe(200);
    expect((await recorded(own)).commission).toMatchObject({
      status: 'review',
      heldFor: 'self_purchase',
      statusReason: "Bought through own link (from the member's own session)",
    });

    const notOwn = await checkout(id, 3000, { ref: seller.shareCode, cookie: other.cookie });
    expect((await stripe.paymentIntents.retrieve(notOwn)).metadata).not.toHaveProperty('self_purchase');
    await pay(notOwn);
    expect((await call(confirmCheckout, { body: { paymentIntentId: notOwn } })).status).toBe(200);
    const fair = (await recorded(notOwn)).commission!;
    expect(fair).toMatchObject({ status: 'order_open', amountCents: 300 });
    expect(fair).not.toHaveProperty('heldFor');
  });
});

describe('the admin’s review of a held commission', () => {
  async function held(cents = 2500) {
    const seller = await member();
    const id = await product(cents);
    const intentId = await checkout(id, cents, { ref: seller.shareCode, email: seller.email });
    await pay(intentId);
    expect((await call(confirmCheckout, { body: { paymentIntentId: intentId } })).status).toBe(200);
    const { order, commission } = await recorded(intentId);
    return { seller, order: order!, commission: commission!, intentId };
  }
  const decide = (id: string, decision: 'release' | 'cancel') =>
    call(reviewHeldCommission, { body: { id, decision }, headers: auth(admin) });

  it('shows why, releases it back to where it was, and answers a second decision with a 409 in words', async () => {
    const { commission } = await held();
    const id = String(commission.id);
    const heldIds = async () => {
      const page = await call(getHeldCommissions, { body: { limit: 500 }, headers: auth(admin) });
      expect(page.status).toBe(200);
      return (page.body.items as { id: string; reviewable?: boolean; blockedReason: string | null }[]).filter(
        (row) => row.id === id,
      );
    };
    expect(await heldIds()).toEqual([
      expect.objectContaining({
        reviewable: true,
        blockedReason: 'Held for review: Bought through own link (same e-mail).',
      }),
    ]);
    const released = await decide(id, 'release');
    expect(released.status).toBe(200);
    expect(released.body.commission).toMatchObject({
      status: 'waiting_for_fulfilment',
      amount: 2.5,
      statusReason: 'Released after review: bought through own link (same e-mail)',
    });
    expect(released.body.commission).not.toHaveProperty('reviewable');
    const stored = await read(keys.commission(id));
    expect(stored).toMatchObject({ status: 'order_open' });
    expect(stored).not.toHaveProperty('heldFrom');
    expect(stored).not.toHaveProperty('heldFor');

    expect(await heldIds()).toEqual([]);
    const again = await decide(id, 'cancel');
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This commission is no longer held for review: someone decided on it already.');
  });

  it('releases one whose order was fulfilled while held onto its hold, in the To Stripe list', async () => {
    const { order, commission } = await held(4000);
    for (const mark of [markAsOrdered, markAsShipped, markAsFufilled]) {
      expect((await call(mark, { body: { id: order.id }, headers: auth(admin) })).status).toBe(200);
    }
    expect(await read(keys.commission(String(commission.id)))).toMatchObject({
      status: 'review',
      heldFrom: 'processing',
    });
    const released = await decide(String(commission.id), 'release');
    expect(released.status).toBe(200);
    // COMMISSION_HOLD_DAYS is 14 in the handler tests: on hold until then.
    expect(released.body.commission).toMatchObject({ status: 'on_hold' });
    const stored = (await read(keys.commission(String(commission.id))))!;
    expect(stored.gsi2sk).toMatch(/^AVAILABLE#/);
  });

  it('cancels one to no commission, taking its cents out of the counters and the member’s totals once, of two admins at once', async () => {
    const { seller, commission } = await held(5000);
    const counters = (await item(COUNTERS_KEY))!;
    const earnings = (await item(earningsKey(seller.id)))!;
    const [one, two] = await Promise.all([
      decide(String(commission.id), 'cancel'),
      decide(String(commission.id), 'cancel'),
    ]);
    expect([one.status, two.status].sort()).toEqual([200, 409]);
    const winner = one.status === 200 ? one : two;
    expect(winner.body.commission).toMatchObject({
      status: 'cancelled',
      amount: 0,
      originalAmount: 5,
      statusReason: 'Cancelled after review: bought through own link (same e-mail)',
    });
    const after = (await item(COUNTERS_KEY))!;
    expect(after.totalCents).toBe(Number(counters.totalCents) - 500);
    expect(after.toStripeCents).toBe(Number(counters.toStripeCents) - 500);
    expect(after.toStripeCount).toBe(Number(counters.toStripeCount) - 1);
    expect(after.count).toBe(counters.count);
    expect((await item(earningsKey(seller.id)))!).toMatchObject({
      totalCents: Number(earnings.totalCents) - 500,
      processingCents: Number(earnings.processingCents) - 500,
    });
  });

  it('refuses an unknown commission (404) and one that is not held (409), changing nothing', async () => {
    expect((await decide('0'.repeat(32), 'release')).status).toBe(404);
    const seller = await member();
    const id = await product(1000);
    const intentId = await checkout(id, 1000, { ref: seller.shareCode });
    await pay(intentId);
    expect((await call(confirmCheckout, { body: { paymentIntentId: intentId } })).status).toBe(200);
    const { commission } = await recorded(intentId);
    const refused = await decide(String(commission!.id), 'cancel');
    expect(refused.status).toBe(409);
    expect(await read(keys.commission(String(commission!.id)))).toEqual(commission);
  });
});

describe('a ban or withdrawal and the open payment intents', () => {
  const canceledAtStripe = async (intentId: string) => {
    const intent = await stripe.paymentIntents.retrieve(intentId);
    return { status: intent.status, reason: intent.cancellation_reason };
  };
  const canceledEvents = async (ids: string[]) => {
    const found = new Set<string>();
    for await (const event of stripe.events.list({ type: 'payment_intent.canceled', limit: 100 })) {
      const intentId = (event.data.object as Stripe.PaymentIntent).id;
      if (ids.includes(intentId)) found.add(intentId);
      if (found.size === ids.length) break;
    }
    return found;
  };

  it('keeps one item per open intent under its product, and the ban cancels each at Stripe (abandoned) and deletes them', async () => {
    const id = await productInReview(1800);
    const first = await checkout(id, 1800, { checkoutId: 'checkout-one-0001' });
    const second = await checkout(id, 1800, { checkoutId: 'checkout-two-0002' });
    // The same checkout asked again answers the same intent: still one item for it.
    expect(await checkout(id, 1800, { checkoutId: 'checkout-one-0001' })).toBe(first);
    expect((await dynamoOpenIntents.page(id, 10, undefined)).ids.sort()).toEqual([first, second].sort());

    const banned = await call(banProduct, { body: { id }, headers: auth(admin) });
    expect(banned.status).toBe(200);
    expect(banned.body).toEqual({
      id,
      status: 'banned',
      openCheckouts: { total: 2, cancelled: 0, paid: 0, notCancelled: 0, done: false },
    });
    expect(await cancelledThroughQueue(id)).toEqual({ total: 2, cancelled: 2, paid: 0, notCancelled: 0, done: true });
    // The emulator's ledger is the witness.
    expect(await canceledAtStripe(first)).toEqual({ status: 'canceled', reason: 'abandoned' });
    expect(await canceledAtStripe(second)).toEqual({ status: 'canceled', reason: 'abandoned' });
    expect(await canceledEvents([first, second])).toEqual(new Set([first, second]));
    expect((await dynamoOpenIntents.page(id, 10, undefined)).ids).toEqual([]);
    // A customer whose page still holds the secret can no longer pay.
    const late = await stripe.paymentIntents.confirm(first, { payment_method: 'pm_card_visa' }).catch((e) => e);
    expect((late as Stripe.errors.StripeError).code).toBe('payment_intent_unexpected_state');
  });

  it('cancels the open intents of a withdrawn product, and a second withdrawal cancels nothing twice', async () => {
    const id = await product(2200);
    const open = await checkout(id, 2200);
    const withdrawn = await call(withdrawProduct, { body: { id }, headers: auth(admin) });
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body.openCheckouts).toEqual({ total: 1, cancelled: 0, paid: 0, notCancelled: 0, done: false });
    expect(await cancelledThroughQueue(id)).toEqual({ total: 1, cancelled: 1, paid: 0, notCancelled: 0, done: true });
    expect(await canceledAtStripe(open)).toEqual({ status: 'canceled', reason: 'abandoned' });
    expect((await call(withdrawProduct, { body: { id }, headers: auth(admin) })).status).toBe(409);
  });

  it('cancels at once an intent made while the product was being banned: the customer gets a 404, not a secret', async () => {
    const id = await productInReview(1600);
    expect((await call(banProduct, { body: { id }, headers: auth(admin) })).status).toBe(200);
    // The product as it was read a moment before the ban: still sold.
    const before = (await dynamoProducts.get(id))!;
    const stale = { get: () => Promise.resolve({ ...before, status: 'review' as const }) };
    const made: string[] = [];
    const gateway = {
      createPaymentIntent: async (intent: Parameters<typeof payments.createPaymentIntent>[0]) => {
        const created = await payments.createPaymentIntent(intent);
        made.push(created.id);
        return created;
      },
      cancelPaymentIntent: payments.cancelPaymentIntent,
    };
    const refused = await createCheckoutPaymentIntent(
      { products: stale, gateway, intents: dynamoOpenIntents, now: Date.now },
      { id, amount: 1600, qty: 1, checkoutId: 'checkout-race-0001' },
    ).catch((error: unknown) => error as Error);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toBe('This product is no longer available.');
    expect(made).toHaveLength(1);
    expect(await canceledAtStripe(made[0]!)).toEqual({ status: 'canceled', reason: 'abandoned' });
    expect(await read(keys.openIntent(id, made[0]!))).toBeUndefined();
  });
});

describe('a payment confirmed anyway', () => {
  it('is recorded, its order flagged and its commission held with the reason, when it was paid before the ban and reported after; replays change nothing', async () => {
    const seller = await member();
    const id = await productInReview(2600);
    const intentId = await checkout(id, 2600, { ref: seller.shareCode });
    await pay(intentId);
    // The ban finds it paid (not cancelled) and leaves it to the sale.
    const banned = await call(banProduct, { body: { id }, headers: auth(admin) });
    expect(banned.body.openCheckouts).toMatchObject({ total: 1, done: false });
    expect(await cancelledThroughQueue(id)).toEqual({ total: 1, cancelled: 0, paid: 1, notCancelled: 0, done: true });
    expect((await stripe.paymentIntents.retrieve(intentId)).status).toBe('succeeded');

    const event = await succeededEvent(stripe, intentId);
    expect((await deliver(event)).status).toBe(200);
    const first = await recorded(intentId);
    expect(first.order).toMatchObject({ flag: 'Product was banned before payment', totalCents: 2600 });
    expect(first.commission).toMatchObject({
      status: 'review',
      heldFor: 'banned_product',
      statusReason: 'Product was banned before payment',
      amountCents: 260,
    });
    for (let replay = 0; replay < 3; replay++) expect((await deliver(event)).status).toBe(200);
    expect((await call(confirmCheckout, { body: { paymentIntentId: intentId } })).status).toBe(200);
    expect(await recorded(intentId)).toEqual(first);

    // The admin sees the flag in the orders.
    const listed = await call(getOrders, { body: { orderNumber: String(first.order!.orderID) }, headers: auth(admin) });
    expect((listed.body.items as { flag?: string }[])[0]?.flag).toBe('Product was banned before payment');
    // And the commission says why it is held, and can be decided on.
    const released = await call(reviewHeldCommission, {
      body: { id: String(first.commission!.id), decision: 'cancel' },
      headers: auth(admin),
    });
    expect(released.body.commission).toMatchObject({
      status: 'cancelled',
      statusReason: 'Cancelled after review: product was banned before payment',
    });
  });
});
