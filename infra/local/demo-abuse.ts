import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { productIdFromSpuNo } from '@portal/shared/domain/csv-product';
import Stripe from 'stripe';
import { db, isConditionFailed, tableName } from '../../functions/src/adapters/dynamo-client';
import { dynamoOpenIntents } from '../../functions/src/adapters/payments/dynamo-open-intents';
import { dynamoProducts, getProduct } from '../../functions/src/adapters/products/dynamo-products';
import { dynamoSaleRecorder } from '../../functions/src/adapters/orders/dynamo-sale-recorder';
import { dynamoUsers } from '../../functions/src/adapters/auth/dynamo-users';
import { connectionOptions } from '../../functions/src/adapters/payments/stripe-gateway';
import { payments } from '../../functions/src/composition';
import { addOrder, recordPayment, type SaleDeps } from '../../functions/src/orders/record-sale';
import { createCheckoutPaymentIntent } from '../../functions/src/payments/checkout';
import { demoProducts } from './demo-catalogue';

/**
 * The demo of the money rules' abuse section (issue 27), seeded once per data folder after the
 * demo sales and the catalogue moves: the demo member buys a demo product through their own share
 * link with their own e-mail address, paid at the Stripe emulator and recorded as the webhook
 * records it; SELF_PURCHASE=review (the default) holds the commission for review, so the admin's
 * Payouts → Held for review shows it with why ("Bought through own link (same e-mail)"), and the
 * member sees "Held for review" on it. Without the emulator (your own Stripe key) the same sale is
 * an admin's order for the member's own address, which the rule holds the same way.
 */
export const DEMO_ABUSE_MARKER = { pk: 'DEMO#abuse', sk: 'DEMO' };

export type DemoAbuse =
  | { seeded: boolean; orderID: string; commissionId: string; status: string }
  | { seeded: false; reason: 'no-member' | 'no-product' };

export interface SeedDemoAbuseOptions {
  memberEmail: string;
  /** The Stripe emulator's URL; absent (your own Stripe key), the sale is an admin's order. */
  stripeApiUrl?: string | undefined;
  stripeSecretKey?: string;
  /** The product bought (tests); by default the first demo product still approved. */
  productId?: string;
  now?: () => number;
}

export async function seedDemoAbuse(options: SeedDemoAbuseOptions): Promise<DemoAbuse> {
  const marker = (
    await db().send(new GetCommand({ TableName: tableName(), Key: DEMO_ABUSE_MARKER, ConsistentRead: true }))
  ).Item;
  if (marker) {
    return {
      seeded: false,
      orderID: String(marker.orderID),
      commissionId: String(marker.commissionId),
      status: String(marker.status),
    };
  }
  const member = await dynamoUsers.findByEmail(options.memberEmail);
  if (!member) return { seeded: false, reason: 'no-member' };
  const shareCode = (await dynamoUsers.ensureShareCode(member)).shareCode ?? undefined;
  if (!shareCode) return { seeded: false, reason: 'no-member' };
  const product = await chooseProduct(options.productId);
  if (!product?.approved) return { seeded: false, reason: 'no-product' };
  const now = options.now ?? (() => Date.now());
  const deps: SaleDeps = { sales: dynamoSaleRecorder, products: { get: getProduct }, now };
  const unitCents = product.approved.dropshipping_price_us_cents;
  const buyer = {
    name: [member.first_name, member.last_name].filter(Boolean).join(' ') || 'Dana Member',
    email: member.email,
    address: { line1: '742 Evergreen Terrace', city: 'Springfield', state: 'IL', postal_code: '62704' },
  };

  let recorded;
  if (options.stripeApiUrl && options.stripeSecretKey) {
    const intent = await createCheckoutPaymentIntent(
      { products: dynamoProducts, gateway: payments, intents: dynamoOpenIntents, now },
      { id: product.id, amount: unitCents, qty: 1, ref: shareCode, checkoutId: randomUUID(), customer: buyer },
    );
    const stripe = new Stripe(options.stripeSecretKey, { ...connectionOptions(options.stripeApiUrl) });
    const paymentIntentId = intent.clientSecret.split('_secret_')[0]!;
    await stripe.paymentIntents.confirm(paymentIntentId, { payment_method: 'pm_card_bypassPending' });
    recorded = await recordPayment(deps, await payments.retrievePaymentIntent(paymentIntentId));
    if (!recorded) throw new Error(`The demo payment ${paymentIntentId} did not succeed.`);
  } else {
    recorded = await addOrder(deps, { product_id: product.id, qty: 1, ref: shareCode, customer: buyer });
  }
  const { order, commission } = recorded;
  const outcome = {
    orderID: order.orderID,
    commissionId: commission?.id ?? '',
    status: commission?.status ?? 'none',
  };
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...DEMO_ABUSE_MARKER, entity: 'DemoMarker', ...outcome },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
  }
  return { seeded: true, ...outcome };
}

async function chooseProduct(productId: string | undefined) {
  if (productId) return getProduct(productId);
  for (const demo of demoProducts()) {
    const product = await getProduct(productIdFromSpuNo(demo.spu_no));
    if (product?.status === 'approved' && product.approved) return product;
  }
  return undefined;
}

/** The start's line about it, or nothing on a later start. */
export function describeDemoAbuse(outcome: DemoAbuse): string | null {
  if (!('orderID' in outcome) || !outcome.seeded) return null;
  return `Seeded a self-purchase (order ${outcome.orderID}): its commission is held for review (Payouts → Held for review).`;
}
