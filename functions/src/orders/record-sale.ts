import { randomBytes } from 'node:crypto';
import type { Customer } from '@portal/shared/api/customer';
import { CROCKFORD_ALPHABET, randomCrockford } from '@portal/shared/domain/crockford';
import { sha256Hex } from '@portal/shared/domain/sha256';
import { youMakeCents } from '@portal/shared/domain/money';
import {
  SPEC_DEFAULT_RULE,
  describeRate,
  describeScope,
  ruleCommissionCents,
  type CommissionRule,
} from '@portal/shared/domain/commission-rules';
import { loadLogger } from '../config/logger';
import { DomainError, badRequest, conflict } from '../errors';
import type { PaymentGateway, PaymentState } from '../payments/payment-gateway';
import { DISCOUNT_CENTS_METADATA, PROMOTION_CODE_METADATA } from '../payments/checkout-metadata';
import type { ProductRepository } from '../products/product-store';
import type { CommissionRecord, CommissionRuleUsed, OrderRecord, RecordOutcome, SalesStore } from './sales-store';
import { shownPictures } from '../products/present';
import { VISIT_METADATA } from '../payments/checkout-metadata';
import {
  bannedBeforePayment,
  isOffSale,
  selfPurchaseNoCommission,
  selfPurchaseOf,
  selfPurchaseReview,
  type HeldFor,
} from './abuse';

export interface SaleDeps {
  sales: Pick<SalesStore, 'memberOfShareCode' | 'recordSale' | 'orderOfPayment'>;
  products: Pick<ProductRepository, 'get'>;
  now: () => number;
  /**
   * After a sale is recorded, or found recorded by a second report of its payment: the mails that go
   * with it (composition.ts wires notifications/mails.ts; each is sent once per order).
   */
  recorded?: (order: OrderRecord) => Promise<unknown>;
  /**
   * SELF_PURCHASE (config/money-settings.ts): a member buying through their own link earns nothing
   * (`no_commission`) or their commission is held for an admin's review (`review`, the default).
   */
  selfPurchase?: () => 'no_commission' | 'review';
  /**
   * The commission rules in force (rules/programme.ts saleRulesOf, issue 39): asked when the sale
   * is recorded, beside the product and the member (not after them; the programme's version is read
   * and the rules read only when the container holds another version's, decision 0480), then asked
   * for the member's rule of the product; absent: the spec's 10 % (SPEC_DEFAULT_RULE).
   */
  rules?: {
    inForce(): Promise<(memberId: string, productId: string, brand: string) => Promise<CommissionRule>>;
  };
}

export interface ConfirmDeps extends SaleDeps {
  gateway: Pick<PaymentGateway, 'retrievePaymentIntent'>;
}

/** One sale as its caller knows it: the price is what was (or will be) paid, in integer cents. */
export interface Sale {
  productId: string;
  qty: number;
  unitCents: number;
  totalCents: number;
  /** The share code the sale came through, if any; an unknown code sells with no commission. */
  ref: string | undefined;
  customer: Customer;
  source: 'checkout' | 'admin';
  paymentIntentId: string | null;
  /** The payment's charge (a checkout's), which funds the commission's transfer. */
  chargeId?: string | null;
  /** The payment intent's metadata (a checkout's): it says whether the member's own session made it. */
  metadata?: Record<string, string>;
  /**
   * The member's discount code the customer paid with (issue 39): `totalCents` is what was paid
   * after `cents` off, and `ref` is the code's member (a code beats a link, payments/checkout.ts).
   */
  discount?: { code: string; cents: number };
}

/** A buyer nobody named: the order keeps empty fields rather than invented ones. */
export const UNKNOWN_CUSTOMER: Customer = {
  name: '',
  email: '',
  address: { line1: '', city: '', state: '', postal_code: '' },
};

/**
 * The member's commission on a sale: 10 % of the unit sell price, to the cent rounded half up
 * (`youMakeCents`, the "You Make" members see on the product), times the quantity. Rounding per
 * unit, then multiplying, makes the commission exactly qty × what the member was shown.
 */
export const commissionCents = (unitCents: number, qty: number): number => youMakeCents(unitCents) * qty;

/** The rule as a commission keeps it (sales-store.ts CommissionRuleUsed). */
export function ruleUsed(rule: CommissionRule): CommissionRuleUsed {
  return {
    id: rule.id,
    scope: rule.scope,
    value: rule.value,
    rate: rule.rate,
    ...(rule.minCents !== undefined ? { minCents: rule.minCents } : {}),
    ...(rule.maxCents !== undefined ? { maxCents: rule.maxCents } : {}),
    text: `${describeRate(rule)} for ${describeScope(rule, { product: rule.name, group: rule.name })}`,
  };
}

/**
 * What a sale's commission is computed on: the price per unit and the quantity, or with a discount
 * code what the customer paid for the goods, as one amount (the discount is per order, so the paid
 * price per unit need not be whole cents). The rate applied to it is the commission rule's.
 */
export function commissionBase(sale: Pick<Sale, 'unitCents' | 'qty' | 'totalCents' | 'discount'>): {
  unitCents: number;
  qty: number;
} {
  return sale.discount && sale.discount.cents > 0
    ? { unitCents: sale.totalCents, qty: 1 }
    : { unitCents: sale.unitCents, qty: sale.qty };
}

/**
 * The order of a card payment has ids made from the payment's: whoever records it (the webhook,
 * the browser's confirmCheckout, a retry of either) writes the same order, and the browser can
 * name its order number before the order is written (confirmCheckout, when its write did not go
 * through, leaves it to the webhook, which Stripe delivers until it succeeds).
 */
export function paymentOrderIds(paymentIntentId: string): { id: string; orderID: string; commissionId: string } {
  const digest = sha256Hex(`order:${paymentIntentId}`);
  let code = '';
  for (let index = 0; index < 8; index++) {
    code += CROCKFORD_ALPHABET[parseInt(digest.slice(32 + index * 2, 34 + index * 2), 16) & 31];
  }
  return {
    id: digest.slice(0, 32),
    orderID: `RP-${code}`,
    commissionId: sha256Hex(`commission:${paymentIntentId}`).slice(0, 32),
  };
}

/** The counted visit the payment's metadata names (set by our server only: payments/checkout.ts). */
function visitOf(metadata: Record<string, string> | undefined): { visitId?: string } {
  const visitId = metadata?.[VISIT_METADATA];
  return visitId && /^[0-9a-f]{32}$/.test(visitId) ? { visitId } : {};
}

/** A share code as links carry it: Crockford base32 reads the same in either case. */
const normalizeCode = (ref: string): string => ref.trim().toUpperCase();

/**
 * Records a sale: the order (not yet ordered), the payment's claim (a checkout: one order per
 * payment, whoever reports it first), the member's commission when `ref` names one, the counters
 * and the member's earnings, in ONE transaction (SalesStore.recordSale).
 */
export async function recordSale(deps: SaleDeps, sale: Sale): Promise<RecordOutcome> {
  // The programme is read with the product and the member, not after them: a sale through a link
  // waits for one round of reads before its rule is known (the member's groups only when a group
  // rule could decide: saleRulesOf).
  const [product, member, ruleOf] = await Promise.all([
    deps.products.get(sale.productId),
    sale.ref ? deps.sales.memberOfShareCode(normalizeCode(sale.ref)) : Promise.resolve(undefined),
    sale.ref && deps.rules ? deps.rules.inForce() : Promise.resolve(undefined),
  ]);
  // What the customer bought: the approved values (a checkout of a product banned since still
  // records what was paid for).
  const content = product?.approved ?? product?.current;
  const createdAt = new Date(deps.now()).toISOString();
  const fromPayment = sale.paymentIntentId ? paymentOrderIds(sale.paymentIntentId) : undefined;
  const id = fromPayment?.id ?? randomBytes(16).toString('hex');
  const commissionId = member ? (fromPayment?.commissionId ?? randomBytes(16).toString('hex')) : null;
  const order: OrderRecord = {
    id,
    orderID: fromPayment?.orderID ?? `RP-${randomCrockford(8)}`,
    qty: sale.qty,
    product_id: sale.productId,
    product_name: content?.product_name ?? '',
    brand: content?.brand ?? '',
    // Our copy of the first picture when it is hosted (issue 28), else the supplier's address.
    product_image: content ? (shownPictures(content).images[0] ?? null) : null,
    spu_no: content?.spu_no ?? '',
    product_url: content?.url ?? '',
    unitCents: sale.unitCents,
    totalCents: sale.totalCents,
    customer: sale.customer,
    memberId: member?.id ?? null,
    memberEmail: member?.email ?? null,
    source: sale.source,
    paymentIntentId: sale.paymentIntentId,
    ...(sale.chargeId ? { chargeId: sale.chargeId } : {}),
    ...visitOf(sale.metadata),
    commissionId,
    status: 'not_ordered',
    createdAt,
    ...(sale.discount ? { discountCode: sale.discount.code, discountCents: sale.discount.cents } : {}),
  };
  // Paid for a product banned or withdrawn before the payment (a confirm that beat the cancel):
  // recorded, since the customer paid, and flagged for the admin rather than credited.
  const productStatus = product?.status;
  const offSale = sale.source === 'checkout' && isOffSale(productStatus) ? productStatus : undefined;
  if (offSale) order.flag = bannedBeforePayment(offSale);
  // The rule in force when the sale is recorded (issue 39): its amount, and the rule kept with it.
  const rule =
    member && commissionId
      ? ((await ruleOf?.(member.id, sale.productId, order.brand)) ?? SPEC_DEFAULT_RULE)
      : SPEC_DEFAULT_RULE;
  // On what the customer paid for the goods (a discount code's price: commissionBase); a fixed
  // amount is per unit sold, whatever the price.
  const base = rule.rate.kind === 'fixed' ? { unitCents: sale.unitCents, qty: sale.qty } : commissionBase(sale);
  const earned = ruleCommissionCents(rule, base.unitCents, base.qty);
  const commission: CommissionRecord | null =
    member && commissionId
      ? {
          id: commissionId,
          memberId: member.id,
          memberEmail: member.email,
          orderId: id,
          orderID: order.orderID,
          product_id: sale.productId,
          product_name: order.product_name,
          amountCents: earned,
          status: 'order_open',
          transferId: null,
          ...(sale.chargeId ? { chargeId: sale.chargeId } : {}),
          payoutId: null,
          payoutFailure: null,
          createdAt,
          updatedAt: createdAt,
          ...abuseHold(deps, sale, member.email, offSale, earned),
          rule: ruleUsed(rule),
        }
      : null;
  return deps.sales.recordSale(order, commission);
}

/**
 * The commission's state at its sale when a money rule of abuse applies (orders/abuse.ts): held for
 * review (`review`, held from `order_open`, with its reason and `heldFor`), or with
 * SELF_PURCHASE=no_commission a self-purchase's commission cancelled at 0 (its amount kept as
 * `originalCents`). Nothing when none applies.
 */
function abuseHold(
  deps: SaleDeps,
  sale: Sale,
  memberEmail: string,
  offSale: 'banned' | 'withdrawn' | undefined,
  earned: number,
): Partial<CommissionRecord> {
  const held = (heldFor: HeldFor, reason: string): Partial<CommissionRecord> => ({
    status: 'review',
    heldFrom: 'order_open',
    heldFor,
    statusReason: reason,
  });
  if (offSale) return held('banned_product', bannedBeforePayment(offSale));
  const how = selfPurchaseOf(memberEmail, sale.customer.email, sale.metadata);
  if (!how) return {};
  if ((deps.selfPurchase?.() ?? 'review') === 'review') return held('self_purchase', selfPurchaseReview(how));
  return {
    status: 'cancelled',
    amountCents: 0,
    originalCents: earned,
    statusReason: selfPurchaseNoCommission(how),
  };
}

/** The buyer of a paid checkout: the form's (on the intent's shipping and metadata), else what Stripe has. */
function customerOf(payment: PaymentState): Customer {
  const shipping = payment.shipping;
  return {
    name: shipping?.name ?? payment.metadata.customer_name ?? '',
    email: payment.receiptEmail ?? payment.metadata.customer_email ?? '',
    address: shipping
      ? {
          line1: shipping.address.line1,
          ...(shipping.address.line2 ? { line2: shipping.address.line2 } : {}),
          city: shipping.address.city,
          state: shipping.address.state,
          postal_code: shipping.address.postalCode,
        }
      : UNKNOWN_CUSTOMER.address,
  };
}

/** The discount code a checkout's metadata names (payments/checkout.ts), with the cents it took off. */
function discountOf(metadata: Record<string, string>): Pick<Sale, 'discount'> {
  const code = metadata[PROMOTION_CODE_METADATA];
  const cents = Number(metadata[DISCOUNT_CENTS_METADATA]);
  if (!code || !Number.isSafeInteger(cents) || cents < 0) return {};
  return { discount: { code, cents } };
}

const positiveInt = (text: string | undefined): number | undefined => {
  const value = Number(text);
  return text !== undefined && Number.isSafeInteger(value) && value > 0 ? value : undefined;
};

/**
 * A succeeded card payment of a checkout (getPaymentIntent's metadata names the product, qty,
 * unit price and share code): its order, recorded once however many times the webhook and the
 * browser report it. A payment without our metadata (not a checkout of ours) records nothing.
 */
export async function recordPayment(deps: SaleDeps, payment: PaymentState): Promise<RecordOutcome | undefined> {
  const productId = payment.metadata.product_id;
  const qty = positiveInt(payment.metadata.qty);
  if (payment.status !== 'succeeded' || !productId || !qty) return undefined;
  const existing = await deps.sales.orderOfPayment(payment.id);
  if (existing) {
    // A second report: the mails go once, so this one sends what a first report that died did not.
    await deps.recorded?.(existing);
    return { outcome: 'payment-recorded', order: existing, commission: null };
  }
  const recorded = await recordSale(deps, {
    productId,
    qty,
    unitCents: positiveInt(payment.metadata.unit_amount) ?? Math.round(payment.amountCents / qty),
    totalCents: payment.amountCents,
    ref: payment.metadata.ref,
    customer: customerOf(payment),
    source: 'checkout',
    paymentIntentId: payment.id,
    chargeId: payment.chargeId,
    metadata: payment.metadata,
    ...discountOf(payment.metadata),
  });
  await deps.recorded?.(recorded.order);
  return recorded;
}

export const NOT_PAID = 'This payment has not gone through. Finish paying with your card, or try another card.';
export const NO_SUCH_PAYMENT = 'There is no checkout payment with this id.';

/**
 * The browser reports its payment: checked at Stripe, never trusted; recorded if it succeeded. A
 * customer who has paid is never told to try again: when the write does not go through (DynamoDB
 * kept cancelling it, or did not answer), the answer is the order as the payment makes it (its
 * number is made from the payment's id) and the `payment_intent.succeeded` webhook records it,
 * Stripe delivering that event until it is recorded.
 */
export async function confirmCheckout(deps: ConfirmDeps, paymentIntentId: string) {
  const payment = await deps.gateway.retrievePaymentIntent(paymentIntentId);
  if (!payment.metadata.product_id) {
    throw new DomainError('not-found', NO_SUCH_PAYMENT, { fields: { paymentIntentId: NO_SUCH_PAYMENT } });
  }
  if (payment.status !== 'succeeded') throw conflict(NOT_PAID);
  let recorded: RecordOutcome | undefined;
  try {
    recorded = await recordPayment(deps, payment);
  } catch (error) {
    const qty = positiveInt(payment.metadata.qty);
    if (!qty) throw error;
    (await loadLogger()).warn('A paid checkout was not recorded by confirmCheckout; its webhook records it', {
      paymentIntentId: payment.id,
      error,
    });
    return { orderID: paymentOrderIds(payment.id).orderID, qty, totalPayed: payment.amountCents / 100 };
  }
  if (!recorded) throw conflict(NOT_PAID);
  const { order } = recorded;
  return { orderID: order.orderID, qty: order.qty, totalPayed: order.totalCents / 100 };
}

export const UNKNOWN_PRODUCT = 'There is no approved product with this id.';
export const BANNED_PRODUCT = 'This product is banned: it can no longer be sold.';
export const WITHDRAWN_PRODUCT =
  'This product was withdrawn from sale: put it back into review and approve it to sell it again.';
export const UNKNOWN_CODE = 'No member has this share code.';

/** An admin's phone or e-mail sale: priced from the approved product; the code must name a member. */
export async function addOrder(
  deps: SaleDeps,
  body: { product_id: string; qty: number; ref: string; customer?: Customer | undefined },
): Promise<RecordOutcome> {
  const [product, member] = await Promise.all([
    deps.products.get(body.product_id),
    deps.sales.memberOfShareCode(normalizeCode(body.ref)),
  ]);
  if (product?.status === 'banned') throw badRequest(BANNED_PRODUCT, { product_id: BANNED_PRODUCT });
  if (product?.status === 'withdrawn') throw badRequest(WITHDRAWN_PRODUCT, { product_id: WITHDRAWN_PRODUCT });
  if (!product?.approved) throw badRequest(UNKNOWN_PRODUCT, { product_id: UNKNOWN_PRODUCT });
  if (!member) throw badRequest(UNKNOWN_CODE, { ref: UNKNOWN_CODE });
  const unitCents = product.approved.dropshipping_price_us_cents;
  const recorded = await recordSale(deps, {
    productId: product.id,
    qty: body.qty,
    unitCents,
    totalCents: unitCents * body.qty,
    ref: body.ref,
    customer: body.customer ?? UNKNOWN_CUSTOMER,
    source: 'admin',
    paymentIntentId: null,
  });
  await deps.recorded?.(recorded.order);
  return recorded;
}
