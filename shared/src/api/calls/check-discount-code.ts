import type { Call } from '../call';
import { CheckDiscountCodeRequest, CheckedDiscountCode } from '../checkout';

/**
 * POST /api/checkDiscountCode (public): Public: what a code takes off a product's price for a quantity, before paying (the share page's and the checkout's Apply). An unusable code is a 400 in words naming `code`; nothing is written (the checkout counts the redemption).
 */
export const checkDiscountCode = {
  name: 'checkDiscountCode',
  path: '/api/checkDiscountCode',
  role: 'public',
  body: 'json',
  request: CheckDiscountCodeRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const checkDiscountCodeResponse = CheckedDiscountCode;
