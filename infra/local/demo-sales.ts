import { randomBytes, randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Customer } from '@portal/shared/api/customer';
import { productIdFromSpuNo } from '@portal/shared/domain/csv-product';
import Stripe from 'stripe';
import { db, isConditionFailed, tableName } from '../../functions/src/adapters/dynamo-client';
import { dynamoCommissionMoney } from '../../functions/src/adapters/commissions/dynamo-commission-money';
import { dynamoProducts, getProduct } from '../../functions/src/adapters/products/dynamo-products';
import { dynamoSaleRecorder } from '../../functions/src/adapters/orders/dynamo-sale-recorder';
import { dynamoSales } from '../../functions/src/adapters/orders/dynamo-sales';
import { dynamoUsers } from '../../functions/src/adapters/auth/dynamo-users';
import { connectionOptions } from '../../functions/src/adapters/payments/stripe-gateway';
import {
  addCommissionToStripe,
  payCommissionToMember,
  type MoneyDeps,
} from '../../functions/src/commissions/money-movement';
import { payments } from '../../functions/src/composition';
import { markOrder } from '../../functions/src/orders/manage';
import { dynamoRefunds } from '../../functions/src/adapters/commissions/dynamo-refunds';
import { refundOrder, type RefundDeps } from '../../functions/src/commissions/refunds';
import { holdMs, moneySettings } from '../../functions/src/config/money-settings';
import { addOrder, recordPayment, type SaleDeps } from '../../functions/src/orders/record-sale';
import type { OrderStep } from '../../functions/src/orders/sales-store';
import { createCheckoutPaymentIntent } from '../../functions/src/payments/checkout';
import type { PayoutAccountForm } from '../../functions/src/payments/payouts';
import { ensureAccount } from './accounts';
import { demoProducts } from './demo-catalogue';
import { DEMO_PAYOUT_FORM, makePayable } from './demo-member';

/**
 * The demo sales `npm start` seeds once, after the demo catalogue and the demo member: 36 orders
 * over the last 60 days, in every state (not ordered, ordered, shipped, fulfilled), and their
 * commissions in every state (in processing, in the member's Stripe balance, paid), for the demo
 * member and four more demo members, all through the real logic with an injected clock:
 *
 * - checkout orders are real payments at the emulator: a payment intent made by the checkout's
 *   createCheckoutPaymentIntent, confirmed with Stripe's test card `pm_card_bypassPending`
 *   (4000 0000 0000 0077: its funds are available at once, where an ordinary card's are pending
 *   for days, so the seeded payouts have funds), then recorded by recordPayment, the webhook's
 *   path, with its charge. A checkout's commission is transferred from its charge
 *   (`source_transaction`); a few orders are an admin's addOrder (no payment), whose transfers
 *   draw on the platform's available balance those payments filled;
 * - marks by markOrder (orders/manage.ts); transfers and payouts by addCommissionToStripe and
 *   payCommissionToMember (commissions/money-movement.ts) through the Stripe gateway, so the
 *   emulator's transfers and payouts agree with the table.
 *
 * The demo members are made as accounts.ts makes accounts (a random password nobody is told:
 * they only own sales; log in as member@example.com) and payable as demo-member.ts makes the demo
 * member payable.
 *
 * Once: the marker `DEMO#sales` is put (conditionally) before the first sale and completed after
 * the last. A later start finds it and seeds nothing; a marker left half-way (a seed that
 * stopped) is reported, not repeated (npm run reset seeds again). When the emulator's state was
 * wiped while the table was kept, the table's transfers no longer exist there: that is reported
 * too, and nothing is moved again (the demo member is given a new payout account by
 * demo-member.ts; npm run reset makes table and emulator agree again).
 *
 * With the developer's own STRIPE_SECRET_KEY (api.stripe.com) nothing touches Stripe: every order
 * is an admin's addOrder, and no commission's money moves (they all stay in processing).
 */

export const DEMO_SALES_MARKER = { pk: 'DEMO#sales', sk: 'DEMO' };
const DAY = 24 * 3600 * 1000;
const HOUR = 3600 * 1000;

export const DEMO_ORDERS = 36;
/** Orders oldest first: [0, 20) fulfilled, [20, 25) shipped, [25, 30) ordered, [30, 36) not ordered. */
const stageOf = (index: number): OrderStep | null =>
  index < 20 ? 'fulfilled' : index < 25 ? 'shipped' : index < 30 ? 'ordered' : null;
/** Of the fulfilled ones: the oldest 8 paid, the next 6 in Stripe, the rest left in processing. */
const moneyOf = (index: number): 'paid' | 'in_stripe' | null => (index < 8 ? 'paid' : index < 14 ? 'in_stripe' : null);
const STEPS: readonly OrderStep[] = ['ordered', 'shipped', 'fulfilled'];
/** Fulfilled orders fulfilled 3, 6 and 9 days ago: with the default 14-day hold, their commissions are on hold. */
const RECENTLY_FULFILLED = new Set([17, 18, 19]);
/** Orders refunded after the money moved: in full from paid, in Stripe and available; one in Stripe in part. */
const DEMO_REFUNDS: readonly [number, { from: 'paid' | 'in_stripe' | 'available'; part?: true }][] = [
  // Other sellers' orders: the demo member keeps what they have earned, over the payout minimum, so
  // they can withdraw (demo-payouts.ts).
  [3, { from: 'paid' }],
  [13, { from: 'in_stripe' }],
  [15, { from: 'available' }],
  [9, { from: 'in_stripe', part: true }],
];
/** A couple of phone orders an admin recorded. */
const ADMIN_ORDERS = new Set([5, 17, 27, 33]);
/** Checkouts through no member's link: no commission. */
const NO_REF = new Set([22, 31]);
/** Who sold which order: the demo member most, then the others. */
const SELLERS = [0, 1, 0, 2, 3, 0, 4, 1, 0, 2, 3, 0];

const form = (first: string, last: string, street: string, city: string, state: string, zip: string) =>
  ({
    ...DEMO_PAYOUT_FORM,
    social_profile: `https://social.example.com/${first.toLowerCase()}-${last.toLowerCase()}`,
    first_name: first,
    last_name: last,
    street_address_1: street,
    address_unit: '',
    city,
    state,
    zipcode: zip,
  }) satisfies PayoutAccountForm;

/** The four demo members beside member@example.com. */
export const DEMO_SELLERS: readonly { email: string; form: PayoutAccountForm }[] = [
  { email: 'maya.patel@example.com', form: form('Maya', 'Patel', '1200 Pearl St', 'Boulder', 'CO', '80302') },
  { email: 'luis.ortega@example.com', form: form('Luis', 'Ortega', '300 Congress Ave', 'Austin', 'TX', '78701') },
  { email: 'grace.kim@example.com', form: form('Grace', 'Kim', '85 Pike St', 'Seattle', 'WA', '98101') },
  { email: 'sam.whitfield@example.com', form: form('Sam', 'Whitfield', '40 Main St', 'Burlington', 'VT', '05401') },
];

const BUYERS: readonly Customer[] = [
  ['Olivia Brooks', '18 Elm St', 'Portland', 'ME', '04101'],
  ['Ethan Ward', '2210 Grand Ave', 'Des Moines', 'IA', '50312'],
  ['Ava Nguyen', '77 Market St', 'San Jose', 'CA', '95113'],
  ['Noah Fischer', '415 Walnut St', 'Cincinnati', 'OH', '45202'],
  ['Mia Romero', '9 Canyon Rd', 'Santa Fe', 'NM', '87501'],
  ['Liam Carter', '1600 Broadway', 'Nashville', 'TN', '37203'],
  ['Zoe Hughes', '52 Chapel St', 'New Haven', 'CT', '06510'],
  ['Caleb Price', '310 N Tryon St', 'Charlotte', 'NC', '28202'],
  ['Harper Reed', '1 Lake Shore Dr', 'Madison', 'WI', '53703'],
  ['Isaac Moreno', '640 S Mill Ave', 'Tempe', 'AZ', '85281'],
  ['Chloe Bennett', '25 Beacon St', 'Boston', 'MA', '02108'],
  ['Owen Foster', '800 Main St', 'Kansas City', 'MO', '64105'],
].map(([name, line1, city, state, postal_code]) => ({
  name: name!,
  email: `${name!.toLowerCase().replace(' ', '.')}@example.com`,
  address: { line1: line1!, city: city!, state: state!, postal_code: postal_code! },
}));

export interface DemoSalesCounts {
  orders: number;
  commissions: number;
  processing: number;
  inStripe: number;
  paid: number;
  /** Refunded after the money moved (issue 27): in full → cancelled, reversed, clawed back; one in part. */
  cancelled: number;
  reversed: number;
  clawedBack: number;
  refundedOrders: number;
}

export type DemoSalesOutcome =
  | ({ seeded: true; moneyMoved: boolean } & DemoSalesCounts)
  | { seeded: false; reason: 'present' | 'half-seeded' | 'no-products' | 'no-member' }
  | { seeded: false; reason: 'emulator-wiped'; transferId: string };

export interface SeedDemoSalesOptions {
  /** The demo member (member@example.com), who sells the most. */
  memberEmail: string;
  /** STRIPE_API_URL: the emulator. Undefined means the developer's own key: no Stripe call at all. */
  stripeApiUrl: string | undefined;
  stripeSecretKey: string;
  now?: () => Date;
}

/** Runs `work` over `items`, `width` at a time. */
async function inBatches<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  for (let start = 0; start < items.length; start += width) {
    await Promise.all(items.slice(start, start + width).map(work));
  }
}

/** Seeds the demo sales unless they were seeded before. */
export async function seedDemoSales(options: SeedDemoSalesOptions): Promise<DemoSalesOutcome> {
  const marker = await db().send(
    new GetCommand({ TableName: tableName(), Key: DEMO_SALES_MARKER, ConsistentRead: true }),
  );
  if (marker.Item) return afterSeed(marker.Item, options);

  const emulator = options.stripeApiUrl;
  const demoMember = await dynamoUsers.findByEmail(options.memberEmail);
  if (!demoMember) return { seeded: false, reason: 'no-member' };
  const products = (
    await Promise.all(demoProducts().map((product) => getProduct(productIdFromSpuNo(product.spu_no))))
  ).filter((product) => product?.approved && product.status !== 'banned');
  if (products.length === 0) return { seeded: false, reason: 'no-products' };

  // Claim the seed: two starts on one data folder seed once.
  const nowMs = (options.now ?? (() => new Date()))().getTime();
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...DEMO_SALES_MARKER, entity: 'DemoSeed', state: 'seeding', startedAt: new Date(nowMs).toISOString() },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  } catch (error) {
    if (isConditionFailed(error)) return { seeded: false, reason: 'present' };
    throw error;
  }

  // The sellers: the demo member (made payable by demo-member.ts) and four more, payable here.
  const sellers = [
    demoMember,
    ...(await Promise.all(
      DEMO_SELLERS.map(async (seller) => {
        await ensureAccount(seller.email, randomBytes(24).toString('base64url'), false);
        const user = (await dynamoUsers.findByEmail(seller.email))!;
        if (emulator) {
          await makePayable(user, seller.form, { stripeApiUrl: emulator, stripeSecretKey: options.stripeSecretKey });
        }
        return user;
      }),
    )),
  ];
  const codes = await Promise.all(sellers.map(async (user) => (await dynamoUsers.ensureShareCode(user)).shareCode!));

  const stripe = emulator ? new Stripe(options.stripeSecretKey, { ...connectionOptions(emulator) }) : undefined;
  const start = nowMs - 60 * DAY;
  const latest = nowMs - 5 * 60 * 1000;
  const hold = holdMs(moneySettings());
  const at = (time: number) => Math.min(time, latest);
  const counts: DemoSalesCounts = {
    orders: 0,
    commissions: 0,
    processing: 0,
    inStripe: 0,
    paid: 0,
    cancelled: 0,
    reversed: 0,
    clawedBack: 0,
    refundedOrders: 0,
  };
  const moved = new Map<number, { orderId: string; money: 'paid' | 'in_stripe' | 'available' }>();
  let firstTransferId: string | undefined;

  await inBatches([...Array(DEMO_ORDERS).keys()], 12, async (index) => {
    // Spread over the last 60 days, oldest first, at daytime hours that vary.
    const created = start + Math.round((index * 57 * DAY) / (DEMO_ORDERS - 1)) + ((index * 7) % 10) * HOUR;
    const product = products[(index * 7) % products.length]!;
    const qty = index % 5 === 0 ? 2 : index % 11 === 3 ? 3 : 1;
    const customer = BUYERS[index % BUYERS.length]!;
    const ref = NO_REF.has(index) ? undefined : codes[SELLERS[index % SELLERS.length]!];
    const deps: SaleDeps = { sales: dynamoSaleRecorder, products: { get: getProduct }, now: () => created };
    const unitCents = product.approved!.dropshipping_price_us_cents;

    let recorded;
    if (stripe && !ADMIN_ORDERS.has(index)) {
      recorded = await checkout(stripe, deps, product.id, unitCents, qty, ref, customer);
    } else {
      // An admin's phone order (and, with no emulator, every order): it must name a member.
      recorded = await addOrder(deps, { product_id: product.id, qty, ref: ref ?? codes[0]!, customer });
    }
    const { order, commission } = recorded;

    const stage = stageOf(index);
    const steps = stage ? STEPS.slice(0, STEPS.indexOf(stage) + 1) : [];
    const afterDays: Record<OrderStep, number> = { ordered: 1, shipped: 3, fulfilled: 7 };
    // The last fulfilled orders arrived only days ago: their commissions show on hold (the hold
    // is COMMISSION_HOLD_DAYS, as the functions read it); the older ones are available.
    const markedAt = (step: OrderStep) =>
      step === 'fulfilled' && RECENTLY_FULFILLED.has(index)
        ? at(latest - (index - 16) * 3 * DAY)
        : at(created + afterDays[step] * DAY + 2 * HOUR);
    let fulfilledAt = 0;
    for (const step of steps) {
      fulfilledAt = markedAt(step);
      await markOrder(dynamoSales, order.id, step, fulfilledAt, undefined, hold);
    }

    counts.orders++;
    if (!commission) return;
    counts.commissions++;
    // Sent a day after its hold ends, paid three days later; a hold too long for that leaves it in processing.
    const sendAt = fulfilledAt + hold + DAY;
    const money = stripe && stage === 'fulfilled' && sendAt + 3 * DAY <= latest ? moneyOf(index) : null;
    if (money) {
      const moved: MoneyDeps = { store: dynamoCommissionMoney, gateway: payments, now: () => sendAt };
      const sent = await addCommissionToStripe(moved, commission.id);
      if (money === 'paid') await payCommissionToMember({ ...moved, now: () => sendAt + 3 * DAY }, commission.id);
      firstTransferId ??= (await dynamoCommissionMoney.get(sent.id))?.transferId ?? undefined;
    }
    if (money === 'paid') counts.paid++;
    else if (money === 'in_stripe') counts.inStripe++;
    else counts.processing++;
    if (order.paymentIntentId && stage === 'fulfilled') {
      moved.set(index, { orderId: order.id, money: money ?? 'available' });
    }
  });

  // Refunds through the admin's path (commissions/refunds.ts, the emulator's refunds and reversals):
  // a paid commission clawed back, one in Stripe reversed, one not sent cancelled, one reduced in part.
  if (stripe) {
    const refundDeps: RefundDeps = { store: dynamoRefunds, gateway: payments, now: () => latest };
    for (const [index, plan] of DEMO_REFUNDS) {
      const sale = moved.get(index);
      if (!sale || sale.money !== plan.from) continue;
      const order = (await dynamoRefunds.getOrder(sale.orderId))!;
      await refundOrder(refundDeps, {
        id: sale.orderId,
        reason: 'requested_by_customer',
        ...(plan.part ? { amountCents: Math.round(order.totalCents / 3) } : {}),
      });
      counts.refundedOrders++;
      if (plan.part) continue;
      if (plan.from === 'paid') {
        counts.paid--;
        counts.processing++;
        counts.clawedBack++;
      } else if (plan.from === 'in_stripe') {
        counts.inStripe--;
        counts.processing++;
        counts.reversed++;
      } else counts.cancelled++;
    }
  }

  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: DEMO_SALES_MARKER,
      UpdateExpression: 'SET #state = :done, seededAt = :at, counts = :counts, transferId = :transfer',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: {
        ':done': 'done',
        ':at': new Date().toISOString(),
        ':counts': counts,
        ':transfer': firstTransferId ?? null,
      },
    }),
  );
  return { seeded: true, moneyMoved: Boolean(stripe), ...counts };
}

/** A checkout as the customer's page makes it: the intent, the card, then the webhook's recording. */
async function checkout(
  stripe: Stripe,
  deps: SaleDeps,
  productId: string,
  unitCents: number,
  qty: number,
  ref: string | undefined,
  customer: Customer,
) {
  const intent = await createCheckoutPaymentIntent(
    { products: dynamoProducts, gateway: payments },
    { id: productId, amount: unitCents * qty, qty, ref, checkoutId: randomUUID(), customer },
  );
  const paymentIntentId = intent.clientSecret.split('_secret_')[0]!;
  await stripe.paymentIntents.confirm(paymentIntentId, { payment_method: 'pm_card_bypassPending' });
  const recorded = await recordPayment(deps, await payments.retrievePaymentIntent(paymentIntentId));
  if (!recorded) throw new Error(`The demo payment ${paymentIntentId} did not succeed.`);
  return recorded;
}

/** A later start: nothing is seeded; says why when the marker or the emulator is not as left. */
async function afterSeed(item: Record<string, unknown>, options: SeedDemoSalesOptions): Promise<DemoSalesOutcome> {
  if (item.state !== 'done') return { seeded: false, reason: 'half-seeded' };
  const transferId = typeof item.transferId === 'string' ? item.transferId : undefined;
  if (transferId && options.stripeApiUrl) {
    const stripe = new Stripe(options.stripeSecretKey, { ...connectionOptions(options.stripeApiUrl) });
    try {
      await stripe.transfers.retrieve(transferId);
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) {
        return { seeded: false, reason: 'emulator-wiped', transferId };
      }
      throw error;
    }
  }
  return { seeded: false, reason: 'present' };
}

/** The one line `npm start` prints about the demo sales. */
export function describeDemoSales(outcome: DemoSalesOutcome): string | undefined {
  if (outcome.seeded) {
    const refunds = outcome.refundedOrders
      ? ` ${outcome.refundedOrders} orders refunded (${outcome.cancelled} commission cancelled, ${outcome.reversed} reversed, ${outcome.clawedBack} clawed back, one reduced).`
      : '';
    const line = `Demo sales: ${outcome.orders} orders, ${outcome.commissions} commissions (${outcome.processing} in processing, ${outcome.inStripe} in Stripe, ${outcome.paid} paid).${refunds}`;
    return outcome.moneyMoved
      ? line
      : `${line} No money was moved: STRIPE_SECRET_KEY is your own key at api.stripe.com, and moving it would create transfers in your Stripe account.`;
  }
  switch (outcome.reason) {
    case 'half-seeded':
      return 'The demo sales were seeded only in part (an earlier start stopped while seeding): npm run reset to seed them again.';
    case 'emulator-wiped':
      return `The Stripe emulator no longer holds the demo sales' transfers (its state was cleared, the table was not): the commissions sent to Stripe or paid name transfers and payouts it does not know. Nothing was moved again; npm run reset seeds both afresh.`;
    case 'no-products':
      return 'The demo sales are not seeded: the demo catalogue has no approved product.';
    default:
      return undefined;
  }
}
