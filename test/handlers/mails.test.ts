import { createHash, randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../functions/src/adapters/dynamo-client';
import { dynamoMailClaims } from '../../functions/src/adapters/email/dynamo-mail-claims';
import { mailer, mails as mailDeps } from '../../functions/src/composition';
import { sendSaleNotice } from '../../functions/src/notifications/stripe-notices';
import { clock } from '../../functions/src/config/clock';
import { MAIL_LEASE_MS } from '../../functions/src/email/send-once';
import { handler as connectWebhook } from '../../functions/src/handlers/stripe-connect-webhook';
import { handler as confirmCheckout } from '../../functions/src/handlers/confirm-checkout';
import { handler as addOrder } from '../../functions/src/handlers/add-order';
import { handler as markAsOrdered } from '../../functions/src/handlers/mark-as-ordered';
import { handler as markAsShipped } from '../../functions/src/handlers/mark-as-shipped';
import { handler as markAsFufilled } from '../../functions/src/handlers/mark-as-fulfilled';
import { handler as getOrderPage } from '../../functions/src/handlers/get-order-page';
import { handler as saveMailPreferences } from '../../functions/src/handlers/save-mail-preferences';
import { handler as payToMember } from '../../functions/src/handlers/pay-commission-to-member';
import { handler as login } from '../../functions/src/handlers/login';
import { keys } from '../../shared/src/db/table';
import { NO_SUCH_ORDER_LINK } from '../../shared/src/api/order-page';
import type Stripe from 'stripe';
import { PAYOUT_FAILING_DEBIT_CARD, signature } from '../../infra/local/stripe';
import { handler as addToStripe } from '../../functions/src/handlers/add-commission-to-stripe';
import { createCommission } from './commission-fixtures';
import { allItems, auth, call, tokenFor, uniqueEmail } from './helpers';
import { mailsTo as allMailsTo, type StoredMail } from './outbox';
import {
  customer,
  deliver,
  member,
  payableMember,
  paidCheckout as paidCheckoutAt,
  product,
  stripeAtEmulator,
  succeededEvent as succeededEventAt,
} from './sales-helpers';

/**
 * The mails of orders and money against the real engines (DynamoDB Local, the Stripe emulator,
 * this file's outbox folder): each sent once per event across retries and replays, the order page
 * link and what its page shows, the carrier and tracking number, and the member's opt-outs.
 */
const ADMINS = ['ops-one@example.com', 'ops-two@example.com'];
process.env.ADMIN_MAIL_TO = ADMINS.join(', ');
const stripe = stripeAtEmulator();
const admin = await tokenFor(true);
/** The mails to an address, without sign-up's verification mail. */
const mailsTo = (email: string): StoredMail[] =>
  allMailsTo(email).filter((mail) => !mail.subject.startsWith('Verify your e-mail'));

const tokenOf = (mail: StoredMail): string => new URL(mail.link!.url).hash.slice(1);

/** A checkout of one at `unitCents` paid by the customer at `email`, through the member's link `ref`. */
const paidCheckout = (productId: string, unitCents: number, options: { ref?: string; email: string }) =>
  paidCheckoutAt(stripe, productId, unitCents, 1, {
    ref: options.ref,
    customer: { ...customer, email: options.email },
  });
const succeededEvent = (intentId: string) => succeededEventAt(stripe, intentId);

const signed = (payload: string, secret: string) => ({
  'stripe-signature': signature(payload, secret, Math.floor(Date.now() / 1000)),
});
const deliverConnect = (payload: string) =>
  call(connectWebhook, {
    rawBody: payload,
    headers: signed(payload, process.env.STRIPE_CONNECT_WEBHOOK_SECRET!),
    path: '/api/stripeConnectWebhook',
  });

const mark = (handler: typeof markAsOrdered, body: Record<string, unknown>) =>
  call(handler, { body, headers: auth(admin) });
const orderPage = (token: string) => call(getOrderPage, { body: { token }, path: '/api/getOrderPage' });

/** A checkout paid and recorded, with its receipt in the outbox: the order's id and the receipt. */
async function recordedCheckout(ref?: string) {
  const email = uniqueEmail('buyer');
  const productId = await product(2500);
  const intentId = await paidCheckout(productId, 2500, { ref, email });
  expect((await deliver(await succeededEvent(intentId))).status).toBe(200);
  const [receipt] = mailsTo(email);
  expect(receipt).toBeDefined();
  const { paymentOrderIds } = await import('../../functions/src/orders/record-sale');
  return { email, intentId, orderId: paymentOrderIds(intentId).id, receipt: receipt! };
}

afterEach(() => {
  vi.restoreAllMocks();
  clock.now = () => Date.now();
});

describe('the receipt and the member’s sale mail', () => {
  it('go once each, however often the webhook and the browser report the payment, and the receipt links the order page', async () => {
    const seller = await member();
    const email = uniqueEmail('buyer');
    const productId = await product(2500);
    const intentId = await paidCheckout(productId, 2500, { ref: seller.shareCode, email });
    const event = await succeededEvent(intentId);
    // Three webhook deliveries (one at a time: Powertools lets a parallel one wait with a 409) and two browser reports.
    const answers = [await deliver(event), await deliver(event), await deliver(event)];
    const confirmed = await Promise.all([
      call(confirmCheckout, { body: { paymentIntentId: intentId } }),
      call(confirmCheckout, { body: { paymentIntentId: intentId } }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(confirmed.map((answer) => answer.status)).toEqual([200, 200]);

    const receipts = mailsTo(email);
    expect(receipts).toHaveLength(1);
    const receipt = receipts[0]!;
    const orderNumber = String(confirmed[0].body.orderID);
    expect(receipt.subject).toBe(`Your order ${orderNumber}: thank you`);
    expect(receipt.text).toContain('$25.00');
    expect(receipt.link!.url).toMatch(/^http:\/\/127\.0\.0\.1:3999\/track_order#[A-Za-z0-9_-]{43}$/);
    expect(receipt.text).toContain(receipt.link!.url);
    expect(receipt.html).toContain(`href="${receipt.link!.url}"`);

    const sales = mailsTo(seller.email);
    expect(sales).toHaveLength(1);
    expect(sales[0]!.subject).toBe('You made a sale: $2.50 commission');
    expect(sales[0]!.text).toContain('It becomes available 14 days after the order is delivered.');
    expect(sales[0]!.text).toContain(orderNumber);
  });

  it('is sent by the next report when the first report’s mail failed, and still once', async () => {
    const email = uniqueEmail('buyer');
    const productId = await product(1800);
    const intentId = await paidCheckout(productId, 1800, { email });
    const failing = vi.spyOn(mailer, 'send').mockRejectedValueOnce(new Error('SES is down'));
    // The browser's report records the order; its mail fails (logged), the customer still gets the order number.
    const first = await call(confirmCheckout, { body: { paymentIntentId: intentId } });
    expect(first.status).toBe(200);
    expect(failing).toHaveBeenCalledTimes(1);
    expect(mailsTo(email)).toHaveLength(0);
    // The webhook then sends it; its replays send nothing more.
    const event = await succeededEvent(intentId);
    for (let round = 0; round < 3; round++) expect((await deliver(event)).status).toBe(200);
    expect(mailsTo(email)).toHaveLength(1);
  });

  it('a claim left by a delivery that died before sending keeps others off until its lease runs out; then a redelivery sends the mail', async () => {
    const email = uniqueEmail('buyer');
    const productId = await product(1800);
    const intentId = await paidCheckout(productId, 1800, { email });
    const { paymentOrderIds } = await import('../../functions/src/orders/record-sale');
    const orderId = paymentOrderIds(intentId).id;
    // A delivery claimed the receipt and died.
    expect(await dynamoMailClaims.claim('receipt', orderId, 'a-dead-delivery', Date.now(), MAIL_LEASE_MS)).toBe(
      'claimed',
    );
    const event = await succeededEvent(intentId);
    const during = await deliver(event);
    expect(during.status).toBe(503);
    expect(mailsTo(email)).toHaveLength(0);
    // The order is recorded all the same.
    expect((await db().send(new GetCommand({ TableName: tableName(), Key: keys.order(orderId) }))).Item).toBeDefined();
    clock.now = () => Date.now() + MAIL_LEASE_MS + 1_000;
    expect((await deliver(event)).status).toBe(200);
    expect((await deliver(event)).status).toBe(200);
    expect(mailsTo(email)).toHaveLength(1);
    const claim = await db().send(
      new GetCommand({ TableName: tableName(), Key: keys.mailClaim('receipt', orderId), ConsistentRead: true }),
    );
    expect(claim.Item).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('a mailer that cannot be had (no sender configured) leaves the mail unsent without failing the webhook; once it is back, a redelivery sends it', async () => {
    const email = uniqueEmail('buyer');
    const productId = await product(1800);
    const intentId = await paidCheckout(productId, 1800, { email });
    const event = await succeededEvent(intentId);
    const { MailerUnavailable } = await import('../../functions/src/email/mailer');
    const { paymentOrderIds } = await import('../../functions/src/orders/record-sale');
    vi.spyOn(mailer, 'send').mockRejectedValueOnce(new MailerUnavailable(new Error('no sender')));
    expect((await deliver(event)).status).toBe(200);
    expect(mailsTo(email)).toHaveLength(0);
    // No claim is left: nothing marks the mail as sent.
    const claim = await db().send(
      new GetCommand({
        TableName: tableName(),
        Key: keys.mailClaim('receipt', paymentOrderIds(intentId).id),
        ConsistentRead: true,
      }),
    );
    expect(claim.Item).toBeUndefined();
    // The browser's report (or any later report) sends it once.
    expect((await call(confirmCheckout, { body: { paymentIntentId: intentId } })).status).toBe(200);
    expect((await call(confirmCheckout, { body: { paymentIntentId: intentId } })).status).toBe(200);
    expect(mailsTo(email)).toHaveLength(1);
  });

  it('an admin’s phone order mails the member once and sends no receipt', async () => {
    const seller = await member();
    const productId = await product(4000);
    const email = uniqueEmail('phone');
    const recorded = await call(addOrder, {
      body: { product_id: productId, qty: 2, ref: seller.shareCode, customer: { ...customer, email } },
      headers: auth(admin),
    });
    expect(recorded.status).toBe(200);
    expect(mailsTo(seller.email).map((mail) => mail.subject)).toEqual(['You made a sale: $8.00 commission']);
    expect(mailsTo(email)).toHaveLength(0);
  });
});

describe('the order page', () => {
  it('is reached by an unguessable token kept only as its hash, and shows the steps, their dates and nothing else of the order', async () => {
    const { receipt, orderId, email } = await recordedCheckout();
    const token = tokenOf(receipt);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(token).not.toContain(orderId);
    const items = await allItems();
    expect(JSON.stringify(items)).not.toContain(token);
    const hash = createHash('sha256').update(token).digest('hex');
    expect(items.find((item) => item.pk === `ORDER_LINK#${hash}`)).toMatchObject({ orderId });

    const before = await orderPage(token);
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({
      orderID: receipt.subject.split(' ')[2]!.replace(':', ''),
      qty: 1,
      steps: [
        { step: 'ordered', done: false, at: null },
        { step: 'shipped', done: false, at: null },
        { step: 'fulfilled', done: false, at: null },
      ],
      shipment: null,
    });
    // Only what the page shows: no customer, address, e-mail, price, member or internal id.
    expect(Object.keys(before.body).sort()).toEqual([
      'orderID',
      'placedAt',
      'product_name',
      'qty',
      'shipment',
      'steps',
    ]);
    const text = JSON.stringify(before.body);
    for (const secret of [email, customer.address.line1, customer.name, orderId]) expect(text).not.toContain(secret);
    // The price ($25.00) in no form: no value of the answer is it. (Not "no 25 in the text": the
    // time stamp and the random order number hold those digits now and then; a CI run at
    // 15:23:25 failed on it.)
    const leaves = (value: unknown): unknown[] =>
      value !== null && typeof value === 'object' ? Object.values(value).flatMap(leaves) : [value];
    expect(
      leaves(before.body).filter((value) => [25, 2500, '25', '25.00', '$25.00', '2500'].includes(value as never)),
    ).toEqual([]);

    expect((await mark(markAsOrdered, { id: orderId })).status).toBe(200);
    expect(
      (await mark(markAsShipped, { id: orderId, carrier: 'usps', trackingNumber: '9400 1000 0000 0000 0000 00' }))
        .status,
    ).toBe(200);
    const shipped = await orderPage(token);
    const steps = shipped.body.steps as { step: string; done: boolean; at: string | null }[];
    expect(steps.map((step) => [step.step, step.done])).toEqual([
      ['ordered', true],
      ['shipped', true],
      ['fulfilled', false],
    ]);
    expect(Date.parse(steps[0]!.at!)).not.toBeNaN();
    expect(Date.parse(steps[1]!.at!)).toBeGreaterThanOrEqual(Date.parse(steps[0]!.at!));
    expect(shipped.body.shipment).toEqual({
      carrier: 'USPS',
      trackingNumber: '9400100000000000000000',
      trackingUrl: 'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400100000000000000000',
    });
    expect((await mark(markAsFufilled, { id: orderId })).status).toBe(200);
    const done = (await orderPage(token)).body.steps as { done: boolean; at: string | null }[];
    expect(done[2]!.done).toBe(true);
    expect(done[2]!.at).not.toBeNull();
  });

  it('answers 404 in words for an unknown token and 400 for one of the wrong shape, naming the field', async () => {
    const unknown = await orderPage(randomBytes(32).toString('base64url'));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ message: NO_SUCH_ORDER_LINK, fields: { token: NO_SUCH_ORDER_LINK } });
    const wrong = await orderPage('not-a-token');
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ fields: { token: NO_SUCH_ORDER_LINK } });
  });
});

describe('marking an order shipped', () => {
  it('refuses a tracking number of the wrong format, naming the field, and leaves the order as it was', async () => {
    const { orderId } = await recordedCheckout();
    expect((await mark(markAsOrdered, { id: orderId })).status).toBe(200);
    const before = (await db().send(new GetCommand({ TableName: tableName(), Key: keys.order(orderId) }))).Item;
    const refused = await mark(markAsShipped, { id: orderId, carrier: 'ups', trackingNumber: '12345' });
    expect(refused.status).toBe(400);
    expect((refused.body.fields as Record<string, string>).trackingNumber).toMatch(
      /^This is not a UPS tracking number/,
    );
    const noCarrier = await mark(markAsShipped, { id: orderId, trackingNumber: '1Z999AA10123456784' });
    expect(noCarrier.status).toBe(400);
    expect(noCarrier.body.fields).toEqual({ carrier: 'Choose the carrier of this tracking number.' });
    const after = (await db().send(new GetCommand({ TableName: tableName(), Key: keys.order(orderId) }))).Item;
    expect(after).toEqual(before);
  });

  it('mails the customer the carrier and tracking number once across three marks, the links to the order and the carrier', async () => {
    const { orderId, email } = await recordedCheckout();
    expect((await mark(markAsOrdered, { id: orderId })).status).toBe(200);
    const body = { id: orderId, carrier: 'ups', trackingNumber: '1z999aa10123456784' };
    const statuses = [];
    for (let round = 0; round < 3; round++) statuses.push((await mark(markAsShipped, body)).status);
    expect(statuses).toEqual([200, 409, 409]);
    const shipped = mailsTo(email).filter((mail) => mail.subject.endsWith('has shipped'));
    expect(shipped).toHaveLength(1);
    expect(shipped[0]!.text).toContain('Tracking number: 1Z999AA10123456784');
    expect(shipped[0]!.html).toContain('href="https://www.ups.com/track?tracknum=1Z999AA10123456784"');
    // Its own link opens the same order's page.
    const page = await orderPage(tokenOf(shipped[0]!));
    expect(page.body.shipment).toMatchObject({ carrier: 'UPS', trackingNumber: '1Z999AA10123456784' });
  });

  it('shows another carrier’s number without a link, and accepts the spec’s { id } alone', async () => {
    const first = await recordedCheckout();
    await mark(markAsOrdered, { id: first.orderId });
    expect(
      (
        await mark(markAsShipped, {
          id: first.orderId,
          carrier: 'other',
          carrierName: 'Speedy Couriers',
          trackingNumber: 'SPD 42-A',
        })
      ).status,
    ).toBe(200);
    expect((await orderPage(tokenOf(first.receipt))).body.shipment).toEqual({
      carrier: 'Speedy Couriers',
      trackingNumber: 'SPD 42-A',
      trackingUrl: null,
    });
    const second = await recordedCheckout();
    await mark(markAsOrdered, { id: second.orderId });
    expect((await mark(markAsShipped, { id: second.orderId })).status).toBe(200);
    expect((await orderPage(tokenOf(second.receipt))).body.shipment).toBeNull();
    const mail = mailsTo(second.email).find((each) => each.subject.endsWith('has shipped'))!;
    expect(mail.text).toContain('This parcel was sent without a tracking number');
  });

  it('sends the shipping mail on the admin’s retry when the mark’s own mail failed (the mark stands)', async () => {
    const { orderId, email } = await recordedCheckout();
    await mark(markAsOrdered, { id: orderId });
    vi.spyOn(mailer, 'send').mockRejectedValueOnce(new Error('SES is down'));
    const first = await mark(markAsShipped, { id: orderId, carrier: 'dhl', trackingNumber: '1234567890' });
    expect(first.status).toBe(200);
    expect(mailsTo(email).filter((mail) => mail.subject.endsWith('has shipped'))).toHaveLength(0);
    const retry = await mark(markAsShipped, { id: orderId, carrier: 'dhl', trackingNumber: '1234567890' });
    expect(retry.status).toBe(409);
    expect(mailsTo(email).filter((mail) => mail.subject.endsWith('has shipped'))).toHaveLength(1);
  });
});

describe('the member’s choices', () => {
  it('turning "you made a sale" off stops it (the receipt still goes); on again, it comes back; the profile says so', async () => {
    const seller = await member();
    const saved = await call(saveMailPreferences, {
      body: { saleMails: false, payoutMails: true },
      headers: auth(seller.token),
      path: '/api/saveMailPreferences',
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ mailPreferences: { saleMails: false, payoutMails: true } });
    const loggedIn = await call(login, { body: { email: seller.email, password: 'a long enough password' } });
    expect((loggedIn.body.userProfile as { mailPreferences: unknown }).mailPreferences).toEqual({
      saleMails: false,
      payoutMails: true,
    });

    const quiet = await recordedCheckout(seller.shareCode);
    expect(mailsTo(quiet.email)).toHaveLength(1);
    expect(mailsTo(seller.email)).toHaveLength(0);

    await call(saveMailPreferences, {
      body: { saleMails: true, payoutMails: true },
      headers: auth(seller.token),
      path: '/api/saveMailPreferences',
    });
    await recordedCheckout(seller.shareCode);
    expect(mailsTo(seller.email)).toHaveLength(1);
  });

  it('refuses a body that is not two true/false answers, and an admin-only or anonymous caller', async () => {
    const seller = await member();
    const wrong = await call(saveMailPreferences, {
      body: { saleMails: 'no' },
      headers: auth(seller.token),
      path: '/api/saveMailPreferences',
    });
    expect(wrong.status).toBe(400);
    expect(Object.keys(wrong.body.fields as object).sort()).toEqual(['payoutMails', 'saleMails']);
    const anonymous = await call(saveMailPreferences, {
      body: { saleMails: true, payoutMails: true },
      path: '/api/saveMailPreferences',
    });
    expect(anonymous.status).toBe(401);
  });
});

/** A commission of the member's, paid out (status paid with its payout), as payCommisionToMember leaves it. */
async function paidCommission(seller: { id: string; email: string }, amountCents: number) {
  const commission = await createCommission({ memberId: seller.id, memberEmail: seller.email, amountCents });
  const payoutId = `po_${randomBytes(8).toString('hex')}`;
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.commission(commission.id),
      UpdateExpression: 'SET #status = :paid, payoutId = :payout REMOVE gsi2pk, gsi2sk',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':paid': 'paid', ':payout': payoutId },
    }),
  );
  return { ...commission, payoutId };
}

/** The emulator's payout event of the commission's payout (the card's payout is paid, or fails, just after it is made). */
async function payoutEventAt(type: 'payout.paid' | 'payout.failed', accountId: string, commissionId: string) {
  for (;;) {
    const events = await stripe.events.list({ type, limit: 100 }, { stripeAccount: accountId });
    const found = events.data.find((one) => (one.data.object as Stripe.Payout).metadata?.commissionId === commissionId);
    if (found) return JSON.stringify(found);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A member whose commission of `amountCents` is sent to their Stripe balance, to be paid to `card`. */
async function sentCommission(amountCents: number, card?: string) {
  const seller = await payableMember(stripe, card ? { card } : {});
  const commission = await createCommission({ memberId: seller.id, memberEmail: seller.email, amountCents });
  // Funds available at once on the platform's balance (the test card that skips pending), for the transfer.
  await paidCheckoutAt(stripe, await product(2000), 2000, 1, { paymentMethod: 'pm_card_bypassPending' });
  const sent = await call(addToStripe, { body: { id: commission.id }, headers: auth(admin) });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  return { seller, commission };
}

describe('the payout mails', () => {
  it('"your payout is on its way" goes once across three payCommisionToMember calls, as the payout is made', async () => {
    const { seller, commission } = await sentCommission(1234);
    for (let round = 0; round < 3; round++) {
      const paid = await call(payToMember, { body: { id: commission.id }, headers: auth(admin) });
      expect(paid.status).toBe(200);
    }
    // The standard payout is in transit until its arrival date (payout.paid then, on the emulator's
    // clock, which this shared emulator does not move): the mail went as the payout was recorded.
    const [payout] = (await stripe.payouts.list({ limit: 1 }, { stripeAccount: seller.accountId })).data;
    expect(payout).toMatchObject({ amount: 1234, status: 'in_transit', method: 'standard' });
    const mails = mailsTo(seller.email);
    expect(mails.map((mail) => mail.subject)).toEqual(['Your payout of $12.34 is on its way']);
  });

  it('is not sent to a member who turned it off', async () => {
    const seller = await member();
    await call(saveMailPreferences, {
      body: { saleMails: true, payoutMails: false },
      headers: auth(seller.token),
      path: '/api/saveMailPreferences',
    });
    const commission = await paidCommission(seller, 500);
    expect((await call(payToMember, { body: { id: commission.id }, headers: auth(admin) })).status).toBe(200);
    expect(mailsTo(seller.email)).toHaveLength(0);
    const claim = await db().send(
      new GetCommand({
        TableName: tableName(),
        Key: keys.mailClaim('payout', commission.payoutId),
        ConsistentRead: true,
      }),
    );
    expect(claim.Item).toMatchObject({ status: 'skipped', skipped: 'turned off by the member' });
  });

  it('"a payout failed" reaches each admin once across three deliveries of the event, with Stripe’s reason', async () => {
    // A payout Stripe has and failed: the webhook reads it from Stripe before acting (one it never had is ignored).
    const { seller, commission } = await sentCommission(990, PAYOUT_FAILING_DEBIT_CARD);
    const paid = await call(payToMember, { body: { id: commission.id }, headers: auth(admin) });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const before = ADMINS.map((to) => mailsTo(to).length);
    const event = await payoutEventAt('payout.failed', seller.accountId, commission.id);
    vi.spyOn(mailer, 'send').mockRejectedValueOnce(new Error('SES is down'));
    // The first delivery's mail fails: Stripe is told to deliver again.
    expect((await deliverConnect(event)).status).toBe(500);
    for (let round = 0; round < 3; round++) expect((await deliverConnect(event)).status).toBe(200);
    ADMINS.forEach((to, index) => {
      const mails = mailsTo(to).slice(before[index]!);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toBe(`A payout failed: $9.90 to ${seller.email}`);
      expect(mails[0]!.html).toContain('The bank could not process this payout.');
    });
  });
});

describe('"a dispute was opened"', () => {
  it('reaches each admin once however often its event is applied', async () => {
    const facts = {
      eventId: `evt_${randomBytes(8).toString('hex')}`,
      disputeId: `dp_${randomBytes(6).toString('hex')}`,
      chargeId: 'ch_1',
      amountCents: 2500,
      reason: 'fraudulent',
      evidenceDueBy: null,
      orderID: 'RP-DISPUTE',
    };
    const before = ADMINS.map((to) => mailsTo(to).length);
    for (let round = 0; round < 3; round++) await sendSaleNotice(mailDeps, { kind: 'dispute-opened', facts });
    ADMINS.forEach((to, index) => {
      const mails = mailsTo(to).slice(before[index]!);
      expect(mails.map((mail) => mail.subject)).toEqual(['A dispute was opened: $25.00 on order RP-DISPUTE']);
    });
  });
});
