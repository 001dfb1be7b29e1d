import type { Call } from '../call';
import { OrderPage, OrdersRequest } from '../sales';

/**
 * POST /api/getOrders (admin): One page of the orders (all, or those lacking a step), newest
 * first, with the counters. All orders may be searched by order number, member (e-mail) or product
 * (SPU number or id), and by status.
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
