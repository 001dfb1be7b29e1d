import type { Call } from '../call';
import { OrderPage, OrderPageRequest } from '../order-page';

/**
 * POST /api/getOrderPage (public): the customer's order page, by the unguessable token of the link
 * in their receipt or shipping mail: the order's steps with dates and, once shipped, the carrier and
 * tracking number. An unknown token is a 404; nothing else of the order is answered.
 */
export const getOrderPage = {
  name: 'getOrderPage',
  path: '/api/getOrderPage',
  role: 'public',
  body: 'json',
  request: OrderPageRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const getOrderPageResponse = OrderPage;
