import type { Call } from '../call';
import { CreateDiscountCodeRequest, DiscountCodeResult } from '../discount-codes';

/**
 * POST /api/createDiscountCode (admin): The admin makes a member's discount code: a coupon at Stripe (or one chosen), a promotion code under it with the code's text, expiry and uses, and the code kept for the checkout. A code taken (by any code, disabled ones too) or a member unknown is a 400 naming the field; nothing is stored.
 */
export const createDiscountCode = {
  name: 'createDiscountCode',
  path: '/api/createDiscountCode',
  role: 'admin',
  body: 'json',
  request: CreateDiscountCodeRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const createDiscountCodeResponse = DiscountCodeResult;
