import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StripeEmulator } from '../../infra/local/stripe';
import { keys } from '../../shared/src/db/table';
import { toOrderPage } from '../../functions/src/orders/order-links';
import { COUNTERS_KEY, item } from './commission-fixtures';
import { auth, call, tokenFor } from './helpers';
import { mailsTo } from './outbox';
import { ownStripe, toEndpointOf, type OwnStripe } from './own-stripe';
import { customer, paidCheckout, payableMember, product, type PayableMember } from './sales-helpers';

/**
 * Refunds the platform's available balance does not cover (Stripe holds them `pending`,
 * `pending_reason: insufficient_funds`), through the real webhook handlers against this file's own
 * emulator (manual platform payouts, decision 0280), its ledger and events the witness: the order
 * says "pending" until `refund.updated` says succeeded; a refund that fails (`refund.failed`) is
 * taken off the order, the commission gets its share back, and the admins get one mail.
 */
const secret = 'whsec_refund_pending_secret';
const connectSecret = 'whsec_refund_pending_connect_secret';
const OPS = 'refund-pending-ops@example.com';
process.env.ADMIN_MAIL_TO = OPS;
let own: OwnStripe | undefined;
let emulator: StripeEmulator;
let stripe: Stripe;
let admin: string;

const { handler: webhook } = await import('../../functions/src/handlers/stripe-webhook');
const { handler: connectWebhook } = await import('../../functions/src/handlers/stripe-connect-webhook');
const { handler: confirmCheckout } = await import('../../functions/src/handlers/confirm-checkout');
const { handler: refundOrder } = await import('../../functions/src/handlers/refund-order');
const { refunds } = await import('../../functions/src/composition');

beforeAll(async () => {
  const post = toEndpointOf(webhook, connectWebhook);
  own = await ownStripe('refund-pending', {
    secrets: { account: secret, connect: connectSecret },
    receive: async ({ body, signature }) => {
      const answer = await post(body, signature);
      return { status: answer.status, body: answer.body };
    },
    webhookRetryDelaysMs: [50, 200],
  });
  ({ emulator, stripe } = own);
  admin = await tokenFor(true);
});

afterAll(() => own?.stop());

/** A card sale through the member's link whose funds stay pending (pm_card_visa): the platform's available balance does not grow. */
async function sale(who: PayableMember, unitCents: number) {
  const paymentIntentId = await paidCheckout(stripe, await product(unitCents), unitCents, 1, {
    ref: who.shareCode,
    customer,
    paymentMethod: 'pm_card_visa',
  });
  expect((await call(confirmCheckout, { body: { paymentIntentId } })).status).toBe(200);
  const order = (await refunds.store.orderOfPayment(paymentIntentId))!;
  return { orderId: order.id, commissionId: order.commissionId!, paymentIntentId };
}

const refund = (orderId: string) =>
  call(refundOrder, { body: { id: orderId, reason: 'requested_by_customer' }, headers: auth(admin) });
const available = async () =>
  (await stripe.balance.retrieve()).available.find((entry) => entry.currency === 'usd')?.amount ?? 0;
const refundMails = () => mailsTo(OPS).filter((mail) => mail.subject.startsWith('A refund failed'));

describe("a refund Stripe holds pending for want of the platform's balance", () => {
  it('shows as pending on the order until refund.updated says it went out', async () => {
    const who = await payableMember(stripe);
    const sold = await sale(who, 5000); // commission $5.00
    expect(await available()).toBeLessThan(5000);
    const answer = await refund(sold.orderId);
    expect(answer.status).toBe(200);
    expect(answer.body.order).toMatchObject({ refunded: 50, refundState: 'full', refundPending: 50 });
    const [atStripe] = (await stripe.refunds.list({ payment_intent: sold.paymentIntentId })).data;
    expect(atStripe).toMatchObject({ status: 'pending', pending_reason: 'insufficient_funds' });
    // The commission follows at once (its money is going back), saying the refund is pending.
    expect(answer.body.commission).toMatchObject({ status: 'cancelled', amount: 0 });
    expect(String((answer.body.commission as { statusReason: string }).statusReason)).toContain(
      'The refund is pending at Stripe',
    );
    // The customer's order page says pending, without amounts.
    expect(toOrderPage((await refunds.store.getOrder(sold.orderId))!).refund).toMatchObject({
      inFull: true,
      pending: true,
    });

    // A payment covers the balance: Stripe sends the refund out (refund.updated, charge.refund.updated).
    await stripe.paymentIntents.create({
      amount: 20_000,
      currency: 'usd',
      payment_method: 'pm_card_bypassPending',
      confirm: true,
    });
    await emulator.clock.advance(1000);
    await emulator.idle();
    expect((await stripe.refunds.retrieve(atStripe!.id)).status).toBe('succeeded');
    const order = (await refunds.store.getOrder(sold.orderId))!;
    expect(order).toMatchObject({ refundedCents: 5000, pendingRefundCents: 0 });
    expect(order.pendingRefundIds?.has(atStripe!.id) ?? false).toBe(false);
    expect(toOrderPage(order).refund).toMatchObject({ inFull: true, pending: false });
    expect(refundMails()).toEqual([]);
  });

  it('takes a pending refund that failed (45 days) off the order, gives the commission its share back, and mails the admins once', async () => {
    // Earlier sales' funds available first, then the platform's available balance drawn down to 0.
    await emulator.clock.advance(3 * 24 * 3600 * 1000);
    const who = await payableMember(stripe);
    const rest = await available();
    if (rest > 0) {
      await stripe.transfers.create({
        amount: rest,
        currency: 'usd',
        destination: (await payableMember(stripe)).accountId,
      });
    }
    const sold = await sale(who, 8000); // commission $8.00, its funds ($77.38 after Stripe's fee) pending
    const before = (await item(COUNTERS_KEY)) as Record<string, number>;
    const answer = await call(refundOrder, {
      // More than the sale's own funds bring in: the balance stays short when they become available.
      body: { id: sold.orderId, reason: 'requested_by_customer', amountCents: 7800 },
      headers: auth(admin),
    });
    expect(answer.status).toBe(200);
    expect(answer.body.order).toMatchObject({ refunded: 78, refundState: 'partial', refundPending: 78 });
    expect(answer.body.commission).toMatchObject({ status: 'waiting_for_fulfilment', amount: 0.2 });
    const [atStripe] = (await stripe.refunds.list({ payment_intent: sold.paymentIntentId })).data;
    expect(atStripe).toMatchObject({ status: 'pending', pending_reason: 'insufficient_funds' });

    // No funds come in: Stripe fails it after 45 days (refund.failed and charge.refund.updated, both delivered).
    await emulator.clock.advance(46 * 24 * 3600 * 1000);
    await emulator.idle();
    expect(await stripe.refunds.retrieve(atStripe!.id)).toMatchObject({
      status: 'failed',
      failure_reason: 'insufficient_funds',
    });
    const order = (await refunds.store.getOrder(sold.orderId))!;
    expect(order).toMatchObject({ refundedCents: 0, pendingRefundCents: 0 });
    expect(order.failedRefundIds?.has(atStripe!.id)).toBe(true);
    const commission = await item(keys.commission(sold.commissionId));
    expect(commission).toMatchObject({ status: 'order_open', amountCents: 800 });
    expect(String(commission?.statusReason)).toContain('failed');
    // The counters to the cent: the share taken, then given back.
    const after = (await item(COUNTERS_KEY)) as Record<string, number>;
    expect((after.processingCents ?? 0) - (before.processingCents ?? 0)).toBe(0);
    expect((after.toStripeCents ?? 0) - (before.toStripeCents ?? 0)).toBe(0);
    // One mail per admin, with the order and what to do, whichever of the two events came first.
    const mails = refundMails();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`A refund failed: $78.00 on order ${order.orderID}`);
    expect(mails[0]!.text).toContain("the platform's Stripe balance did not cover it for 45 days");
    expect(mails[0]!.text).toContain('refund the order again');
    // Both of Stripe's events about it reached the handler and changed nothing twice.
    const failedEvents = await stripe.events.list({ type: 'refund.failed', limit: 10 });
    expect(failedEvents.data.some((event) => (event.data.object as Stripe.Refund).id === atStripe!.id)).toBe(true);
  });
});
