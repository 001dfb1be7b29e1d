import type { Call } from '../call';
import { PaymentIntentRequest, PaymentIntentResponse } from '../checkout';

/**
 * POST /api/getPaymentIntent (public): Public: the customer's checkout on a member's share link
 * (no login) creates the card payment at Stripe, at the server's price.
 */
export const getPaymentIntent = {
  name: 'getPaymentIntent',
  path: '/api/getPaymentIntent',
  role: 'public',
  body: 'json',
  request: PaymentIntentRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const getPaymentIntentResponse = PaymentIntentResponse;
