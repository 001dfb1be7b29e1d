import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { handler as getPaymentIntent } from '../../functions/src/handlers/get-payment-intent';
import { sdk } from '../../infra/local/stripe/testing';
import { allItems, call } from './helpers';
import { product } from './sales-helpers';

/**
 * /api/getPaymentIntent through the real `stripe` SDK against the emulator the handler setup
 * starts. Public: no call here carries a token. The emulator's ledger (`GET /v1/payment_intents`)
 * shows what was created.
 */
const stripe = sdk(Number(new URL(inject('stripeApiUrl')).port), process.env.STRIPE_SECRET_KEY);

/** Every payment intent at the emulator whose metadata names this product. */
async function intentsFor(productId: string) {
  const all = await stripe.paymentIntents.list({ limit: 100 });
  return all.data.filter((intent) => intent.metadata.product_id === productId);
}

describe('/api/getPaymentIntent', () => {
  it('creates a USD intent for qty × the sell price, with the product, qty and share code in its metadata', async () => {
    const id = await product(1299);
    const result = await call(getPaymentIntent, { body: { id, amount: 3897, qty: 3, ref: 'jenny-42' } });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      clientSecret: expect.stringMatching(/^pi_\w+_secret_\w+$/),
      amount: 3897,
      currency: 'usd',
    });
    const [intent, ...others] = await intentsFor(id);
    expect(others).toEqual([]);
    expect(intent).toMatchObject({
      amount: 3897,
      currency: 'usd',
      status: 'requires_payment_method',
      client_secret: result.body.clientSecret,
      metadata: { product_id: id, qty: '3', ref: 'jenny-42', unit_amount: '1299' },
    });
  });

  it('takes qty 1 when none is given, and answers the same intent to the same checkout asked twice', async () => {
    const id = await product(2500);
    const checkoutId = randomUUID();
    const [first, second] = await Promise.all([
      call(getPaymentIntent, { body: { id, amount: 2500, checkoutId } }),
      call(getPaymentIntent, { body: { id, amount: 2500, checkoutId } }),
    ]);
    expect(first.status).toBe(200);
    expect(second.body).toEqual(first.body);
    const other = await call(getPaymentIntent, { body: { id, amount: 2500, checkoutId: randomUUID() } });
    expect(other.body.clientSecret).not.toBe(first.body.clientSecret);
    const intents = await intentsFor(id);
    expect(intents).toHaveLength(2);
    expect(intents.every((intent) => intent.metadata.qty === '1' && intent.metadata.ref === undefined)).toBe(true);
  });

  it('refuses an amount that is not the price × qty, naming amount in plain words, and creates nothing', async () => {
    const id = await product(1299);
    const before = await allItems();
    for (const amount of [1299, 3896, 3898]) {
      const result = await call(getPaymentIntent, { body: { id, amount, qty: 3 } });
      expect(result.status).toBe(400);
      expect(result.body.message).toBe('The price changed to $38.97. Review the order and try again.');
      expect(result.body.fields).toEqual({ amount: 'The price changed to $38.97. Review the order and try again.' });
    }
    expect(await intentsFor(id)).toEqual([]);
    expect(await allItems()).toEqual(before);
  });

  it('answers an unknown product, one never approved, and a banned one with 404 and a clear message', async () => {
    const unknown = await call(getPaymentIntent, { body: { id: 'f'.repeat(32), amount: 1000 } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('This product is not in the catalogue.');
    const inReview = await product(1000, 'review');
    expect((await call(getPaymentIntent, { body: { id: inReview, amount: 1000 } })).status).toBe(404);
    const banned = await product(1000, 'banned');
    const refused = await call(getPaymentIntent, { body: { id: banned, amount: 1000 } });
    expect(refused.status).toBe(404);
    expect(refused.body.message).toBe('This product is no longer available.');
    expect([...(await intentsFor(inReview)), ...(await intentsFor(banned))]).toEqual([]);
  });

  it('refuses a quantity outside 1 to 99, a bad share code, a fractional amount and unknown fields with 400', async () => {
    const id = await product(1000);
    const cases: [Record<string, unknown>, string][] = [
      [{ id, amount: 0, qty: 0 }, 'qty'],
      [{ id, amount: 100_000, qty: 100 }, 'qty'],
      [{ id, amount: 1500, qty: 1.5 }, 'qty'],
      [{ id, amount: 1000, ref: 'x'.repeat(65) }, 'ref'],
      [{ id, amount: 1000, ref: '<script>' }, 'ref'],
      [{ id, amount: 1000, checkoutId: 'short' }, 'checkoutId'],
      [{ id, amount: 10.5 }, 'amount'],
      [{ id, amount: '1000' }, 'amount'],
      [{ id, amount: 1000, currency: 'eur' }, 'currency'],
      [{ amount: 1000 }, 'id'],
    ];
    for (const [body, field] of cases) {
      const result = await call(getPaymentIntent, { body });
      expect([field, result.status]).toEqual([field, 400]);
      expect(Object.keys(result.body.fields as object)).toContain(field);
    }
    expect(await intentsFor(id)).toEqual([]);
  });

  it('refuses a total over what one card payment takes ($999,999.99) at qty, before Stripe', async () => {
    const id = await product(2_000_000);
    const result = await call(getPaymentIntent, { body: { id, amount: 99_999_999, qty: 50 } });
    expect(result.status).toBe(400);
    expect(Object.keys(result.body.fields as object)).toEqual(['qty']);
    expect(await intentsFor(id)).toEqual([]);
  });
});
