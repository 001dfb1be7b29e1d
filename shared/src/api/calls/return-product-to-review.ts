import type { Call } from '../call';
import { IdRequest } from '../schemas';
import { ModerationResult } from '../products';

/**
 * POST /api/returnProductToReview (admin): Puts a banned or withdrawn product back into review,
 * as a new product: members see nothing of it until it is approved again.
 */
export const returnProductToReview = {
  name: 'returnProductToReview',
  path: '/api/returnProductToReview',
  role: 'admin',
  body: 'json',
  request: IdRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const returnProductToReviewResponse = ModerationResult;
