import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../functions/src/adapters/dynamo-client';
import { handler as confirmCheckout } from '../../functions/src/handlers/confirm-checkout';
import { handler as addOrder } from '../../functions/src/handlers/add-order';
import { paymentOrderIds } from '../../functions/src/orders/record-sale';
import { keys } from '../../shared/src/db/table';
import { COUNTERS_KEY, earningsKey, item } from './commission-fixtures';
import { auth, call, tokenFor } from './helpers';
import { customer, deliver, member, paidCheckout, product, stripeAtEmulator, succeededEvent } from './sales-helpers';

/**
 * SELF_PURCHASE=no_commission (the settings are read once per container: this file is its own):
 * a member buying through their own link earns nothing, the commission recorded as cancelled at 0
 * with its reason, counted once and in no cents; the webhook's replays change nothing.
 */
process.env.SELF_PURCHASE = 'no_commission';
const stripe = stripeAtEmulator();
const admin = await tokenFor(true);

const read = async (key: { pk: string; sk: string }) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

describe('SELF_PURCHASE=no_commission', () => {
  it('records a self-purchase’s commission cancelled at 0 with its reason, counted once with no cents', async () => {
    const seller = await member();
    const id = await product(4000);
    const counters = (await item(COUNTERS_KEY))!;
    const intentId = await paidCheckout(stripe, id, 4000, 1, {
      ref: seller.shareCode,
      customer: { ...customer, email: seller.email.toUpperCase() },
    });
    const event = await succeededEvent(stripe, intentId);
    for (let delivery = 0; delivery < 3; delivery++) expect((await deliver(event)).status).toBe(200);
    expect((await call(confirmCheckout, { body: { paymentIntentId: intentId } })).status).toBe(200);

    const commission = await read(keys.commission(paymentOrderIds(intentId).commissionId));
    expect(commission).toMatchObject({
      status: 'cancelled',
      amountCents: 0,
      originalCents: 400,
      statusReason: 'No commission: bought through own link (same e-mail)',
    });
    // In no stage list: never sent, never paid.
    expect(commission).not.toHaveProperty('gsi2pk');
    const after = (await item(COUNTERS_KEY))!;
    expect(after.count).toBe(Number(counters.count) + 1);
    expect(after.totalCents).toBe(counters.totalCents);
    expect(after.toStripeCount).toBe(counters.toStripeCount);
    expect(await item(earningsKey(seller.id))).toMatchObject({ count: 1, totalCents: 0, processingCents: 0 });
  });

  it('gives nothing to a member paying with their own discount code (issue 39), counted once with no cents', async () => {
    const { handler: createDiscountCode } = await import('../../functions/src/handlers/create-discount-code');
    const { handler: getPaymentIntent } = await import('../../functions/src/handlers/get-payment-intent');
    const seller = await member();
    const code = `OWN${Date.now().toString(36).toUpperCase()}`;
    const made = await call(createDiscountCode, {
      body: { memberEmail: seller.email, code, percentOff: 10 },
      headers: auth(admin),
    });
    expect(made.status).toBe(200);
    const id = await product(4000);
    const created = await call(getPaymentIntent, {
      body: { id, amount: 3600, qty: 1, code, customer: { ...customer, email: seller.email } },
    });
    expect(created.status).toBe(200);
    const intentId = String(created.body.clientSecret).split('_secret_')[0]!;
    await stripe.paymentIntents.confirm(intentId, { payment_method: 'pm_card_visa' });
    expect((await call(confirmCheckout, { body: { paymentIntentId: intentId } })).status).toBe(200);
    expect(await read(keys.commission(paymentOrderIds(intentId).commissionId))).toMatchObject({
      memberId: seller.id,
      status: 'cancelled',
      amountCents: 0,
      // 10 % of the $36.00 paid after the code.
      originalCents: 360,
      statusReason: 'No commission: bought through own link (same e-mail)',
    });
    expect(await item(earningsKey(seller.id))).toMatchObject({ count: 1, totalCents: 0 });
  });

  it('applies to an admin’s order for the member’s own address too, and not to another buyer', async () => {
    const seller = await member();
    const id = await product(1500);
    const own = await call(addOrder, {
      body: { product_id: id, qty: 2, ref: seller.shareCode, customer: { ...customer, email: seller.email } },
      headers: auth(admin),
    });
    expect(own.status).toBe(200);
    expect(own.body.commission).toMatchObject({ status: 'cancelled', amount: 0, originalAmount: 3 });
    const other = await call(addOrder, {
      body: { product_id: id, qty: 1, ref: seller.shareCode, customer },
      headers: auth(admin),
    });
    expect(other.body.commission).toMatchObject({ status: 'waiting_for_fulfilment', amount: 1.5 });
  });
});
