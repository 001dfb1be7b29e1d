import type { Call } from '../call';
import { IdRequest } from '../schemas';
import { ModerationResult } from '../products';

/**
 * POST /api/withdrawProduct (admin): Takes an approved product away from members: their lists,
 * share pages and checkout. It comes back only through review.
 */
export const withdrawProduct = {
  name: 'withdrawProduct',
  path: '/api/withdrawProduct',
  role: 'admin',
  body: 'json',
  request: IdRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const withdrawProductResponse = ModerationResult;
