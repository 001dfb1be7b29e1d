import { randomBytes } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StripeEmulator } from '../../infra/local/stripe';
import { keys } from '../../shared/src/db/table';
import { auth, call, tokenFor, type CallResult } from './helpers';
import { mailsTo } from './outbox';
import { deliverSigned, eventsOfPayment, fundPlatform, ownStripe, type OwnStripe } from './own-stripe';
import { customer, paidCheckout, payableMember, product, type PayableMember } from './sales-helpers';
import { COUNTERS_KEY, item } from './commission-fixtures';

/**
 * An order refunded in full, or whose dispute was lost, has nothing left to send: it leaves the
 * work lists (its stage index entry goes in the transaction that records the refund) and their
 * counters, the admin home counts it no more, and it cannot be marked; a partly refunded order
 * stays; an open dispute is on the order. The customer is mailed each refund once. Stripe is this
 * file's own emulator, whose deliveries are dropped: the test posts the events it means.
 */
const secret = 'whsec_work_lists_secret';
const OPS = 'ops-work-lists@example.com';
process.env.ADMIN_MAIL_TO = OPS;
let own: OwnStripe | undefined;
let emulator: StripeEmulator;
let stripe: Stripe;
let admin: string;

const { handler: webhook } = await import('../../functions/src/handlers/stripe-webhook');
const { handler: confirmCheckout } = await import('../../functions/src/handlers/confirm-checkout');
const { handler: refundOrder } = await import('../../functions/src/handlers/refund-order');
const { handler: getOrders } = await import('../../functions/src/handlers/get-orders');
const { handler: markAsOrdered } = await import('../../functions/src/handlers/mark-as-ordered');
const { handler: markAsShipped } = await import('../../functions/src/handlers/mark-as-shipped');
const { handler: getAdminSummary } = await import('../../functions/src/handlers/get-admin-summary');
const { handler: exportCsv } = await import('../../functions/src/handlers/export-csv');
const { refunds } = await import('../../functions/src/composition');

beforeAll(async () => {
  own = await ownStripe('work-lists', {
    secrets: { account: secret, connect: 'whsec_work_lists_connect' },
    receive: () => Promise.resolve({ status: 200, body: {} }),
  });
  ({ emulator, stripe } = own);
  admin = await tokenFor(true);
});

afterAll(() => own?.stop());

const deliver = (event: Stripe.Event): Promise<CallResult> =>
  deliverSigned(webhook, '/api/stripeWebhook', secret, event);

/** The newest event of a type about one payment intent. */
async function eventOf(type: string, paymentIntentId: string): Promise<Stripe.Event> {
  const found = (await eventsOfPayment(stripe, type, paymentIntentId)).at(-1);
  if (!found) throw new Error(`no ${type} for ${paymentIntentId}`);
  return found;
}

interface Sold {
  orderId: string;
  orderID: string;
  paymentIntentId: string;
  email: string;
}

let seller: PayableMember;
async function sale(unitCents: number, card = 'pm_card_bypassPending'): Promise<Sold> {
  seller ??= await payableMember(stripe);
  const email = `buyer-${randomBytes(4).toString('hex')}@example.com`;
  const paymentIntentId = await paidCheckout(stripe, await product(unitCents), unitCents, 1, {
    ref: seller.shareCode,
    customer: { ...customer, email },
    paymentMethod: card,
  });
  expect((await call(confirmCheckout, { body: { paymentIntentId } })).status).toBe(200);
  const order = (await refunds.store.orderOfPayment(paymentIntentId))!;
  return { orderId: order.id, orderID: order.orderID, paymentIntentId, email };
}

const adminCall = (handler: Parameters<typeof call>[0], body: Record<string, unknown>) =>
  call(handler, { body, headers: auth(admin) });

/** Every order id of a work list (all its pages) and the list's counter as the answer gives it. */
async function workList(list: 'not_ordered' | 'not_shipped') {
  const ids: string[] = [];
  let cursor: string | undefined;
  let counters: Record<string, number> = {};
  do {
    const page = await adminCall(getOrders, { type: list, limit: 100, ...(cursor ? { cursor } : {}) });
    expect(page.status).toBe(200);
    const body = page.body as { items: { id: string }[]; nextCursor: string | null; counters: Record<string, number> };
    ids.push(...body.items.map((order) => order.id));
    counters = body.counters;
    cursor = body.nextCursor ?? undefined;
  } while (cursor);
  return { ids, counters };
}

const summary = async () =>
  (await adminCall(getAdminSummary, {})).body as { orders: { toOrder: number; toShip: number } };

const refund = (orderId: string, amountCents?: number) =>
  adminCall(refundOrder, {
    id: orderId,
    reason: 'requested_by_customer',
    ...(amountCents ? { amountCents } : {}),
  });

describe('an order refunded in full leaves the work lists', () => {
  it('leaves Not ordered yet and its count in the refund’s transaction, cannot be marked, and the customer is mailed once', async () => {
    const sold = await sale(2500);
    const before = await workList('not_ordered');
    expect(before.ids).toContain(sold.orderId);
    const home = await summary();

    const refunded = await refund(sold.orderId);
    expect(refunded.status).toBe(200);
    const order = refunded.body.order as { refundState: string; refunds: { amount: number; kind: string }[] };
    expect(order.refundState).toBe('full');
    expect(order.refunds).toEqual([{ amount: 25, at: expect.any(String), kind: 'refund' }]);

    const after = await workList('not_ordered');
    expect(after.ids).not.toContain(sold.orderId);
    expect(after.counters.notOrdered).toBe(before.counters.notOrdered! - 1);
    expect(after.counters.all).toBe(before.counters.all);
    expect((await summary()).orders.toOrder).toBe(home.orders.toOrder - 1);
    // The item itself: out of the stage index.
    const stored = (await item(keys.order(sold.orderId)))!;
    expect(stored.gsi2pk).toBeUndefined();

    const marked = await adminCall(markAsOrdered, { id: sold.orderId });
    expect(marked.status).toBe(409);
    expect(marked.body.message).toBe(
      'This order was refunded in full: there is nothing to send. The list is reloaded.',
    );
    expect((await workList('not_ordered')).counters.notOrdered).toBe(after.counters.notOrdered);

    // Asked again: refused in words; one mail all the same.
    expect((await refund(sold.orderId)).status).toBe(409);
    const mails = mailsTo(sold.email).filter((mail) => mail.subject.includes('refund'));
    expect(mails.map((mail) => mail.subject)).toEqual([`Your order ${sold.orderID} is refunded`]);
    expect(mails[0]!.text).toContain('We refunded $25.00 of your payment');
    expect(mails[0]!.text).toContain('we will not send it');
    // The member is told once what it does to their commission: not sent yet, so cancelled, nothing taken.
    const told = mailsTo(seller.email).filter((mail) => mail.subject.includes(sold.orderID));
    expect(told.map((mail) => mail.subject)).toEqual([`A sale you made was refunded: order ${sold.orderID}`]);
    expect(told[0]!.text).toContain(`We refunded $25.00 of the customer's payment for order ${sold.orderID}`);
    expect(told[0]!.text).toContain(
      'Your commission of $2.50 for it is cancelled. It had not been paid to you, so nothing is taken from you.',
    );
    expect(told[0]!.text).toContain('There is nothing you need to do.');
  });

  it('leaves Not shipped yet when refunded after it was ordered', async () => {
    const sold = await sale(1800);
    expect((await adminCall(markAsOrdered, { id: sold.orderId })).status).toBe(200);
    const before = await workList('not_shipped');
    expect(before.ids).toContain(sold.orderId);
    expect((await refund(sold.orderId)).status).toBe(200);
    const after = await workList('not_shipped');
    expect(after.ids).not.toContain(sold.orderId);
    expect(after.counters.notShipped).toBe(before.counters.notShipped! - 1);
    const shipped = await adminCall(markAsShipped, { id: sold.orderId });
    expect(shipped.status).toBe(409);
    expect(mailsTo(sold.email).filter((mail) => mail.subject.includes('shipped'))).toEqual([]);
  });

  it('keeps a partly refunded order in its list, saying what was refunded, one mail per refund', async () => {
    const sold = await sale(3000);
    const before = await workList('not_ordered');
    expect((await refund(sold.orderId, 500)).status).toBe(200);
    const after = await workList('not_ordered');
    expect(after.ids).toContain(sold.orderId);
    expect(after.counters.notOrdered).toBe(before.counters.notOrdered);
    expect((await refund(sold.orderId, 700)).status).toBe(200);
    const subjects = mailsTo(sold.email)
      .filter((mail) => mail.subject.includes('refund'))
      .map((mail) => mail.subject);
    expect(subjects).toEqual([
      `A refund of $5.00 on your order ${sold.orderID}`,
      `A refund of $7.00 on your order ${sold.orderID}`,
    ]);
    expect(mailsTo(sold.email).at(-1)!.text).toContain('$12.00 of the $30.00 you paid is refunded so far');
    // The member: one mail per refund, each with the commission as it stands: $3.00 less round(300 × 500 / 3000), then less 70¢.
    const told = mailsTo(seller.email).filter((mail) => mail.subject.includes(sold.orderID));
    expect(told).toHaveLength(2);
    expect(told[0]!.text).toContain('Your commission for it is now $2.50 (it was $3.00).');
    expect(told[1]!.text).toContain('Your commission for it is now $1.80 (it was $3.00).');
    // The orders export says so too, with what was refunded.
    const exported = await adminCall(exportCsv, { kind: 'orders' });
    const [header, ...rows] = parse(String(exported.body.csv)) as string[][];
    const row = rows.find((cells) => cells[0] === sold.orderID)!;
    expect(row[header!.indexOf('refunded')]).toBe('12.00');
    expect(row[header!.indexOf('exception')]).toBe('partly refunded');
    // Then the rest: it leaves the list.
    expect((await refund(sold.orderId)).status).toBe(200);
    expect((await workList('not_ordered')).ids).not.toContain(sold.orderId);
    expect((await adminCall(markAsOrdered, { id: sold.orderId })).status).toBe(409);
  });
});

describe('disputes on the order', () => {
  it('an open dispute is on the order in the lists; a lost one takes it out of them, once, and mails the customer', async () => {
    const sold = await sale(2000, 'pm_card_createDispute');
    await emulator.idle();
    const created = await eventOf('charge.dispute.created', sold.paymentIntentId);
    for (let round = 0; round < 2; round++) expect((await deliver(created)).status).toBe(200);
    const listed = await workList('not_ordered');
    expect(listed.ids).toContain(sold.orderId);
    const page = await adminCall(getOrders, { orderNumber: sold.orderID });
    const open = (page.body.items as { dispute: unknown }[])[0]!;
    expect(open.dispute).toEqual({
      status: 'open',
      reason: expect.any(String),
      amount: 20,
      openedAt: expect.any(String),
      closedAt: null,
    });
    // The admins' mail names the order and links to its card.
    const adminMail = mailsTo(OPS).find((mail) => mail.subject.includes(sold.orderID));
    expect(adminMail?.text).toContain(`/admin/orders?order=${sold.orderID}`);

    const dispute = created.data.object as Stripe.Dispute;
    await stripe.disputes.update(dispute.id, { evidence: { uncategorized_text: 'losing_evidence' } });
    await emulator.idle();
    const closed = await eventOf('charge.dispute.closed', sold.paymentIntentId);
    for (let round = 0; round < 3; round++) expect((await deliver(closed)).status).toBe(200);
    // A late copy of the opening does not reopen it.
    expect((await deliver(created)).status).toBe(200);

    const after = await workList('not_ordered');
    expect(after.ids).not.toContain(sold.orderId);
    expect(after.counters.notOrdered).toBe(listed.counters.notOrdered! - 1);
    const lost = (await adminCall(getOrders, { orderNumber: sold.orderID })).body.items as {
      dispute: { status: string };
      refunds: { kind: string; amount: number }[];
    }[];
    expect(lost[0]!.dispute.status).toBe('lost');
    expect(lost[0]!.refunds).toEqual([{ amount: 20, at: expect.any(String), kind: 'dispute' }]);
    const marked = await adminCall(markAsOrdered, { id: sold.orderId });
    expect(marked.status).toBe(409);
    expect(marked.body.message).toContain('a dispute lost');
    const mails = mailsTo(sold.email).filter((mail) => mail.subject.includes('refunded'));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('Your bank decided the dispute of your payment');
  });
});

describe('a refund that fails after it made the order refunded in full', () => {
  it('brings the order back into its work list and count in the same transaction, gives the commission back, and tells the admins once', async () => {
    // The platform's available balance covers the refund (so Stripe makes it at once), and the
    // customer's card is Stripe's refund-failure card: the card's bank refuses the refund afterwards.
    await fundPlatform(stripe, 10_000);
    const sold = await sale(2600, 'pm_card_refundFail');
    const before = await workList('not_ordered');
    expect(before.ids).toContain(sold.orderId);
    const home = await summary();
    const { commissionId } = (await refunds.store.orderOfPayment(sold.paymentIntentId))!;
    const commissionBefore = (await item(keys.commission(commissionId!)))!;
    const countersBefore = (await item(COUNTERS_KEY)) as Record<string, number>;

    expect((await refund(sold.orderId)).status).toBe(200);
    const refundedList = await workList('not_ordered');
    expect(refundedList.ids).not.toContain(sold.orderId);
    expect(refundedList.counters.notOrdered).toBe(before.counters.notOrdered! - 1);
    expect(await item(keys.commission(commissionId!))).toMatchObject({ status: 'cancelled', amountCents: 0 });

    // The emulator's ledger: the card's bank refused the refund; its amount is back on the charge.
    await emulator.idle();
    const [atStripe] = (await stripe.refunds.list({ payment_intent: sold.paymentIntentId })).data;
    expect(atStripe).toMatchObject({ status: 'failed', failure_reason: 'expired_or_canceled_card' });
    const charge = await stripe.charges.retrieve(String(atStripe!.charge));
    expect(charge).toMatchObject({ amount_refunded: 0, refunded: false });

    // Stripe's two events about it, each delivered twice: applied once.
    const failed = await eventOf('refund.failed', sold.paymentIntentId);
    const updated = await eventOf('charge.refund.updated', sold.paymentIntentId);
    for (const event of [failed, updated, failed, updated]) expect((await deliver(event)).status).toBe(200);

    // Back in Not ordered yet, counted there and on the admin home again, as before the refund.
    const after = await workList('not_ordered');
    expect(after.ids).toContain(sold.orderId);
    expect(after.counters.notOrdered).toBe(before.counters.notOrdered);
    expect(after.counters.all).toBe(before.counters.all);
    expect((await summary()).orders.toOrder).toBe(home.orders.toOrder);
    const stored = (await item(keys.order(sold.orderId)))!;
    expect(stored).toMatchObject({ refundedCents: 0, gsi2sk: expect.stringContaining(sold.orderId) });
    // The card lists no refund that did not happen: nothing refunded, none listed.
    const card = (
      (await adminCall(getOrders, { type: 'not_ordered', limit: 100 })).body.items as Record<string, unknown>[]
    ).find((order) => order.id === sold.orderId);
    expect(card).toMatchObject({ refunded: 0, refundState: 'none', refunds: [] });
    // It says the refund failed, once whatever the deliveries: how much, when, why, and that the order is back in its list.
    expect(card!.failedRefunds).toEqual([
      { amount: 26, at: expect.any(String), reason: "the customer's card was expired or cancelled", backInList: true },
    ]);
    // The commission the refund had cancelled (nothing was sent) is back as it was, in the To Stripe list.
    const commissionAfter = (await item(keys.commission(commissionId!)))!;
    expect(commissionAfter).toMatchObject({
      status: commissionBefore.status,
      amountCents: commissionBefore.amountCents,
      gsi2pk: commissionBefore.gsi2pk,
      gsi2sk: commissionBefore.gsi2sk,
    });

    // The commissions' counters as before the refund, to the cent.
    const countersAfter = (await item(COUNTERS_KEY)) as Record<string, number>;
    for (const name of ['toStripeCount', 'toStripeCents', 'processingCents', 'totalCents']) {
      expect([name, countersAfter[name]]).toEqual([name, countersBefore[name]]);
    }

    // The admins' mail, once: what happened, that the order is to be worked again, what to do.
    const failedMails = mailsTo(OPS).filter(
      (mail) => mail.subject === `A refund failed: $26.00 on order ${sold.orderID}`,
    );
    expect(failedMails).toHaveLength(1);
    expect(failedMails[0]!.text).toContain("the customer's card was expired or cancelled");
    expect(failedMails[0]!.text).toContain(
      'The order is back in “Not ordered yet” and counted there again: it is to be worked as before unless you refund it again.',
    );
    expect(failedMails[0]!.text).toContain('refund the order again');
    expect(failedMails[0]!.text).toContain(
      `The member's commission of $${((commissionBefore.amountCents as number) / 100).toFixed(2)}, which the refund had cancelled, is back`,
    );

    // It can be worked again: marked as ordered, it moves on to Not shipped yet.
    expect((await adminCall(markAsOrdered, { id: sold.orderId })).status).toBe(200);
    expect((await workList('not_shipped')).ids).toContain(sold.orderId);
  });
});
