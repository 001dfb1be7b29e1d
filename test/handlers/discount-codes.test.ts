import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { db, tableName } from '../../functions/src/adapters/dynamo-client';
import { clock } from '../../functions/src/config/clock';
import { handler as getPaymentIntent } from '../../functions/src/handlers/get-payment-intent';
import { handler as confirmCheckout } from '../../functions/src/handlers/confirm-checkout';
import { handler as createDiscountCode } from '../../functions/src/handlers/create-discount-code';
import { handler as disableDiscountCode } from '../../functions/src/handlers/disable-discount-code';
import { handler as getDiscountCodes } from '../../functions/src/handlers/get-discount-codes';
import { handler as getMyDiscountCodes } from '../../functions/src/handlers/get-my-discount-codes';
import { handler as checkDiscountCode } from '../../functions/src/handlers/check-discount-code';
import { handler as refundOrder } from '../../functions/src/handlers/refund-order';
import { paymentOrderIds } from '../../functions/src/orders/record-sale';
import { keys } from '../../shared/src/db/table';
import { allItems, auth, call, tokenFor } from './helpers';
import { customer, member, product, stripeAtEmulator, type Member } from './sales-helpers';

/**
 * Members' discount codes (issue 39) through the handlers, the real `stripe` SDK and the emulator
 * the handler setup starts: the admin's code at Stripe, the price with a code, a code beating a
 * link, the commission on what was paid and its refund share, the refusals in words with nothing
 * stored, and the redemption limit under concurrency.
 */
const stripe = stripeAtEmulator();
const admin = await tokenFor(true);

const read = async (key: { pk: string; sk: string }) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

let serial = 0;
/** A code text of this run's own (codes are unique for good). */
const codeText = (prefix: string) => `${prefix}${Date.now().toString(36).toUpperCase()}${serial++}`;

async function makeCode(owner: Member, body: Record<string, unknown>) {
  const result = await call(createDiscountCode, { body: { memberEmail: owner.email, ...body }, headers: auth(admin) });
  expect(result.status).toBe(200);
  return result.body.code as { code: string; promotionCodeId: string; couponId: string; redeemed: number };
}

/** A checkout with a code, paid with a card at the emulator, reported by the browser. */
async function paidWithCode(productId: string, amount: number, qty: number, options: Record<string, unknown>) {
  const created = await call(getPaymentIntent, {
    body: { id: productId, amount, qty, customer, checkoutId: randomUUID(), ...options },
  });
  expect(created.status).toBe(200);
  const intentId = String(created.body.clientSecret).split('_secret_')[0]!;
  expect((await stripe.paymentIntents.confirm(intentId, { payment_method: 'pm_card_visa' })).status).toBe('succeeded');
  expect((await call(confirmCheckout, { body: { paymentIntentId: intentId } })).status).toBe(200);
  const ids = paymentOrderIds(intentId);
  return { intentId, order: await read(keys.order(ids.id)), commission: await read(keys.commission(ids.commissionId)) };
}

const intentsFor = async (productId: string) =>
  (await stripe.paymentIntents.list({ limit: 100 })).data.filter((intent) => intent.metadata.product_id === productId);

describe('the admin’s codes at Stripe', () => {
  it('makes a member’s code as a promotion code under a new coupon, and lists it to the admin and the member', async () => {
    const owner = await member();
    const text = codeText('DANA');
    const made = await makeCode(owner, { code: text.toLowerCase(), percentOff: 10, maxRedemptions: 3 });
    expect(made).toMatchObject({ code: text, redeemed: 0 });
    const promotion = await stripe.promotionCodes.retrieve(made.promotionCodeId);
    expect(promotion).toMatchObject({
      code: text,
      active: true,
      max_redemptions: 3,
      promotion: { type: 'coupon', coupon: made.couponId },
      metadata: { member_id: owner.id },
    });
    expect((await stripe.coupons.retrieve(made.couponId)).percent_off).toBe(10);

    const again = await call(createDiscountCode, {
      body: { memberEmail: owner.email, code: text, percentOff: 5 },
      headers: auth(admin),
    });
    expect(again.status).toBe(400);
    expect(again.body.fields).toEqual({
      code: `The code ${text} is taken (codes turned off keep theirs). Choose another.`,
    });

    const mine = await call(getMyDiscountCodes, { body: {}, headers: auth(owner.token) });
    expect(mine.body.items).toEqual([
      expect.objectContaining({ code: text, discount: '10 % off', status: 'active', memberEmail: '' }),
    ]);
    const listed = await call(getDiscountCodes, { body: {}, headers: auth(admin) });
    expect(listed.body.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ code: text, memberEmail: owner.email, uses: 0 })]),
    );
    const forbidden = await call(getDiscountCodes, { body: {}, headers: auth(owner.token) });
    expect(forbidden.status).toBe(403);
  });

  it('refuses an unknown member, two discounts at once and a past expiry in words, and makes nothing at Stripe', async () => {
    const owner = await member();
    const before = (await stripe.promotionCodes.list({ limit: 100 })).data.length;
    const unknown = await call(createDiscountCode, {
      body: { memberEmail: 'nobody-here@example.com', percentOff: 10 },
      headers: auth(admin),
    });
    expect(unknown.body.fields).toEqual({
      memberEmail: 'No member has this e-mail address. Check it on the member list.',
    });
    const both = await call(createDiscountCode, {
      body: { memberEmail: owner.email, percentOff: 10, amountOffCents: 100 },
      headers: auth(admin),
    });
    expect(both.status).toBe(400);
    const past = await call(createDiscountCode, {
      body: { memberEmail: owner.email, percentOff: 10, expiresAt: Math.floor(Date.now() / 1000) - 5 },
      headers: auth(admin),
    });
    expect(past.body.fields).toEqual({ expiresAt: 'The expiry must be in the future.' });
    expect((await stripe.promotionCodes.list({ limit: 100 })).data.length).toBe(before);
  });
});

describe('a checkout with a code', () => {
  it('shows the discounted price first, and refuses an amount that is not it', async () => {
    const owner = await member();
    const { code } = await makeCode(owner, { code: codeText('SHOW'), percentOff: 12.5 });
    const id = await product(1999);
    const preview = await call(checkDiscountCode, { body: { id, qty: 2, code: code.toLowerCase() } });
    expect(preview.status).toBe(200);
    // 12.5 % of $39.98 = $4.9975, half up: $5.00 off.
    expect(preview.body).toEqual({
      code,
      discount: '12.5 % off',
      listCents: 3998,
      discountCents: 500,
      totalCents: 3498,
    });
    const full = await call(getPaymentIntent, { body: { id, amount: 3998, qty: 2, code } });
    expect(full.status).toBe(400);
    expect(full.body.fields).toEqual({ amount: 'The price changed to $34.98. Review the order and try again.' });
    expect(await intentsFor(id)).toEqual([]);
  });

  it('belongs to the code’s member when a link names another (a code beats a link); the commission is on what was paid', async () => {
    const linkOwner = await member();
    const codeOwner = await member();
    const { code } = await makeCode(codeOwner, { code: codeText('BEAT'), amountOffCents: 500 });
    const id = await product(2500);
    const { intentId, order, commission } = await paidWithCode(id, 4500, 2, { ref: linkOwner.shareCode, code });
    expect((await stripe.paymentIntents.retrieve(intentId)).metadata).toMatchObject({
      ref: codeOwner.shareCode,
      link_ref: linkOwner.shareCode,
      promotion_code: code,
      discount_cents: '500',
      list_amount: '5000',
    });
    expect(order).toMatchObject({ memberId: codeOwner.id, totalCents: 4500, discountCode: code, discountCents: 500 });
    // 10 % of the $45.00 paid, not of the $50.00 list price.
    expect(commission).toMatchObject({ memberId: codeOwner.id, amountCents: 450, status: 'order_open' });

    const listed = await call(getDiscountCodes, { body: {}, headers: auth(admin) });
    const row = (listed.body.items as { code: string }[]).find((item) => item.code === code);
    expect(row).toMatchObject({
      redeemed: 1,
      uses: 1,
      revenueCents: 4500,
      orders: [expect.objectContaining({ orderID: order!.orderID, paidCents: 4500, discountCents: 500 })],
    });
  });

  it('keeps the refund share and the code’s revenue right to the cent after refunds of a discounted sale', async () => {
    const owner = await member();
    const { code } = await makeCode(owner, { code: codeText('REFUND'), percentOff: 15 });
    const id = await product(1999);
    // 15 % of $19.99 = $2.9985: $3.00 off, $16.99 paid; 10 % of it, half up: $1.70.
    const { order, commission } = await paidWithCode(id, 1699, 1, { code });
    expect(commission).toMatchObject({ amountCents: 170 });
    const first = await call(refundOrder, {
      body: { id: order!.id, amountCents: 1000, reason: 'requested_by_customer' },
      headers: auth(admin),
    });
    expect(first.status).toBe(200);
    // 170 − round(170 × 1000 / 1699) = 170 − 100 = 70.
    expect(await read(keys.commission(String(commission!.id)))).toMatchObject({ amountCents: 70 });
    expect(await read(keys.order(order!.id as string))).toMatchObject({ refundedCents: 1000, totalCents: 1699 });
    const rest = await call(refundOrder, {
      body: { id: order!.id, amountCents: 699, reason: 'requested_by_customer' },
      headers: auth(admin),
    });
    expect(rest.status).toBe(200);
    expect(await read(keys.commission(String(commission!.id)))).toMatchObject({ amountCents: 0 });
    const listed = await call(getDiscountCodes, { body: {}, headers: auth(admin) });
    const row = (listed.body.items as { code: string }[]).find((item) => item.code === code);
    expect(row).toMatchObject({ uses: 1, revenueCents: 0, orders: [expect.objectContaining({ refundedCents: 1699 })] });
  });

  it('lists every code with its uses, revenue and orders from one Query of the codes with their sales, no read per code', async () => {
    const owner = await member();
    const [busy, quiet] = [
      await makeCode(owner, { code: codeText('BUSY'), amountOffCents: 200 }),
      await makeCode(owner, { code: codeText('QUIET'), percentOff: 10 }),
    ];
    const id = await product(2000);
    const first = await paidWithCode(id, 1800, 1, { code: busy.code });
    const second = await paidWithCode(id, 3800, 2, { code: busy.code });
    const refunded = await call(refundOrder, {
      body: { id: first.order!.id, amountCents: 550, reason: 'requested_by_customer' },
      headers: auth(admin),
    });
    expect(refunded.status).toBe(200);

    const send = vi.spyOn(db(), 'send');
    let sent: { name: string; input: Record<string, unknown> }[];
    try {
      const listed = await call(getDiscountCodes, { body: {}, headers: auth(admin) });
      expect(listed.status).toBe(200);
      sent = send.mock.calls.map(([command]) => ({
        name: command.constructor.name,
        input: command.input as Record<string, unknown>,
      }));
      const items = listed.body.items as { code: string; createdAt: string }[];
      // Newest first, as before.
      expect(items.map((item) => item.createdAt)).toEqual(
        items
          .map((item) => item.createdAt)
          .sort()
          .reverse(),
      );
      expect(items.find((item) => item.code === busy.code)).toMatchObject({
        uses: 2,
        // $18.00 − $5.50 + $38.00.
        revenueCents: 1800 - 550 + 3800,
        orders: [
          expect.objectContaining({ orderID: second.order!.orderID, paidCents: 3800, refundedCents: 0 }),
          expect.objectContaining({ orderID: first.order!.orderID, paidCents: 1800, refundedCents: 550 }),
        ],
      });
      expect(items.find((item) => item.code === quiet.code)).toMatchObject({ uses: 0, revenueCents: 0, orders: [] });
    } finally {
      send.mockRestore();
    }
    // The codes and their sales: Queries of the list by code only; nothing per code, no order read.
    const reads = sent.filter((command) => command.name === 'QueryCommand' || command.name === 'BatchGetCommand');
    expect(reads.length).toBeGreaterThan(0);
    for (const read of reads) {
      expect(read).toMatchObject({ name: 'QueryCommand', input: { IndexName: 'gsi2' } });
      expect(read.input.ExpressionAttributeValues).toEqual({ ':pk': 'DISCOUNT_CODES#WITH_SALES' });
    }
  });

  it('holds the commission of a member’s own code on their own purchase (the self-purchase rule)', async () => {
    const owner = await member();
    const { code } = await makeCode(owner, { code: codeText('SELF'), percentOff: 10 });
    const id = await product(3000);
    const { commission } = await paidWithCode(id, 2700, 1, { code, customer: { ...customer, email: owner.email } });
    expect(commission).toMatchObject({ status: 'review', heldFor: 'self_purchase', amountCents: 270 });
  });
});

describe('codes that cannot be used', () => {
  /** The checkout refused with these words naming `code`, nothing stored and nothing at Stripe. */
  async function refusedWithNothingStored(id: string, amount: number, code: string, words: string) {
    const before = await allItems();
    const result = await call(getPaymentIntent, { body: { id, amount, code, checkoutId: randomUUID() } });
    expect(result.status).toBe(400);
    expect(result.body.fields).toEqual({ code: words });
    const preview = await call(checkDiscountCode, { body: { id, code } });
    expect(preview.body.fields).toEqual({ code: words });
    expect(await allItems()).toEqual(before);
  }

  it('refuses a turned-off code in words, and Stripe’s promotion code is inactive', async () => {
    const owner = await member();
    const made = await makeCode(owner, { code: codeText('OFF'), percentOff: 10 });
    const off = await call(disableDiscountCode, { body: { code: made.code }, headers: auth(admin) });
    expect(off.body.code).toMatchObject({ status: 'disabled' });
    expect((await stripe.promotionCodes.retrieve(made.promotionCodeId)).active).toBe(false);
    const id = await product(1000);
    await refusedWithNothingStored(
      id,
      900,
      made.code,
      `The discount code ${made.code} has been turned off by the shop. Pay the full price, or ask the member who gave it to you for another code.`,
    );
    expect(await intentsFor(id)).toEqual([]);
  });

  it('refuses an expired code with its date, and an unknown one', async () => {
    const owner = await member();
    const expiresAt = Math.floor(clock.now() / 1000) + 60;
    const made = await makeCode(owner, { code: codeText('EXP'), percentOff: 10, expiresAt });
    const id = await product(1000);
    const real = clock.now;
    clock.now = () => (expiresAt + 1) * 1000;
    try {
      const day = new Date(expiresAt * 1000).toISOString().slice(0, 10);
      await refusedWithNothingStored(
        id,
        900,
        made.code,
        `The discount code ${made.code} expired on ${day}. Pay the full price, or ask the member who gave it to you for another code.`,
      );
    } finally {
      clock.now = real;
    }
    await refusedWithNothingStored(
      id,
      900,
      'NO-SUCH-CODE',
      'There is no discount code NO-SUCH-CODE. Check its spelling with the member who gave it to you, or pay the full price.',
    );
    expect(await intentsFor(id)).toEqual([]);
  });

  it('refuses a code used as many times as it may be; the same checkout asked again counts once', async () => {
    const owner = await member();
    const made = await makeCode(owner, { code: codeText('ONCE'), percentOff: 10, maxRedemptions: 1 });
    const id = await product(1000);
    const checkoutId = randomUUID();
    const [first, again] = await Promise.all([
      call(getPaymentIntent, { body: { id, amount: 900, code: made.code, checkoutId } }),
      call(getPaymentIntent, { body: { id, amount: 900, code: made.code, checkoutId } }),
    ]);
    expect(first.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await read(keys.discountCode(made.code))).toMatchObject({ redeemed: 1 });
    await refusedWithNothingStored(
      id,
      900,
      made.code,
      `The discount code ${made.code} has been used as many times as it may be. Pay the full price, or ask the member who gave it to you for another code.`,
    );
    expect(await intentsFor(id)).toHaveLength(1);
  });

  it('holds the limit under concurrency: 20 checkouts at once on a code of 5 uses make 5 payments', async () => {
    const owner = await member();
    const made = await makeCode(owner, { code: codeText('RUSH'), amountOffCents: 100, maxRedemptions: 5 });
    const id = await product(1500);
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        call(getPaymentIntent, { body: { id, amount: 1400, code: made.code, checkoutId: randomUUID() } }),
      ),
    );
    expect(results.filter((result) => result.status === 200)).toHaveLength(5);
    const refused = results.filter((result) => result.status !== 200);
    expect(refused).toHaveLength(15);
    for (const result of refused) {
      expect(result.status).toBe(400);
      expect(String(result.body.message)).toContain('has been used as many times as it may be');
    }
    expect(await read(keys.discountCode(made.code))).toMatchObject({ redeemed: 5 });
    expect(await intentsFor(id)).toHaveLength(5);
  }, 60_000);
});
