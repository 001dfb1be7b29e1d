import type { Call } from '../call';
import { MarkAsShippedRequest } from '../order-page';
import { OrderResult } from '../sales';

/**
 * POST /api/markAsShipped (admin): An admin marks an order shipped (the steps are ordered →
 * shipped → fulfilled), optionally with the carrier and its tracking number (the spec's `{ id }`
 * stays valid). Answers the order as it is now; an unknown id is a 404. The customer is mailed
 * the shipment once, with the link to the order's page.
 */
export const markAsShipped = {
  name: 'markAsShipped',
  path: '/api/markAsShipped',
  role: 'admin',
  body: 'json',
  request: MarkAsShippedRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const markAsShippedResponse = OrderResult;
