import type { Call } from '../call';
import { ListRequest, OrderPage } from '../sales';

/**
 * POST /api/getOrdersNotOrdered (admin): One page of the orders not yet ordered at the supplier,
 * newest first.
 */
export const getOrdersNotOrdered = {
  name: 'getOrdersNotOrdered',
  path: '/api/getOrdersNotOrdered',
  role: 'admin',
  body: 'json',
  request: ListRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const getOrdersNotOrderedResponse = OrderPage;
