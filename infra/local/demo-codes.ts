import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { productIdFromSpuNo } from '@portal/shared/domain/csv-product';
import { discountCents } from '@portal/shared/domain/discount';
import Stripe from 'stripe';
import { db, isConditionFailed, tableName } from '../../functions/src/adapters/dynamo-client';
import { dynamoCodes } from '../../functions/src/adapters/codes/dynamo-codes';
import { dynamoSaleRecorder } from '../../functions/src/adapters/orders/dynamo-sale-recorder';
import { getProduct } from '../../functions/src/adapters/products/dynamo-products';
import { connectionOptions } from '../../functions/src/adapters/payments/stripe-gateway';
import { checkout, discountCodes, payments } from '../../functions/src/composition';
import { createCode, disableCode } from '../../functions/src/codes/codes';
import { recordPayment, type SaleDeps } from '../../functions/src/orders/record-sale';
import { createCheckoutPaymentIntent } from '../../functions/src/payments/checkout';
import { demoProducts } from './demo-catalogue';

/**
 * The demo of members' discount codes (issue 39), seeded once per data folder after the other
 * demo sales: the demo member's code DANA10 (10 % off, at most 20 uses) with three paid checkouts
 * of customers who typed it (the admin's Discount codes shows its uses, revenue and orders; the
 * member's My Account shows the code), and DANA5OFF ($5 off), turned off. Made at the Stripe
 * emulator only: with your own Stripe key nothing is seeded (the codes would be made at your account).
 */
export const DEMO_CODES_MARKER = { pk: 'DEMO#codes', sk: 'DEMO' };
export const DEMO_CODE = 'DANA10';
export const DEMO_DISABLED_CODE = 'DANA5OFF';

export type DemoCodes =
  { seeded: boolean; orders: string[] } | { seeded: false; reason: 'no-member' | 'no-product' | 'own-stripe' };

export async function seedDemoCodes(options: {
  memberEmail: string;
  stripeApiUrl?: string | undefined;
  stripeSecretKey?: string;
}): Promise<DemoCodes> {
  const marker = (
    await db().send(new GetCommand({ TableName: tableName(), Key: DEMO_CODES_MARKER, ConsistentRead: true }))
  ).Item;
  if (marker) return { seeded: false, orders: (marker.orders as string[] | undefined) ?? [] };
  if (!options.stripeApiUrl || !options.stripeSecretKey) return { seeded: false, reason: 'own-stripe' };
  const products = [];
  for (const demo of demoProducts()) {
    const product = await getProduct(productIdFromSpuNo(demo.spu_no));
    if (product?.status === 'approved' && product.approved) products.push(product);
    if (products.length === 3) break;
  }
  if (products.length === 0) return { seeded: false, reason: 'no-product' };
  if (!(await dynamoCodes.get(DEMO_CODE))) {
    try {
      await createCode(discountCodes, {
        memberEmail: options.memberEmail,
        code: DEMO_CODE,
        percentOff: 10,
        maxRedemptions: 20,
      });
    } catch (error) {
      if (error instanceof Error && /No member/.test(error.message)) return { seeded: false, reason: 'no-member' };
      throw error;
    }
  }
  if (!(await dynamoCodes.get(DEMO_DISABLED_CODE))) {
    await createCode(discountCodes, {
      memberEmail: options.memberEmail,
      code: DEMO_DISABLED_CODE,
      amountOffCents: 500,
    });
    await disableCode(discountCodes, DEMO_DISABLED_CODE);
  }
  const stripe = new Stripe(options.stripeSecretKey, { ...connectionOptions(options.stripeApiUrl) });
  const deps: SaleDeps = { sales: dynamoSaleRecorder, products: { get: getProduct }, now: () => Date.now() };
  const buyers = ['Noor Haddad', 'Lee Park', 'Ama Mensah'];
  const orders: string[] = [];
  for (const [index, name] of buyers.entries()) {
    const product = products[index % products.length]!;
    const listCents = product.approved!.dropshipping_price_us_cents;
    const paid = listCents - discountCents(listCents, { percentOff: 10, amountOffCents: null });
    const intent = await createCheckoutPaymentIntent(checkout, {
      id: product.id,
      amount: paid,
      qty: 1,
      code: DEMO_CODE,
      checkoutId: randomUUID(),
      customer: {
        name,
        email: `${name.split(' ')[0]!.toLowerCase()}@example.com`,
        address: { line1: `${String(10 + index)} Oak Street`, city: 'Springfield', state: 'IL', postal_code: '62704' },
      },
    });
    const paymentIntentId = intent.clientSecret.split('_secret_')[0]!;
    await stripe.paymentIntents.confirm(paymentIntentId, { payment_method: 'pm_card_bypassPending' });
    const recorded = await recordPayment(deps, await payments.retrievePaymentIntent(paymentIntentId));
    if (recorded) orders.push(recorded.order.orderID);
  }
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...DEMO_CODES_MARKER, entity: 'DemoMarker', orders },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
  }
  return { seeded: true, orders };
}

/** The start's line about it, or nothing on a later start. */
export function describeDemoCodes(outcome: DemoCodes): string | null {
  if (!outcome.seeded) return null;
  return `Seeded the demo member's discount code ${DEMO_CODE} with ${String(outcome.orders.length)} paid orders, and ${DEMO_DISABLED_CODE} turned off (Discount codes).`;
}
