import type { Call } from '../call';
import { ConfirmCheckoutRequest, ConfirmCheckoutResponse } from '../sales';

/**
 * POST /api/confirmCheckout (public): Public: the customer's page reports a succeeded payment; the
 * order is recorded once (the webhook may be first).
 */
export const confirmCheckout = {
  name: 'confirmCheckout',
  path: '/api/confirmCheckout',
  role: 'public',
  body: 'json',
  request: ConfirmCheckoutRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const confirmCheckoutResponse = ConfirmCheckoutResponse;
