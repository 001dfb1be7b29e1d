import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StripeEmulator } from '../../infra/local/stripe';
import { keys } from '../../shared/src/db/table';
import { clock } from '../../functions/src/config/clock';
import { COUNTERS_KEY, earningsKey, item } from './commission-fixtures';
import { auth, call, tokenFor, type CallResult } from './helpers';
import { deliverSigned, eventsOfPayment, ownStripe, type OwnStripe } from './own-stripe';
import { customer, markFulfilled, paidCheckout, payableMember, product, type PayableMember } from './sales-helpers';
import { placesRefreshed, withTableStream } from './places';

// The top-earners places are written from the table's stream (decision 0481).
await withTableStream();

/**
 * Money rules after the sale: the commission's hold, refunds (the admin's and Stripe's dashboard's),
 * the commission following in proportion (cancelled, reversed, clawed back), and disputes, through
 * the real `stripe` SDK against this file's own emulator. Its webhook deliveries are acknowledged
 * and dropped: each test posts the events it means, freshly signed, so it decides how often and when
 * an event arrives. The emulator's ledger (refunds, transfer reversals) is the witness.
 */
const secret = 'whsec_ledger_secret';
const connectSecret = 'whsec_ledger_connect_secret';
let own: OwnStripe | undefined;
let emulator: StripeEmulator;
let stripe: Stripe;
let admin: string;

const { handler: webhook } = await import('../../functions/src/handlers/stripe-webhook');
const { handler: confirmCheckout } = await import('../../functions/src/handlers/confirm-checkout');
const { handler: addToStripe } = await import('../../functions/src/handlers/add-commission-to-stripe');
const { handler: payToMember } = await import('../../functions/src/handlers/pay-commission-to-member');
const { handler: refundOrder } = await import('../../functions/src/handlers/refund-order');
const { refunds } = await import('../../functions/src/composition');

const DAY = 24 * 3600 * 1000;

beforeAll(async () => {
  own = await ownStripe('ledger', {
    secrets: { account: secret, connect: connectSecret },
    receive: () => Promise.resolve({ status: 200, body: {} }),
  });
  ({ emulator, stripe } = own);
  admin = await tokenFor(true);
});

afterAll(() => own?.stop());

/** Posts an event to the platform endpoint, freshly signed: a delivery or a redelivery. */
const deliver = (event: Stripe.Event): Promise<CallResult> =>
  deliverSigned(webhook, '/api/stripeWebhook', secret, event);

/** The emulator's events of a type about one payment intent, oldest first. */
const eventsOf = (type: string, paymentIntentId: string) => eventsOfPayment(stripe, type, paymentIntentId);

type Seller = PayableMember;

/** A member with a payout account and a debit card, and their share code. */
const seller = () => payableMember(stripe);

interface Sale {
  orderId: string;
  commissionId: string;
  paymentIntentId: string;
}

/** A card checkout through the member's link ($unit × qty), recorded by the browser's report. */
async function sale(who: Seller, unitCents: number, qty: number, card = 'pm_card_bypassPending'): Promise<Sale> {
  const paymentIntentId = await paidCheckout(stripe, await product(unitCents), unitCents, qty, {
    ref: who.shareCode,
    customer,
    paymentMethod: card,
  });
  expect((await call(confirmCheckout, { body: { paymentIntentId } })).status).toBe(200);
  const order = (await refunds.store.orderOfPayment(paymentIntentId))!;
  return { orderId: order.id, commissionId: order.commissionId!, paymentIntentId };
}

const adminCall = (handler: Parameters<typeof call>[0], body: Record<string, unknown>) =>
  call(handler, { body, headers: auth(admin) });

const fulfil = (orderId: string) => markFulfilled(admin, orderId);

/** Runs `work` with the portal's clock at `at` (epoch ms). */
async function at<T>(time: number, work: () => Promise<T>): Promise<T> {
  const real = clock.now;
  clock.now = () => time;
  try {
    return await work();
  } finally {
    clock.now = real;
  }
}

/** Fulfilled, past its hold, sent to the member's Stripe balance (and paid out when asked). */
async function moveMoney(sold: Sale, until: 'in_stripe' | 'paid') {
  await fulfil(sold.orderId);
  const commission = (await refunds.store.getCommission(sold.commissionId))!;
  await at(commission.availableAt! + 1, async () => {
    expect((await adminCall(addToStripe, { id: sold.commissionId })).status).toBe(200);
    if (until === 'paid') expect((await adminCall(payToMember, { id: sold.commissionId })).status).toBe(200);
  });
}

const refund = (orderId: string, body: Record<string, unknown> = {}) =>
  adminCall(refundOrder, { id: orderId, reason: 'requested_by_customer', ...body });

const stored = async (key: { pk: string; sk: string }) => (await item(key)) as Record<string, unknown>;
const counters = async () => (await item(COUNTERS_KEY)) as Record<string, number>;
const delta = (after: Record<string, number>, before: Record<string, number>, names: string[]) =>
  Object.fromEntries(names.map((name) => [name, (after[name] ?? 0) - (before[name] ?? 0)]));
const refundsAtStripe = async (paymentIntentId: string) =>
  (await stripe.refunds.list({ payment_intent: paymentIntentId, limit: 100 })).data.map((refund) => refund.amount);

describe('the commission hold', () => {
  it('keeps a fulfilled commission on hold until COMMISSION_HOLD_DAYS after fulfilment: sending it is a 409 naming the date', async () => {
    const who = await seller();
    const sold = await sale(who, 2500, 1);
    const fulfilledAt = clock.now();
    await fulfil(sold.orderId);
    const commission = (await refunds.store.getCommission(sold.commissionId))!;
    expect(commission.status).toBe('processing');
    expect(commission.availableAt! - fulfilledAt).toBeGreaterThanOrEqual(14 * DAY);
    const early = await adminCall(addToStripe, { id: sold.commissionId });
    expect(early.status).toBe(409);
    const date = new Date(commission.availableAt!).toLocaleDateString('en-US', { month: 'long', timeZone: 'UTC' });
    expect(early.body.message).toMatch(/^This commission is on hold until .+ UTC \(the refund window\)/);
    expect(String(early.body.message)).toContain(date);
    expect((await stripe.transfers.list({ destination: who.accountId })).data).toEqual([]);
    expect((await stored(keys.commission(sold.commissionId))).transferPendingAt).toBeUndefined();

    const sent = await at(commission.availableAt!, () => adminCall(addToStripe, { id: sold.commissionId }));
    expect(sent.status).toBe(200);
    expect(sent.body.commission).toMatchObject({ status: 'in_stripe', amount: 2.5 });
    expect((await stripe.transfers.list({ destination: who.accountId })).data.map((t) => t.amount)).toEqual([250]);
  });
});

describe('/api/refundOrder', () => {
  it('refunds part, then the rest, of an order whose commission is not sent: reduced, then cancelled, counters to the cent', async () => {
    const who = await seller();
    const sold = await sale(who, 2499, 2); // $49.98; commission 2 × $2.50 = $5.00
    await fulfil(sold.orderId);
    const before = await counters();
    const earningsBefore = (await item(earningsKey(who.id))) as Record<string, number>;

    const part = await refund(sold.orderId, { amountCents: 1999 });
    expect(part.status).toBe(200);
    // round(500 × 1999 / 4998) = round(199.98) = 200 taken: $3.00 left.
    expect(part.body.order).toMatchObject({ refunded: 19.99, refundState: 'partial', totalPayed: 49.98 });
    expect(part.body.commission).toMatchObject({
      amount: 3,
      originalAmount: 5,
      status: 'on_hold',
      statusReason: expect.stringContaining('partly refunded ($19.99 of $49.98, requested by the customer)'),
    });

    const rest = await refund(sold.orderId);
    expect(rest.status).toBe(200);
    expect(rest.body.order).toMatchObject({ refunded: 49.98, refundState: 'full' });
    expect(rest.body.commission).toMatchObject({ amount: 0, originalAmount: 5, status: 'cancelled', isPayed: 0 });
    expect(await refundsAtStripe(sold.paymentIntentId)).toEqual([2999, 1999]);
    expect(
      delta(await counters(), before, ['totalCents', 'processingCents', 'toStripeCents', 'toStripeCount']),
    ).toEqual({
      totalCents: -500,
      processingCents: -500,
      toStripeCents: -500,
      toStripeCount: -1,
    });
    const earnings = (await item(earningsKey(who.id))) as Record<string, number>;
    expect(delta(earnings, earningsBefore, ['totalCents', 'processingCents', 'paidCents'])).toEqual({
      totalCents: -500,
      processingCents: -500,
      paidCents: 0,
    });
    expect((await stored(keys.commission(sold.commissionId))).gsi2pk).toBeUndefined();

    // Nothing is left: a third refund is refused in words and changes nothing.
    const more = await refund(sold.orderId, { amountCents: 1 });
    expect(more.status).toBe(409);
    expect(more.body.message).toBe('This order is refunded in full already.');
    // The webhook's charge.refunded, delivered three times each, applies nothing twice.
    const events = await eventsOf('charge.refunded', sold.paymentIntentId);
    expect(events).toHaveLength(2);
    const orderBefore = await stored(keys.order(sold.orderId));
    for (let round = 0; round < 3; round++) for (const event of events) expect((await deliver(event)).status).toBe(200);
    expect(await stored(keys.order(sold.orderId))).toEqual(orderBefore);
    expect(await stored(keys.commission(sold.commissionId))).toMatchObject({ amountCents: 0, status: 'cancelled' });
  });

  it('refuses more than is left to refund, and a hand-entered order, in words, changing nothing', async () => {
    const who = await seller();
    const sold = await sale(who, 1000, 1);
    const tooMuch = await refund(sold.orderId, { amountCents: 1001 });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.message).toBe(
      'A refund of $10.01 is more than what is left to refund of this order: $10.00 of the $10.00 paid.',
    );
    expect(await refundsAtStripe(sold.paymentIntentId)).toEqual([]);
    expect((await stored(keys.order(sold.orderId))).refundPending).toBeUndefined();
    const missing = await refund('no-such-order');
    expect(missing.status).toBe(404);
    const badReason = await adminCall(refundOrder, { id: sold.orderId, reason: 'because' });
    expect(badReason.status).toBe(400);
    const { handler: addOrder } = await import('../../functions/src/handlers/add-order');
    const byHand = await adminCall(addOrder, { product_id: await product(1000), qty: 1, ref: who.shareCode });
    expect(byHand.status).toBe(200);
    const handEntered = await refund((byHand.body.order as { id: string }).id);
    expect(handEntered.status).toBe(409);
    expect(handEntered.body.message).toBe('This order was entered by hand: it has no card payment to refund.');
    expect((byHand.body.order as { refundable: boolean }).refundable).toBe(false);
  });

  it('reverses the transfer of a commission in Stripe (not paid out) by its share, once', async () => {
    const who = await seller();
    const sold = await sale(who, 3000, 1); // commission $3.00
    await moveMoney(sold, 'in_stripe');
    const before = await counters();
    const done = await refund(sold.orderId);
    expect(done.status).toBe(200);
    expect(done.body.commission).toMatchObject({ status: 'reversed', amount: 0, isInCustomersAccount: 0 });
    const [transfer] = (await stripe.transfers.list({ destination: who.accountId })).data;
    expect(transfer?.amount_reversed).toBe(300);
    expect((await stripe.transfers.listReversals(transfer!.id)).data.map((reversal) => reversal.amount)).toEqual([300]);
    expect(delta(await counters(), before, ['toBePaidCents', 'toBePaidCount', 'processingCents'])).toEqual({
      toBePaidCents: -300,
      toBePaidCount: -1,
      processingCents: -300,
    });
    // Paying it out is refused in words.
    const pay = await adminCall(payToMember, { id: sold.commissionId });
    expect(pay.status).toBe(409);
    expect(pay.body.message).toContain('was reversed');
  });

  it('claws back exactly the commission’s share of a refund after payout, to the cent, then the rest', async () => {
    const who = await seller();
    const sold = await sale(who, 3333, 3); // $99.99; commission 3 × $3.33 = $9.99
    await moveMoney(sold, 'paid');
    const before = await counters();
    const part = await refund(sold.orderId, { amountCents: 1234 });
    expect(part.status).toBe(200);
    // round(999 × 1234 / 9999) = round(123.29) = 123
    expect(part.body.commission).toMatchObject({ status: 'paid', amount: 8.76, originalAmount: 9.99 });
    expect((await stored(keys.memberOwed(who.id))).owedCents).toBe(123);
    const rest = await refund(sold.orderId);
    expect(rest.status).toBe(200);
    expect(rest.body.commission).toMatchObject({
      status: 'clawed_back',
      amount: 0,
      statusReason: expect.stringContaining('clawed back'),
    });
    expect((await stored(keys.memberOwed(who.id))).owedCents).toBe(999);
    const { items, owedCents } = await refunds.store.clawbacks(who.id);
    expect(owedCents).toBe(999);
    expect(items.map((entry) => entry.amountCents).sort((a, b) => a - b)).toEqual([123, 876]);
    expect(items.every((entry) => entry.orderId === sold.orderId && entry.commissionId === sold.commissionId)).toBe(
      true,
    );
    expect(delta(await counters(), before, ['paidCents', 'totalCents'])).toEqual({ paidCents: -999, totalCents: -999 });
    // The money paid out stays paid out: no reversal, the claw back is netted later.
    const [transfer] = (await stripe.transfers.list({ destination: who.accountId })).data;
    expect(transfer?.amount_reversed).toBe(0);
  });

  it('refunds once for 20 concurrent calls', async () => {
    const who = await seller();
    const sold = await sale(who, 1500, 2);
    await fulfil(sold.orderId);
    const answers = await Promise.all(Array.from({ length: 20 }, () => refund(sold.orderId)));
    for (const answer of answers) {
      if (answer.status === 200) expect(answer.body.order).toMatchObject({ refundState: 'full', refunded: 30 });
      else {
        expect(answer.status).toBe(409);
        expect(String(answer.body.message)).toMatch(/refunded in full already|being made right now/);
      }
    }
    expect(answers.some((answer) => answer.status === 200)).toBe(true);
    expect(await refundsAtStripe(sold.paymentIntentId)).toEqual([3000]);
    expect(await stored(keys.commission(sold.commissionId))).toMatchObject({ status: 'cancelled', amountCents: 0 });
    expect((await stored(keys.order(sold.orderId))).refundedCents).toBe(3000);
  });

  it('heals a crash between Stripe’s refund and the table write: the retry applies the same refund once', async () => {
    const who = await seller();
    const sold = await sale(who, 2000, 1);
    const real = refunds.store.apply;
    refunds.store.apply = () => {
      refunds.store.apply = real;
      return Promise.reject(new Error('the table write failed after the refund'));
    };
    const crashed = await refund(sold.orderId, { amountCents: 500 });
    expect(crashed.status).toBe(500);
    expect(refunds.store.apply).toBe(real);
    expect(await refundsAtStripe(sold.paymentIntentId)).toEqual([500]);
    expect((await stored(keys.order(sold.orderId))).refundPending).toMatchObject({ seq: 0, amountCents: 500 });
    const retried = await refund(sold.orderId, { amountCents: 500 });
    expect(retried.status).toBe(200);
    expect(retried.body.order).toMatchObject({ refunded: 5, refundState: 'partial' });
    expect(await refundsAtStripe(sold.paymentIntentId)).toEqual([500]);
    const order = await stored(keys.order(sold.orderId));
    expect(order.refundPending).toBeUndefined();
    expect(order.refundedCents).toBe(500);
    // round(200 × 500 / 2000) = 50 taken
    expect((await stored(keys.commission(sold.commissionId))).amountCents).toBe(150);
  });
});

describe('/api/getOrderPaymentCard', () => {
  it('names the card an order was paid with, for the refund’s confirmation; an unknown order in words', async () => {
    const { handler } = await import('../../functions/src/handlers/get-order-payment-card');
    const who = await seller();
    const sold = await sale(who, 1500, 1); // paid with 4000 0000 0000 0077
    const answer = await adminCall(handler, { id: sold.orderId });
    // And where its commission's money is, so the confirmation names the one effect: not sent yet.
    expect(answer.body).toEqual({
      orderId: sold.orderId,
      card: { last4: '0077', brand: 'visa' },
      commission: { where: 'not_sent', amount: 1.5, originalAmount: 1.5 },
    });
    const unknown = await adminCall(handler, { id: randomUUID() });
    expect([unknown.status, unknown.body.message]).toEqual([404, 'There is no order with this id.']);
  });
});

describe('the top earners after refunds', () => {
  it('lowers the member’s place by what a refund takes, and again by a clawback, in the list the Top Earners page reads', async () => {
    const { handler: getTopEarners } = await import('../../functions/src/handlers/get-top-earners');
    const { topEarnerSortKey } = await import('../../shared/src/db/table');
    const who = await seller();
    const first = await sale(who, 5000, 1); // commission $5.00
    const second = await sale(who, 3000, 1); // commission $3.00
    // The place as the places function writes it from the table's stream (decision 0481).
    const place = async () => {
      await placesRefreshed();
      return (await stored(keys.earnings(who.id))) as Record<string, unknown>;
    };
    expect(await place()).toMatchObject({ rankCents: 800, gsi1sk: topEarnerSortKey(800, who.id), rankCount: 2 });

    await fulfil(first.orderId);
    expect((await refund(first.orderId, { amountCents: 2500 })).status).toBe(200); // half: $2.50 taken
    expect(await place()).toMatchObject({ rankCents: 550, gsi1sk: topEarnerSortKey(550, who.id), rankCount: 2 });

    await moveMoney(second, 'paid');
    expect((await refund(second.orderId)).status).toBe(200); // clawed back: $3.00
    expect(await place()).toMatchObject({ rankCents: 250, gsi1sk: topEarnerSortKey(250, who.id) });

    // What the page shows: the member among the top earners with $2.50, counted once.
    let cursor: string | undefined;
    let found: Record<string, unknown> | undefined;
    do {
      const page = await adminCall(getTopEarners, { limit: 100, ...(cursor ? { cursor } : {}) });
      expect(page.status).toBe(200);
      const items = page.body.items as Record<string, unknown>[];
      found ??= items.find((entry) => entry.id === who.id);
      cursor = (page.body.nextCursor as string | null) ?? undefined;
    } while (!found && cursor);
    expect(found).toMatchObject({ email: who.email, count: 2, totalCommisions: 2.5 });
    // A refresh that read the totals before the refund cannot put the old place back.
    const { refreshRank } = await import('../../functions/src/adapters/dynamo-earnings');
    await refreshRank(who.id);
    expect(await place()).toMatchObject({ rankCents: 250 });
  });
});

describe('a refund and a payout batch on one commission', () => {
  const runBatch = async (memberId: string, requestId: string) => {
    const { handler } = await import('../../functions/src/handlers/run-payout-batch');
    return adminCall(handler, { step: 'pay', memberId, requestId });
  };
  const payoutsOf = async (accountId: string) =>
    (await stripe.payouts.list({ limit: 100 }, { stripeAccount: accountId })).data;

  it("a refund of one commission a batch sent reverses that commission's own transfer (its sale's), leaving the others' alone", async () => {
    const { handler } = await import('../../functions/src/handlers/run-payout-batch');
    const who = await seller();
    const first = await sale(who, 4000, 1); // commission $4.00
    const second = await sale(who, 7000, 1); // commission $7.00
    await fulfil(first.orderId);
    await fulfil(second.orderId);
    const latest = Math.max(
      ...(await Promise.all(
        [first, second].map(async (one) => (await refunds.store.getCommission(one.commissionId))!.availableAt!),
      )),
    );
    const requestId = randomUUID();
    const sent = await at(latest + 1, () => adminCall(handler, { step: 'send', memberId: who.id, requestId }));
    expect(sent.status).toBe(200);
    const transfers = (await stripe.transfers.list({ destination: who.accountId })).data;
    expect(transfers).toHaveLength(2);
    const ownOf = async (one: Sale) => {
      const commission = await stored(keys.commission(one.commissionId));
      return transfers.find((transfer) => transfer.id === commission.transferId)!;
    };
    const firstTransfer = await ownOf(first);
    const secondTransfer = await ownOf(second);
    expect(firstTransfer.amount).toBe(400);
    expect(secondTransfer.amount).toBe(700);
    expect(firstTransfer.id).not.toBe(secondTransfer.id);

    const done = await refund(second.orderId);
    expect(done.status).toBe(200);
    expect(done.body.commission).toMatchObject({ status: 'reversed', amount: 0 });
    expect((await stripe.transfers.retrieve(secondTransfer.id)).amount_reversed).toBe(700);
    expect((await stripe.transfers.retrieve(firstTransfer.id)).amount_reversed).toBe(0);
    expect(await stored(keys.commission(first.commissionId))).toMatchObject({ status: 'in_stripe', amountCents: 400 });
  });

  it('a refund while a batch holds the commission answers 409 "try again"; once the batch ends the retry applies the same refund, as a clawback; money moved once', async () => {
    const { payoutBatches } = await import('../../functions/src/composition');
    const who = await seller();
    const sold = await sale(who, 6000, 1); // commission $6.00
    await fulfil(sold.orderId);
    const { availableAt } = (await refunds.store.getCommission(sold.commissionId))!;
    const requestId = randomUUID();
    // The batch stops between its transfer and its record: it holds the commission (batchId).
    const real = payoutBatches.batches.recordTransfer;
    payoutBatches.batches.recordTransfer = () => {
      payoutBatches.batches.recordTransfer = real;
      return Promise.reject(new Error('the table write failed after the transfer'));
    };
    expect((await at(availableAt! + 1, () => runBatch(who.id, requestId))).status).toBe(500);
    expect(await stored(keys.commission(sold.commissionId))).toMatchObject({ batchId: `admin-${requestId}` });

    const during = await refund(sold.orderId);
    expect(during.status).toBe(409);
    expect(during.body.message).toBe(
      'A payout batch is moving this commission; the refund is applied to it once that ends. Try again in a minute.',
    );
    expect(await stored(keys.commission(sold.commissionId))).toMatchObject({ status: 'processing', amountCents: 600 });

    const finished = await at(availableAt! + 1, () => runBatch(who.id, requestId));
    expect(finished.status).toBe(200);
    expect(await stored(keys.commission(sold.commissionId))).toMatchObject({ status: 'paid', amountCents: 600 });

    const after = await refund(sold.orderId);
    expect(after.status).toBe(200);
    expect(after.body.commission).toMatchObject({ status: 'clawed_back', amount: 0 });
    expect((await stored(keys.memberOwed(who.id))).owedCents).toBe(600);
    // The emulator's ledger: one refund, one transfer, one payout.
    expect(await refundsAtStripe(sold.paymentIntentId)).toEqual([6000]);
    expect((await stripe.transfers.list({ destination: who.accountId })).data.map((t) => t.amount)).toEqual([600]);
    expect((await payoutsOf(who.accountId)).map((p) => p.amount)).toEqual([600]);
  });

  it('a batch while a refund’s reversal is reserved leaves that commission out; once the refund ends the batch pays what is left; money moved once', async () => {
    const who = await seller();
    const sold = await sale(who, 4000, 1); // commission $4.00
    await moveMoney(sold, 'in_stripe');
    // The refund stops between reserving its reversal and making it.
    const real = refunds.gateway.createTransferReversal;
    refunds.gateway.createTransferReversal = () => {
      refunds.gateway.createTransferReversal = real;
      return Promise.reject(new Error('the process died before the reversal'));
    };
    expect((await refund(sold.orderId, { amountCents: 2000 })).status).toBe(500);
    expect(refunds.gateway.createTransferReversal).toBe(real);
    expect(await stored(keys.commission(sold.commissionId))).toMatchObject({
      status: 'in_stripe',
      amountCents: 400,
      reversalPending: { amountCents: 200 },
    });

    const during = await runBatch(who.id, randomUUID());
    expect(during.status).toBe(200);
    expect((during.body.outcomes as Record<string, unknown>[])[0]).toMatchObject({ state: 'empty', payout: 0 });
    expect(await payoutsOf(who.accountId)).toEqual([]);

    const retried = await refund(sold.orderId, { amountCents: 2000 });
    expect(retried.status).toBe(200);
    expect(retried.body.commission).toMatchObject({ status: 'in_stripe', amount: 2 });
    const after = await runBatch(who.id, randomUUID());
    expect(after.status).toBe(200);
    expect((after.body.outcomes as Record<string, unknown>[])[0]).toMatchObject({ state: 'paid', payout: 2 });
    expect(await stored(keys.commission(sold.commissionId))).toMatchObject({ status: 'paid', amountCents: 200 });
    // The emulator's ledger: one refund, one transfer reversed by its share once, one payout of the rest.
    expect(await refundsAtStripe(sold.paymentIntentId)).toEqual([2000]);
    const [transfer] = (await stripe.transfers.list({ destination: who.accountId })).data;
    expect([transfer?.amount, transfer?.amount_reversed]).toEqual([400, 200]);
    expect((await payoutsOf(who.accountId)).map((p) => p.amount)).toEqual([200]);
  });
});

describe('charge.refunded (a refund made in Stripe’s dashboard)', () => {
  it('applies the refund once, whatever the replays, and the commission follows', async () => {
    const who = await seller();
    const sold = await sale(who, 4000, 1); // commission $4.00
    await fulfil(sold.orderId);
    await stripe.refunds.create({ payment_intent: sold.paymentIntentId, amount: 1000 });
    const [event] = await eventsOf('charge.refunded', sold.paymentIntentId);
    for (let round = 0; round < 3; round++) expect((await deliver(event!)).status).toBe(200);
    const order = await stored(keys.order(sold.orderId));
    expect(order.refundedCents).toBe(1000);
    expect(await stored(keys.commission(sold.commissionId))).toMatchObject({
      amountCents: 300,
      originalCents: 400,
      statusReason: expect.stringContaining("refunded in Stripe's dashboard"),
    });
    // The admin's refund of the rest is counted beside it, not over it.
    const rest = await refund(sold.orderId);
    expect(rest.status).toBe(200);
    expect(await refundsAtStripe(sold.paymentIntentId)).toEqual([3000, 1000]);
    expect(rest.body.commission).toMatchObject({ amount: 0, status: 'cancelled' });
  });
});

describe('disputes', () => {
  async function disputed(who: Seller) {
    const sold = await sale(who, 2000, 1, 'pm_card_createDispute'); // commission $2.00
    await fulfil(sold.orderId);
    await emulator.idle();
    const [created] = await eventsOf('charge.dispute.created', sold.paymentIntentId);
    const dispute = created!.data.object as Stripe.Dispute;
    for (let round = 0; round < 3; round++) expect((await deliver(created!)).status).toBe(200);
    return { sold, dispute };
  }

  it('holds the commission for review on charge.dispute.created, and a won dispute releases it where it was', async () => {
    const who = await seller();
    const { sold, dispute } = await disputed(who);
    const held = await stored(keys.commission(sold.commissionId));
    expect(held).toMatchObject({
      status: 'review',
      heldFrom: 'processing',
      disputeId: dispute.id,
      amountCents: 200,
      statusReason: expect.stringContaining('Dispute opened on order'),
    });
    const commission = (await refunds.store.getCommission(sold.commissionId))!;
    const refused = await at(commission.availableAt! + 1, () => adminCall(addToStripe, { id: sold.commissionId }));
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('held for review');
    expect((await stripe.transfers.list({ destination: who.accountId })).data).toEqual([]);

    await stripe.disputes.update(dispute.id, { evidence: { uncategorized_text: 'winning_evidence' } });
    await emulator.idle();
    const [closed] = await eventsOf('charge.dispute.closed', sold.paymentIntentId);
    expect((closed!.data.object as Stripe.Dispute).status).toBe('won');
    for (let round = 0; round < 3; round++) expect((await deliver(closed!)).status).toBe(200);
    expect(await stored(keys.commission(sold.commissionId))).toMatchObject({ status: 'processing', amountCents: 200 });
    expect((await stored(keys.commission(sold.commissionId))).heldFrom).toBeUndefined();
    const sent = await at(commission.availableAt! + 1, () => adminCall(addToStripe, { id: sold.commissionId }));
    expect(sent.status).toBe(200);
  });

  it('treats a lost dispute as a full refund of the disputed amount: the order refunded, the commission cancelled, once', async () => {
    const who = await seller();
    const { sold, dispute } = await disputed(who);
    const before = await counters();
    await stripe.disputes.update(dispute.id, { evidence: { uncategorized_text: 'losing_evidence' } });
    await emulator.idle();
    const [closed] = await eventsOf('charge.dispute.closed', sold.paymentIntentId);
    for (let round = 0; round < 3; round++) expect((await deliver(closed!)).status).toBe(200);
    const order = await stored(keys.order(sold.orderId));
    expect(order.refundedCents).toBe(2000);
    expect([...(order.refundIds as Set<string>)]).toEqual([dispute.id]);
    expect(await stored(keys.commission(sold.commissionId))).toMatchObject({
      status: 'cancelled',
      amountCents: 0,
      statusReason: expect.stringContaining('a dispute lost'),
    });
    expect(delta(await counters(), before, ['totalCents', 'toStripeCount'])).toEqual({
      totalCents: -200,
      toStripeCount: -1,
    });
    // No refund was made at Stripe: the bank took the money back.
    expect(await refundsAtStripe(sold.paymentIntentId)).toEqual([]);
  });
});
