import type { Call } from '../call';
import { OrderPage, OrdersRequest } from '../sales';

/**
 * POST /api/getOrders (admin): One page of the orders (all, or those lacking a step), newest
 * first, with the counters.
 */
export const getOrders = {
  name: 'getOrders',
  path: '/api/getOrders',
  role: 'admin',
  body: 'json',
  request: OrdersRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const getOrdersResponse = OrderPage;
