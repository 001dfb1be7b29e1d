import { confirmCheckout as confirmCheckoutCall } from '@portal/shared/api/calls/confirm-checkout';
import { publicApiHandler, confirm } from '../composition';
import { confirmCheckout } from '../orders/record-sale';

/**
 * Public: the customer's page reports its paid checkout. The payment is read at Stripe (never
 * trusted from the browser) and recorded if it succeeded: one order per payment, whether the
 * webhook or this call comes first.
 */
export const handler = publicApiHandler(confirmCheckoutCall, async ({ body }) =>
  confirmCheckout(confirm, body.paymentIntentId),
);
