import { randomBytes } from 'node:crypto';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StripeEmulator } from '../../infra/local/stripe';
import { keys } from '../../shared/src/db/table';
import { clock } from '../../functions/src/config/clock';
import { createCommission, item } from './commission-fixtures';
import { auth, call, tokenFor, type CallResult } from './helpers';
import { mailsTo } from './outbox';
import { deliverSigned, eventsOfPayment, ownStripe, type OwnStripe } from './own-stripe';
import { customer, markFulfilled, paidCheckout, payableMember, product, type PayableMember } from './sales-helpers';

/**
 * The ledger's rules for disputes and Stripe's events (issue 34, "The ledger's rules"), through the
 * real `stripe` SDK against this file's own emulator, whose ledger is the witness. Its webhook
 * deliveries are acknowledged and dropped: each test posts the events it means, freshly signed, in
 * the order it means (Stripe does not order its events).
 */
const secret = 'whsec_dispute_rules_secret';
const connectSecret = 'whsec_dispute_rules_connect_secret';
const ADMINS = ['disputes-ops@example.com'];
process.env.ADMIN_MAIL_TO = ADMINS.join(', ');
let own: OwnStripe | undefined;
let emulator: StripeEmulator;
let stripe: Stripe;
let admin: string;

const { handler: webhook } = await import('../../functions/src/handlers/stripe-webhook');
const { handler: connectWebhook } = await import('../../functions/src/handlers/stripe-connect-webhook');
const { handler: confirmCheckout } = await import('../../functions/src/handlers/confirm-checkout');
const { handler: addToStripe } = await import('../../functions/src/handlers/add-commission-to-stripe');
const { handler: refundOrder } = await import('../../functions/src/handlers/refund-order');
const { handler: reviewHeldCommission } = await import('../../functions/src/handlers/review-held-commission');
const { handler: reconcile } = await import('../../functions/src/handlers/reconcile');
const { refunds } = await import('../../functions/src/composition');

beforeAll(async () => {
  own = await ownStripe('dispute-rules', {
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

/** Posts an event to the Connect endpoint, freshly signed. */
const deliverConnect = (event: Record<string, unknown>): Promise<CallResult> =>
  deliverSigned(connectWebhook, '/api/stripeConnectWebhook', connectSecret, event);

/** The emulator's events of a type about one payment intent, oldest first. */
const eventsOf = (type: string, paymentIntentId: string) => eventsOfPayment(stripe, type, paymentIntentId);

interface Sale {
  orderId: string;
  commissionId: string;
  paymentIntentId: string;
  chargeId: string;
}

/** A card checkout through the member's link, recorded by the browser's report; `own` buys with the member's e-mail. */
async function sale(who: PayableMember, cents: number, options: { card?: string; own?: boolean } = {}): Promise<Sale> {
  const paymentIntentId = await paidCheckout(stripe, await product(cents), cents, 1, {
    ref: who.shareCode,
    customer: options.own ? { ...customer, email: who.email } : customer,
    paymentMethod: options.card ?? 'pm_card_bypassPending',
  });
  expect((await call(confirmCheckout, { body: { paymentIntentId } })).status).toBe(200);
  const order = (await refunds.store.orderOfPayment(paymentIntentId))!;
  const chargeId = String((await stripe.paymentIntents.retrieve(paymentIntentId)).latest_charge);
  return { orderId: order.id, commissionId: order.commissionId!, paymentIntentId, chargeId };
}

const adminCall = (handler: Parameters<typeof call>[0], body: Record<string, unknown>) =>
  call(handler, { body, headers: auth(admin) });

const stored = async (key: { pk: string; sk: string }) => (await item(key)) as Record<string, unknown>;
const commissionOf = (sold: Sale) => stored(keys.commission(sold.commissionId));
const refundsAtStripe = async (paymentIntentId: string) =>
  (await stripe.refunds.list({ payment_intent: paymentIntentId, limit: 100 })).data.map((refund) => refund.amount);

/** The dispute's events as the emulator made them (created, then closed when it is). */
async function disputeEvents(sold: Sale) {
  await emulator.idle();
  const [created] = await eventsOf('charge.dispute.created', sold.paymentIntentId);
  const [closed] = await eventsOf('charge.dispute.closed', sold.paymentIntentId);
  return { created: created!, closed };
}

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

describe('a lost dispute ends only its own hold', () => {
  it('a $1 dispute lost on a member’s own purchase leaves the commission held for the admin’s review, less its share; the admin then releases it', async () => {
    const who = await payableMember(stripe);
    const sold = await sale(who, 2000, { own: true }); // commission $2.00, held: bought through own link
    expect(await commissionOf(sold)).toMatchObject({ status: 'review', heldFor: 'self_purchase', amountCents: 200 });

    const disputeId = emulator.dispute(sold.chargeId, 100);
    await stripe.disputes.close(disputeId); // accepted: lost
    const { created, closed } = await disputeEvents(sold);
    for (let round = 0; round < 2; round++) {
      expect((await deliver(created)).status).toBe(200);
      expect((await deliver(closed!)).status).toBe(200);
    }

    // Still held for the admin (no dispute of its own to end), reduced by the refund-share rule: 200 − round(200 × 100 / 2000).
    expect(await commissionOf(sold)).toMatchObject({
      status: 'review',
      heldFor: 'self_purchase',
      heldFrom: 'order_open',
      amountCents: 190,
      originalCents: 200,
    });
    const order = await stored(keys.order(sold.orderId));
    expect(order.refundedCents).toBe(100);
    expect([...(order.refundIds as Set<string>)]).toEqual([disputeId]);
    // The emulator's ledger: the bank took $1.00 back, no refund was made.
    expect(await stripe.disputes.retrieve(disputeId)).toMatchObject({ status: 'lost', amount: 100 });
    expect(await refundsAtStripe(sold.paymentIntentId)).toEqual([]);

    const released = await adminCall(reviewHeldCommission, { id: sold.commissionId, decision: 'release' });
    expect(released.status, JSON.stringify(released.body)).toBe(200);
    expect(await commissionOf(sold)).toMatchObject({ status: 'order_open', amountCents: 190 });
  });

  it('a $1 dispute lost on a plain sale ends the dispute’s own hold: back where it was, less its share', async () => {
    const who = await payableMember(stripe);
    const sold = await sale(who, 2000);
    await markFulfilled(admin, sold.orderId);
    const disputeId = emulator.dispute(sold.chargeId, 100);
    const { created } = await disputeEvents(sold);
    expect((await deliver(created)).status).toBe(200);
    expect(await commissionOf(sold)).toMatchObject({ status: 'review', disputeId, heldFrom: 'processing' });
    await stripe.disputes.close(disputeId);
    const { closed } = await disputeEvents(sold);
    expect((await deliver(closed!)).status).toBe(200);
    const after = await commissionOf(sold);
    expect(after).toMatchObject({ status: 'processing', amountCents: 190, originalCents: 200 });
    expect(after.disputeId).toBeUndefined();
  });
});

describe('dispute events in any order', () => {
  it('a $1 dispute lost whose closed event arrives before its created one: the commission ends as in order, not held', async () => {
    const who = await payableMember(stripe);
    const sold = await sale(who, 2000);
    await markFulfilled(admin, sold.orderId);
    const disputeId = emulator.dispute(sold.chargeId, 100);
    await stripe.disputes.close(disputeId);
    const { created, closed } = await disputeEvents(sold);
    expect((await deliver(closed!)).status).toBe(200);
    expect((await deliver(created)).status).toBe(200);
    expect((await deliver(closed!)).status).toBe(200);

    const after = await commissionOf(sold);
    expect(after).toMatchObject({ status: 'processing', amountCents: 190 });
    expect(after.disputeId).toBeUndefined();
    expect((await stored(keys.order(sold.orderId))).refundedCents).toBe(100);
    // Not held for good: sent to the member's Stripe balance once past its hold; the emulator's ledger has the $1.90 transfer.
    const sent = await at((after.availableAt as number) + 1, () => adminCall(addToStripe, { id: sold.commissionId }));
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect((await stripe.transfers.list({ destination: who.accountId })).data.map((t) => t.amount)).toEqual([190]);
  });

  it('a dispute won whose closed event arrives before its created one leaves the commission where it was', async () => {
    const who = await payableMember(stripe);
    const sold = await sale(who, 2000, { card: 'pm_card_createDispute' });
    await markFulfilled(admin, sold.orderId);
    const { created } = await disputeEvents(sold);
    const disputeId = (created.data.object as Stripe.Dispute).id;
    await stripe.disputes.update(disputeId, { evidence: { uncategorized_text: 'winning_evidence' } });
    const { closed } = await disputeEvents(sold);
    expect((closed!.data.object as Stripe.Dispute).status).toBe('won');
    expect((await deliver(closed!)).status).toBe(200);
    expect((await deliver(created)).status).toBe(200);
    const after = await commissionOf(sold);
    expect(after).toMatchObject({ status: 'processing', amountCents: 200 });
    expect(after.disputeId).toBeUndefined();
    expect(await stored(keys.order(sold.orderId))).not.toHaveProperty('refundedCents');
  });
});

describe('two deliveries interleaved', () => {
  it('an open state read before the dispute was decided, applied after it: the hold is ended at once and the order keeps the decided state', async () => {
    const { onDispute } = await import('../../functions/src/commissions/refunds');
    const who = await payableMember(stripe);
    const sold = await sale(who, 2000, { card: 'pm_card_createDispute' });
    await markFulfilled(admin, sold.orderId);
    const { created } = await disputeEvents(sold);
    const stale = created.data.object as Stripe.Dispute;
    await stripe.disputes.update(stale.id, { evidence: { uncategorized_text: 'winning_evidence' } });
    const { closed } = await disputeEvents(sold);
    expect((await deliver(closed!)).status).toBe(200);
    expect((await stored(keys.order(sold.orderId))).dispute).toMatchObject({ id: stale.id, status: 'won' });
    // The created delivery read the dispute while it was open, and writes only now.
    await onDispute(refunds, {
      disputeId: stale.id,
      chargeId: sold.chargeId,
      paymentIntentId: sold.paymentIntentId,
      amountCents: stale.amount,
      reason: stale.reason,
      status: stale.status,
    });
    const after = await commissionOf(sold);
    expect(after).toMatchObject({ status: 'processing', amountCents: 200 });
    expect(after.disputeId).toBeUndefined();
    expect((await stored(keys.order(sold.orderId))).dispute).toMatchObject({ id: stale.id, status: 'won' });
  });
});

describe('a disputed order cannot be refunded', () => {
  it('refuses in words while the dispute is open, at Stripe too before its event arrives, and after it is lost; the emulator’s ledger has no refund', async () => {
    const who = await payableMember(stripe);
    const sold = await sale(who, 2000, { card: 'pm_card_createDispute' });
    const { created } = await disputeEvents(sold);
    const before = await stored(keys.order(sold.orderId));

    // The dispute's event has not arrived: Stripe refuses (charge_disputed), in words, and nothing changes.
    const atStripe = await adminCall(refundOrder, { id: sold.orderId, reason: 'requested_by_customer' });
    expect(atStripe.status).toBe(409);
    expect(atStripe.body.message).toContain('This payment is disputed');
    expect(await stored(keys.order(sold.orderId))).toEqual({ ...before, refundSeq: 1 });

    expect((await deliver(created)).status).toBe(200);
    const open = await adminCall(refundOrder, { id: sold.orderId, reason: 'requested_by_customer', amountCents: 500 });
    expect(open.status).toBe(409);
    expect(open.body.message).toMatch(
      /^This payment is disputed: the card holder's bank decides.*refunds are not possible while the dispute is open/,
    );

    const disputeId = (created.data.object as Stripe.Dispute).id;
    await stripe.disputes.close(disputeId);
    const { closed } = await disputeEvents(sold);
    expect((await deliver(closed!)).status).toBe(200);
    const lost = await adminCall(refundOrder, { id: sold.orderId, reason: 'requested_by_customer', amountCents: 500 });
    expect(lost.status).toBe(409);
    expect(lost.body.message).toContain('the dispute was lost');
    expect(await refundsAtStripe(sold.paymentIntentId)).toEqual([]);
    expect((await stored(keys.order(sold.orderId))).refundedCents).toBe(2000);
  });

  it('reconciliation lists an order whose refunds and lost dispute take back more than its charge', async () => {
    const who = await payableMember(stripe);
    const sold = await sale(who, 2000);
    // Refunded $15.00 first; the customer's bank then disputes the whole $20.00, and it is lost.
    const refunded = await adminCall(refundOrder, {
      id: sold.orderId,
      reason: 'requested_by_customer',
      amountCents: 1500,
    });
    expect(refunded.status).toBe(200);
    const disputeId = emulator.dispute(sold.chargeId, 2000);
    await stripe.disputes.close(disputeId);
    const { closed } = await disputeEvents(sold);
    expect((await deliver(closed!)).status).toBe(200);

    const today = new Date().toISOString().slice(0, 10);
    const result = await adminCall(reconcile, { from: today, to: today });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    const order = await stored(keys.order(sold.orderId));
    const lines = (result.body.differences as { text: string; ledgerIds: string[]; stripeIds: string[] }[]).filter(
      (difference) => difference.ledgerIds.includes(String(order.orderID)),
    );
    expect(lines).toEqual([
      expect.objectContaining({
        text: expect.stringContaining('$35.00 taken back of a $20.00 charge ($15.00 more than was paid)'),
        stripeIds: expect.arrayContaining([sold.chargeId, disputeId]),
      }),
    ]);
  });
});

describe('an event about an object Stripe never had', () => {
  const ghost = (prefix: string) => `${prefix}_ghost${randomBytes(6).toString('hex')}`;

  it('a payment_intent.succeeded naming a payment Stripe never had records no order', async () => {
    const who = await payableMember(stripe);
    const sold = await sale(who, 1500);
    const [real] = await eventsOf('payment_intent.succeeded', sold.paymentIntentId);
    const paymentIntentId = ghost('pi');
    const forged = structuredClone(real!);
    forged.id = ghost('evt');
    (forged.data.object as { id: string }).id = paymentIntentId;
    expect((await deliver(forged)).status).toBe(200);
    expect(await refunds.store.orderOfPayment(paymentIntentId)).toBeUndefined();
  });

  it('a charge.dispute.created naming a dispute Stripe never had holds nothing and mails no admin', async () => {
    const who = await payableMember(stripe);
    const sold = await sale(who, 1500);
    await markFulfilled(admin, sold.orderId);
    const mailsBefore = mailsTo(ADMINS[0]!).length;
    const forged = {
      id: ghost('evt'),
      object: 'event',
      type: 'charge.dispute.created',
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          id: ghost('dp'),
          object: 'dispute',
          amount: 1500,
          charge: sold.chargeId,
          payment_intent: sold.paymentIntentId,
          reason: 'fraudulent',
          status: 'needs_response',
        },
      },
    } as unknown as Stripe.Event;
    expect((await deliver(forged)).status).toBe(200);
    expect(await commissionOf(sold)).toMatchObject({ status: 'processing', amountCents: 150 });
    expect((await stored(keys.order(sold.orderId))).dispute).toBeUndefined();
    expect(mailsTo(ADMINS[0]!).slice(mailsBefore)).toEqual([]);
  });

  it('a payout.failed naming a payout Stripe never had mails no admin and changes nothing', async () => {
    const who = await payableMember(stripe);
    const sold = await sale(who, 1500);
    const before = await commissionOf(sold);
    const mailsBefore = mailsTo(ADMINS[0]!).length;
    const forged = {
      id: ghost('evt'),
      object: 'event',
      type: 'payout.failed',
      created: Math.floor(Date.now() / 1000),
      account: who.accountId,
      data: {
        object: {
          id: ghost('po'),
          object: 'payout',
          amount: 150,
          metadata: { commissionId: sold.commissionId, attempt: '0' },
          failure_message: 'The bank refused it.',
        },
      },
    };
    expect((await deliverConnect(forged)).status).toBe(200);
    expect(mailsTo(ADMINS[0]!).slice(mailsBefore)).toEqual([]);
    expect(await commissionOf(sold)).toEqual(before);
  });

  it('a payout.failed naming a real instant payout Stripe paid gives no fee back, moves no commission and mails no one', async () => {
    const { handler: withdraw } = await import('../../functions/src/handlers/withdraw');
    const { handler: quote } = await import('../../functions/src/handlers/get-withdrawal-quote');
    const who = await payableMember(stripe);
    const sold = await sale(who, 7000);
    const commission = await createCommission({
      memberId: who.id,
      memberEmail: who.email,
      amountCents: 6000,
      chargeId: sold.chargeId,
    });
    const terms = (await call(quote, { body: {}, headers: auth(who.token) })).body as Record<string, unknown>;
    expect(terms).toMatchObject({ method: 'instant', receive: 59.41, fee: 0.59 });
    const paid = await call(withdraw, {
      body: { requestId: randomBytes(8).toString('hex'), receive: terms.receive, fee: terms.fee },
      headers: auth(who.token),
    });
    expect([paid.status, paid.body.message]).toEqual([200, undefined]);
    await emulator.idle();
    const [payout] = (await stripe.payouts.list({}, { stripeAccount: who.accountId })).data;
    expect(payout).toMatchObject({ amount: 5941, method: 'instant', status: 'paid' });
    const mailsBefore = [...mailsTo(ADMINS[0]!), ...mailsTo(who.email)].length;
    // Signed with the endpoint's secret, naming Stripe's real payout, saying it failed: Stripe says it is paid.
    const forged = {
      id: ghost('evt'),
      object: 'event',
      type: 'payout.failed',
      created: Math.floor(Date.now() / 1000),
      account: who.accountId,
      data: { object: { ...payout, status: 'failed', failure_code: 'account_closed' } },
    };
    for (let round = 0; round < 2; round++) expect((await deliverConnect(forged)).status).toBe(200);
    // The emulator's ledger: the one transfer less the fee, the payout, nothing given back; the balance 0.
    const transfers = (await stripe.transfers.list({ destination: who.accountId, limit: 100 })).data;
    expect(transfers.map((transfer) => transfer.amount)).toEqual([5941]);
    const balance = await stripe.balance.retrieve({}, { stripeAccount: who.accountId });
    expect(balance.available.find((entry) => entry.currency === 'usd')?.amount ?? 0).toBe(0);
    expect(await stored(keys.commission(commission.id))).toMatchObject({ status: 'paid', payoutId: payout!.id });
    expect([...mailsTo(ADMINS[0]!), ...mailsTo(who.email)]).toHaveLength(mailsBefore);
  });
});
