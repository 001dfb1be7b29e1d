import type { Call } from '../call';
import { ListRequest, OrderPage } from '../sales';

/**
 * POST /api/getOrdersNotShipped (admin): One page of the orders ordered at the supplier but not
 * shipped yet, newest first.
 */
export const getOrdersNotShipped = {
  name: 'getOrdersNotShipped',
  path: '/api/getOrdersNotShipped',
  role: 'admin',
  body: 'json',
  request: ListRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const getOrdersNotShippedResponse = OrderPage;
