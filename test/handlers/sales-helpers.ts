import { randomBytes } from 'node:crypto';
import type Stripe from 'stripe';
import { expect, inject } from 'vitest';
import { handler as getPaymentIntent } from '../../functions/src/handlers/get-payment-intent';
import { handler as webhook } from '../../functions/src/handlers/stripe-webhook';
import { signature } from '../../infra/local/stripe';
import { sdk } from '../../infra/local/stripe/testing';
import { productIdFromSpuNo } from '../../shared/src/domain/csv-product';
import { dynamoProducts } from '../../functions/src/adapters/products/dynamo-products';
import type { ProductRecord } from '../../functions/src/products/product-store';
import { allItems, auth, call, payoutAccountForm, uniqueEmail } from './helpers';

/** A product stored as the import and an admin would leave it: approved, or banned after approval. */
export async function product(
  sellCents: number,
  status: 'approved' | 'banned' | 'review' = 'approved',
  name?: string,
  brand = 'Lumo',
): Promise<string> {
  const spu = `SL-${randomBytes(6).toString('hex')}`;
  const id = productIdFromSpuNo(spu);
  const now = new Date().toISOString();
  const content = {
    spu_no: spu,
    product_name: name ?? `Sales Lamp ${spu}`,
    brand,
    msrp_us_cents: sellCents * 2,
    dropshipping_price_us_cents: sellCents,
    product_images: ['https://images.example.com/lamp.jpg'],
    additional_product_images: [],
    html_description: '<p>A lamp.</p>',
    url: 'https://supplier.example.com/lamp',
    content_hash: randomBytes(32).toString('hex'),
  };
  const record: ProductRecord = {
    id,
    status: 'review',
    current: content,
    createdAt: now,
    updatedAt: now,
    lastJobId: 'job',
  };
  // A fresh random id: no import can be creating it.
  await dynamoProducts.putNew([record]);
  if (status !== 'review') expect(await dynamoProducts.approve(id, content.content_hash, now)).toBe('done');
  if (status === 'banned') {
    expect(
      await dynamoProducts.revise(
        id,
        { ...content, content_hash: randomBytes(32).toString('hex') },
        { id, status: 'approved', contentHash: content.content_hash },
        'job2',
        now,
      ),
    ).toBe(true);
    expect(await dynamoProducts.ban(id, now)).toBe('done');
  }
  return id;
}

export interface Member {
  id: string;
  email: string;
  token: string;
  shareCode: string;
}

/** A member signed up through the handler, with the share code signup gave them. */
export async function member(): Promise<Member> {
  const { handler: signup } = await import('../../functions/src/handlers/signup');
  const email = uniqueEmail('seller');
  const result = await call(signup, { body: { email, password: 'a long enough password' } });
  expect(result.status).toBe(200);
  const profile = result.body.userProfile as { id: string; shareCode: string };
  return { id: profile.id, email, token: String(result.body.access_token), shareCode: profile.shareCode };
}

/** Stripe's test Visa debit card: added as a payout method, it takes instant payouts. */
export const INSTANT_DEBIT_CARD = '4000056655665556';

/** A token for a US debit card at the emulator `stripe` talks to, as Stripe.js makes it in the browser. */
export const debitCardToken = async (stripe: Stripe, number: string) =>
  (await stripe.tokens.create({ card: { number, exp_month: '12', exp_year: '2034', cvc: '123', currency: 'usd' } })).id;

export interface PayableMember extends Member {
  accountId: string;
}

/**
 * A member signed up, with a payout account made by /api/createPayoutAccount (the valid form, with
 * `form` over it) and the debit card `card` (instant payouts unless it says otherwise; null: none)
 * added by /api/addPayoutMethod, its token made at the emulator `stripe` talks to: the functions'
 * emulator, whether the shared one or a file's own.
 */
export async function payableMember(
  stripe: Stripe,
  options: { card?: string | null; form?: Record<string, unknown> } = {},
): Promise<PayableMember> {
  // Imported on first use, as signup is: after a file's beforeAll pointed the functions at its emulator.
  const { handler: createPayoutAccount } = await import('../../functions/src/handlers/create-payout-account');
  const { handler: addPayoutMethod } = await import('../../functions/src/handlers/add-payout-method');
  const who = await member();
  const created = await call(createPayoutAccount, {
    body: { ...payoutAccountForm, ...options.form },
    headers: auth(who.token),
  });
  expect(created.status).toBe(200);
  const accountId = String((created.body.user as { stripeID: string }).stripeID);
  const card = options.card === undefined ? INSTANT_DEBIT_CARD : options.card;
  if (card) {
    const token = await debitCardToken(stripe, card);
    const added = await call(addPayoutMethod, { body: { id: accountId, token }, headers: auth(who.token) });
    expect(added.status).toBe(200);
  }
  return { ...who, accountId };
}

export const customer = {
  name: 'Ada Buyer',
  email: 'ada@example.com',
  address: { line1: '1 Main St', line2: 'Apt 2', city: 'Springfield', state: 'IL', postal_code: '62701' },
};

/** The real `stripe` SDK pointed at the emulator the handler tests share. */
export const stripeAtEmulator = () => sdk(Number(new URL(inject('stripeApiUrl')).port), process.env.STRIPE_SECRET_KEY);

/**
 * A checkout paid at the Stripe emulator: the intent made by getPaymentIntent's logic, confirmed
 * with `paymentMethod` (pm_card_visa unless said) as the customer's browser would. Answers the
 * payment intent's id.
 */
export async function paidCheckout(
  stripe: Stripe,
  productId: string,
  unitCents: number,
  qty: number,
  {
    paymentMethod = 'pm_card_visa',
    ...options
  }: { ref?: string; customer?: typeof customer; paymentMethod?: string } = {},
): Promise<string> {
  const created = await call(getPaymentIntent, {
    body: { id: productId, amount: unitCents * qty, qty, ...options },
  });
  expect(created.status).toBe(200);
  const intentId = String(created.body.clientSecret).split('_secret_')[0]!;
  const confirmed = await stripe.paymentIntents.confirm(intentId, { payment_method: paymentMethod });
  expect(confirmed.status).toBe('succeeded');
  return intentId;
}

/** The emulator's payment_intent.succeeded event of this intent, as Stripe would post it. */
export async function succeededEvent(stripe: Stripe, intentId: string): Promise<string> {
  for await (const event of stripe.events.list({ type: 'payment_intent.succeeded', limit: 100 })) {
    if ((event.data.object as Stripe.PaymentIntent).id === intentId) return JSON.stringify(event);
  }
  throw new Error(`no payment_intent.succeeded event for ${intentId}`);
}

/** A platform event delivered to /api/stripeWebhook, signed as Stripe signs it. */
export const deliver = (payload: string) =>
  call(webhook, {
    rawBody: payload,
    headers: {
      'stripe-signature': signature(payload, process.env.STRIPE_WEBHOOK_SECRET!, Math.floor(Date.now() / 1000)),
    },
    path: '/api/stripeWebhook',
  });

/** The stored items of one entity that match. */
export const itemsOf = async (entity: string, match: (item: Record<string, unknown>) => boolean) =>
  (await allItems()).filter((item) => item.entity === entity && match(item));

/** A sale through the member's link entered by an admin (/api/addOrder): its order and commission. */
export async function addedOrder(admin: string, seller: Member, productId: string, qty = 1) {
  const { handler: addOrder } = await import('../../functions/src/handlers/add-order');
  const result = await call(addOrder, {
    body: { product_id: productId, qty, ref: seller.shareCode, customer },
    headers: auth(admin),
  });
  expect(result.status).toBe(200);
  return result.body as { order: { id: string }; commission: { id: string } };
}

/** The order marked ordered, shipped and fulfilled by an admin, each step answering 200. */
export async function markFulfilled(admin: string, orderId: string) {
  const { handler: markAsOrdered } = await import('../../functions/src/handlers/mark-as-ordered');
  const { handler: markAsShipped } = await import('../../functions/src/handlers/mark-as-shipped');
  const { handler: markAsFufilled } = await import('../../functions/src/handlers/mark-as-fulfilled');
  for (const handler of [markAsOrdered, markAsShipped, markAsFufilled]) {
    expect((await call(handler, { body: { id: orderId }, headers: auth(admin) })).status).toBe(200);
  }
}
