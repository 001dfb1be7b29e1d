import { createHash, randomUUID } from 'node:crypto';
import type { Customer } from '@portal/shared/api/customer';
import type { PaymentIntentResponse } from '@portal/shared/api/checkout';
import { MAX_CHARGE_CENTS } from '@portal/shared/api/checkout';
import { formatMoney } from '@portal/shared/domain/format';
import { DomainError, badRequest } from '../errors';
import { PRODUCT_WITHDRAWN } from '../products/moderation';
import type { ProductRepository } from '../products/product-store';
import type { PaymentGateway } from './payment-gateway';

export interface CheckoutDeps {
  products: Pick<ProductRepository, 'get'>;
  gateway: Pick<PaymentGateway, 'createPaymentIntent'>;
}

/** The body of /api/getPaymentIntent as validated (`PaymentIntentRequest`'s output). */
export interface PaymentIntentAsk {
  id: string;
  amount: number;
  qty: number;
  ref?: string | undefined;
  checkoutId?: string | undefined;
  customer?: Customer | undefined;
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
  return ['portal', 'payment-intent', ask.id, String(ask.qty), ask.ref ?? '-', String(amountCents), buyer, nonce].join(
    ':',
  );
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
  if (ask.amount !== totalCents) {
    const message = `The price changed to ${formatMoney(totalCents)}. Review the order and try again.`;
    throw badRequest(message, { amount: message });
  }
  const created = await deps.gateway.createPaymentIntent({
    amountCents: totalCents,
    description: `${ask.qty} × ${product.approved.product_name}`.slice(0, 200),
    metadata: {
      product_id: product.id,
      qty: String(ask.qty),
      unit_amount: String(unitCents),
      ...(ask.ref ? { ref: ask.ref } : {}),
      ...(ask.checkoutId ? { checkout_id: ask.checkoutId } : {}),
      ...(ask.customer ? { customer_name: ask.customer.name, customer_email: ask.customer.email } : {}),
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
    idempotencyKey: paymentIntentKey(ask, totalCents),
  });
  return { clientSecret: created.clientSecret, amount: created.amountCents, currency: 'usd' };
}
