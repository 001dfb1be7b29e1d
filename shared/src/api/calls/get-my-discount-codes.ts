import type { Call } from '../call';
import { EmptyRequest, MyDiscountCodeList } from '../discount-codes';

/**
 * POST /api/getMyDiscountCodes (member): The caller's own discount codes, newest first, each with its state in words: what the member copies and shares where links are not clickable.
 */
export const getMyDiscountCodes = {
  name: 'getMyDiscountCodes',
  path: '/api/getMyDiscountCodes',
  role: 'member',
  body: 'json',
  request: EmptyRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const getMyDiscountCodesResponse = MyDiscountCodeList;
