import type { Call } from '../call';
import { AddOrderRequest, AddOrderResponse } from '../sales';

/**
 * POST /api/addOrder (admin): An admin records a phone or e-mail sale for a member's share code;
 * the price comes from the approved product.
 */
export const addOrder = {
  name: 'addOrder',
  path: '/api/addOrder',
  role: 'admin',
  body: 'json',
  request: AddOrderRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const addOrderResponse = AddOrderResponse;
