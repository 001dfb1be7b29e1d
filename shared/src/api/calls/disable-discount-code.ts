import type { Call } from '../call';
import { DiscountCodeRequest, DiscountCodeResult } from '../discount-codes';

/**
 * POST /api/disableDiscountCode (admin): Turns a code off: its promotion code deactivated at Stripe, then the code refused at checkout in words. A code turned off stays off (its text is never given again); recorded sales keep it.
 */
export const disableDiscountCode = {
  name: 'disableDiscountCode',
  path: '/api/disableDiscountCode',
  role: 'admin',
  body: 'json',
  request: DiscountCodeRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const disableDiscountCodeResponse = DiscountCodeResult;
