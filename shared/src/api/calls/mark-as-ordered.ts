import type { Call } from '../call';
import { OrderResult } from '../sales';
import { IdRequest } from '../schemas';

/**
 * POST /api/markAsOrdered (admin): An admin marks an order ordered at the supplier. Answers the
 * order as it is now.
 */
export const markAsOrdered = {
  name: 'markAsOrdered',
  path: '/api/markAsOrdered',
  role: 'admin',
  body: 'json',
  request: IdRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const markAsOrderedResponse = OrderResult;
