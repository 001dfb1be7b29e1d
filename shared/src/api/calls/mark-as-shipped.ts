import type { Call } from '../call';
import { OrderResult } from '../sales';
import { IdRequest } from '../schemas';

/**
 * POST /api/markAsShipped (admin): An admin marks an order shipped (the steps are ordered →
 * shipped → fulfilled). Answers the order as it is now; an unknown id is a 404.
 */
export const markAsShipped = {
  name: 'markAsShipped',
  path: '/api/markAsShipped',
  role: 'admin',
  body: 'json',
  request: IdRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const markAsShippedResponse = OrderResult;
