import type { Call } from '../call';
import { OrderResult } from '../sales';
import { IdRequest } from '../schemas';

/**
 * POST /api/markAsFufilled (admin): An admin marks an order fulfilled, which lets its commission
 * move. Answers the order as it is now. (The path keeps the spec's spelling.)
 */
export const markAsFulfilled = {
  name: 'markAsFufilled',
  path: '/api/markAsFufilled',
  role: 'admin',
  body: 'json',
  request: IdRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const markAsFulfilledResponse = OrderResult;
