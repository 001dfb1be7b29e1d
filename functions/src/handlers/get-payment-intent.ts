import { getPaymentIntent } from '@portal/shared/api/calls/get-payment-intent';
import { publicApiHandler, checkout } from '../composition';
import { createCheckoutPaymentIntent } from '../payments/checkout';
import { REFRESH_COOKIE, readCookie } from '../auth/cookies';

/**
 * The payment intent of a customer's checkout. Public (no login): the customer's page on a
 * member's share link calls it. What bounds abuse: the price comes from the approved product (the
 * browser's amount must equal it), qty is 1 to 99, `ref` and `checkoutId` are short and URL-safe,
 * an intent charges nothing until confirmed with a card, the same checkout id answers the same
 * intent, and the API stage is throttled (portal-stack.ts).
 */
export const handler = publicApiHandler(getPaymentIntent, async ({ body, event }) =>
  // The member's session cookie, when the browser is theirs: their own checkout (orders/abuse.ts).
  createCheckoutPaymentIntent(checkout, { ...body, refreshToken: readCookie(event.cookies, REFRESH_COOKIE) }),
);
