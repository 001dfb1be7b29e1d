import { createHash, randomUUID } from 'node:crypto';
import type { Customer } from '@portal/shared/api/customer';
import type { PaymentIntentResponse } from '@portal/shared/api/checkout';
import { MAX_CHARGE_CENTS } from '@portal/shared/api/checkout';
import { formatMoney } from '@portal/shared/domain/format';
import { DomainError, badRequest } from '../errors';
import { PRODUCT_WITHDRAWN } from '../products/moderation';
import type { ProductRepository } from '../products/product-store';
import type { PaymentGateway } from './payment-gateway';
import { OPEN_INTENT_DAYS, cancelIntentKey, type OpenIntentStore } from './open-intents';
import {
  DISCOUNT_CENTS_METADATA,
  LINK_REF_METADATA,
  LIST_AMOUNT_METADATA,
  PROMOTION_CODE_ID_METADATA,
  PROMOTION_CODE_METADATA,
  SELF_PURCHASE_METADATA,
  SELF_PURCHASE_SESSION,
  VISIT_METADATA,
} from './checkout-metadata';

export interface CheckoutDeps {
  products: Pick<ProductRepository, 'get'>;
  gateway: Pick<PaymentGateway, 'createPaymentIntent'> & Partial<Pick<PaymentGateway, 'cancelPaymentIntent'>>;
  /** Each intent made is recorded open under its product, while the product is still sold (open-intents.ts). */
  intents?: Pick<OpenIntentStore, 'track'>;
  /** Who owns a share code, and whose session a refresh token is (the member's own checkout). */
  owners?: CheckoutOwners;
  /** Epoch ms. */
  now?: () => number;
  /** Members' discount codes (issue 39; codes/codes.ts, wired in composition.ts). */
  codes?: CheckoutCodes;
  /**
   * The share page's counted visit (issue 39, visits/funnel.ts): its checkout counted once; the
   * visit id when it names a visit of this product, else undefined (the checkout goes on without it).
   */
  visits?: { checkoutStarted(visitId: string, productId: string): Promise<string | undefined> };
}

/** A discount code's part in a checkout: its price, and its redemption counted before the payment is made. */
export interface CheckoutCodes {
  /** The price with the code, or a 400 in words naming `code` (unknown, turned off, expired, used up). */
  price(code: string, listCents: number): Promise<CheckoutCodePrice>;
  /** Counts one redemption for the checkout's key, first (a conditional write); refused in words when it cannot. */
  redeem(price: CheckoutCodePrice, checkoutKey: string): Promise<void>;
  /** Gives it back when the payment could not be made. */
  release(price: CheckoutCodePrice, checkoutKey: string): Promise<void>;
}

export interface CheckoutCodePrice {
  code: string;
  memberShareCode: string;
  promotionCodeId: string;
  listCents: number;
  discountCents: number;
  paidCents: number;
}

export interface CheckoutOwners {
  /** The member a share code names (their user id). */
  ofShareCode(code: string): Promise<string | undefined>;
  /** The user a live refresh token (its cookie's value) belongs to. */
  ofSession(refreshToken: string, nowMs: number): Promise<string | undefined>;
}

/** The body of /api/getPaymentIntent as validated (`PaymentIntentRequest`'s output). */
export interface PaymentIntentAsk {
  id: string;
  amount: number;
  qty: number;
  ref?: string | undefined;
  checkoutId?: string | undefined;
  customer?: Customer | undefined;
  /** The caller's refresh token cookie, when the browser sent one (never stored or logged). */
  refreshToken?: string | undefined;
  /** Set by createCheckoutPaymentIntent: the member's own session makes this checkout. */
  ownSession?: boolean;
  /** A member's discount code (issue 39). */
  code?: string | undefined;
  /** The share page's visit (countVisit); only a counted visit of this product reaches the intent. */
  visitId?: string | undefined;
}

/**
 * The idempotency key of a checkout's payment intent: the product, the quantity, the share code,
 * the amount and the checkout form's own random id. The same checkout asked again (a double click,
 * a network retry) answers the same intent; two customers never share one, since each form has its
 * own id. The amount is part of it, so a price change within a checkout makes a new intent rather
 * than an idempotency error. Without a checkout id every call gets a fresh key (the SDK's network
 * retries of that call still reuse it).
 */
export function paymentIntentKey(ask: PaymentIntentAsk, amountCents: number): string {
  const nonce = ask.checkoutId ?? `once-${randomUUID()}`;
  // The buyer is part of the key too: corrected details within one checkout make a new intent
  // rather than an idempotency error (Stripe refuses a key reused with other parameters).
  const buyer = ask.customer
    ? createHash('sha256').update(JSON.stringify(ask.customer)).digest('base64url').slice(0, 16)
    : '-';
  return [
    'portal',
    'payment-intent',
    ask.id,
    String(ask.qty),
    ask.ref ?? '-',
    String(amountCents),
    buyer,
    nonce,
    // The metadata differs when the member's own session makes the checkout: another request.
    ...(ask.ownSession ? ['own'] : []),
    // A discount code changes the price and the metadata: another request.
    ...(ask.code ? ['code', ask.code.trim().toUpperCase()] : []),
    // The visit is in the metadata: a checkout whose visit id came after its first try is another request.
    ...(ask.visitId ? ['visit', ask.visitId] : []),
  ].join(':');
}

/**
 * Whether the member whose share code the checkout carries is the one checking out: the refresh
 * token cookie the browser sent with this call (it travels with every /api call of the origin) is
 * a live session of that member. Two reads, only when both a code and a cookie are there.
 */
async function isOwnSession(deps: CheckoutDeps, ask: PaymentIntentAsk): Promise<boolean> {
  if (!deps.owners || !ask.ref || !ask.refreshToken) return false;
  const [owner, caller] = await Promise.all([
    deps.owners.ofShareCode(ask.ref.trim().toUpperCase()),
    deps.owners.ofSession(ask.refreshToken, deps.now?.() ?? Date.now()),
  ]);
  return owner !== undefined && owner === caller;
}

/**
 * A payment intent for a customer buying `qty` of an approved product: the price comes from the
 * product (its dropshipping price, the sell price members and customers see, in integer cents),
 * never from the browser. The browser's `amount` must equal it: a price changed since the page
 * loaded is a 400 naming `amount`, and nothing is created at Stripe.
 */
export async function createCheckoutPaymentIntent(
  deps: CheckoutDeps,
  ask: PaymentIntentAsk,
): Promise<PaymentIntentResponse> {
  const product = await deps.products.get(ask.id);
  if (!product || !product.approved) {
    throw new DomainError('not-found', 'This product is not in the catalogue.', {
      fields: { id: 'This product is not in the catalogue.' },
    });
  }
  if (product.status === 'banned') {
    throw new DomainError('not-found', 'This product is no longer available.', {
      fields: { id: 'This product is no longer available.' },
    });
  }
  if (product.status === 'withdrawn') {
    throw new DomainError('not-found', PRODUCT_WITHDRAWN, { fields: { id: PRODUCT_WITHDRAWN } });
  }
  const unitCents = product.approved.dropshipping_price_us_cents;
  const totalCents = unitCents * ask.qty;
  if (totalCents > MAX_CHARGE_CENTS) {
    const message = `One card payment takes at most ${formatMoney(MAX_CHARGE_CENTS)}: choose a smaller quantity.`;
    throw badRequest(message, { qty: message });
  }
  // A member's discount code: its price; the sale is the code's member's (a code beats a link).
  const coded = ask.code && deps.codes ? await deps.codes.price(ask.code, totalCents) : undefined;
  const payCents = coded?.paidCents ?? totalCents;
  if (ask.amount !== payCents) {
    const message = `The price changed to ${formatMoney(payCents)}. Review the order and try again.`;
    throw badRequest(message, { amount: message });
  }
  const ref = coded ? coded.memberShareCode : ask.ref;
  const [ownSession, visitId] = await Promise.all([
    isOwnSession(deps, { ...ask, ref }),
    visitOf(deps, ask, product.id),
  ]);
  const keyed: PaymentIntentAsk = { ...ask, ref, ownSession, visitId };
  const idempotencyKey = paymentIntentKey(keyed, payCents);
  if (coded) await deps.codes?.redeem(coded, idempotencyKey);
  const created = await createCounted(deps, coded, idempotencyKey, {
    amountCents: payCents,
    description: `${ask.qty} × ${product.approved.product_name}`.slice(0, 200),
    metadata: {
      product_id: product.id,
      qty: String(ask.qty),
      unit_amount: String(unitCents),
      ...(ref ? { ref } : {}),
      ...(coded
        ? {
            [PROMOTION_CODE_METADATA]: coded.code,
            [PROMOTION_CODE_ID_METADATA]: coded.promotionCodeId,
            [DISCOUNT_CENTS_METADATA]: String(coded.discountCents),
            [LIST_AMOUNT_METADATA]: String(coded.listCents),
            ...(ask.ref && ask.ref !== ref ? { [LINK_REF_METADATA]: ask.ref } : {}),
          }
        : {}),
      ...(ask.checkoutId ? { checkout_id: ask.checkoutId } : {}),
      ...(ask.customer ? { customer_name: ask.customer.name, customer_email: ask.customer.email } : {}),
      // The sale holds or cancels its commission (orders/abuse.ts).
      ...(ownSession ? { [SELF_PURCHASE_METADATA]: SELF_PURCHASE_SESSION } : {}),
      // The visit that led to the sale (the link statistics' funnel).
      ...(visitId ? { [VISIT_METADATA]: visitId } : {}),
    },
    ...(ask.customer
      ? {
          shipping: {
            name: ask.customer.name,
            address: {
              line1: ask.customer.address.line1,
              ...(ask.customer.address.line2 ? { line2: ask.customer.address.line2 } : {}),
              city: ask.customer.address.city,
              state: ask.customer.address.state,
              postalCode: ask.customer.address.postal_code,
            },
          },
          receiptEmail: ask.customer.email,
        }
      : {}),
    idempotencyKey,
  });
  await trackOpen(deps, product.id, created.id);
  return { clientSecret: created.clientSecret, amount: created.amountCents, currency: 'usd' };
}

/** Makes the intent; a code's redemption counted for it is given back when Stripe refused or did not answer. */
async function createCounted(
  deps: CheckoutDeps,
  coded: CheckoutCodePrice | undefined,
  checkoutKey: string,
  intent: Parameters<CheckoutDeps['gateway']['createPaymentIntent']>[0],
) {
  try {
    return await deps.gateway.createPaymentIntent(intent);
  } catch (error) {
    if (coded) await deps.codes?.release(coded, checkoutKey);
    throw error;
  }
}

/**
 * The checkout's visit, counted as a checkout started; the link statistics never stop a payment, so
 * a failed count leaves the visit out of this intent.
 */
async function visitOf(deps: CheckoutDeps, ask: PaymentIntentAsk, productId: string): Promise<string | undefined> {
  if (!deps.visits || !ask.visitId) return undefined;
  return deps.visits.checkoutStarted(ask.visitId, productId).catch(() => undefined);
}

/**
 * The intent is recorded open under its product, on the condition that the product is still sold:
 * a ban or withdrawal that came between the product's read and now made the condition fail, and
 * the intent is cancelled at once (the customer never gets its secret). docs/decisions/0201.
 */
async function trackOpen(deps: CheckoutDeps, productId: string, paymentIntentId: string): Promise<void> {
  if (!deps.intents) return;
  const now = deps.now?.() ?? Date.now();
  const expiresAt = Math.floor(now / 1000) + OPEN_INTENT_DAYS * 24 * 3600;
  if (await deps.intents.track(productId, paymentIntentId, expiresAt)) return;
  await deps.gateway.cancelPaymentIntent?.(paymentIntentId, cancelIntentKey(paymentIntentId));
  throw new DomainError('not-found', 'This product is no longer available.', {
    fields: { id: 'This product is no longer available.' },
  });
}
