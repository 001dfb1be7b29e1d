import type { Call } from '../call';
import { EmptyRequest, DiscountCodeList } from '../discount-codes';

/**
 * POST /api/getDiscountCodes (admin): Every member's discount code, newest first, with its redemptions, its paid orders (uses) and what they brought after discount and refunds, and the orders themselves.
 */
export const getDiscountCodes = {
  name: 'getDiscountCodes',
  path: '/api/getDiscountCodes',
  role: 'admin',
  body: 'json',
  request: EmptyRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const getDiscountCodesResponse = DiscountCodeList;
