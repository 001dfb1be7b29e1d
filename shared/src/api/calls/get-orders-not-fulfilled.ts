import type { Call } from '../call';
import { ListRequest, OrderPage } from '../sales';

/**
 * POST /api/getOrdersNotFufilled (admin): One page of the orders shipped but not fulfilled yet,
 * newest first. (The path keeps the spec's spelling.)
 */
export const getOrdersNotFulfilled = {
  name: 'getOrdersNotFufilled',
  path: '/api/getOrdersNotFufilled',
  role: 'admin',
  body: 'json',
  request: ListRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const getOrdersNotFulfilledResponse = OrderPage;
