import type { Call } from '../call';
import { RefundOrderRequest, RefundOrderResponse } from '../sales';

/**
 * POST /api/refundOrder (admin): refunds a card order in full or in part through Stripe (our own
 * idempotency key, reserved on the order first); the commission follows in proportion (reduced or
 * cancelled before it is sent, reversed in the member's Stripe balance, clawed back once paid).
 * More than is left to refund is a 409 in words.
 */
export const refundOrder = {
  name: 'refundOrder',
  path: '/api/refundOrder',
  role: 'admin',
  body: 'json',
  request: RefundOrderRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const refundOrderResponse = RefundOrderResponse;
