import type { Call } from '../call';
import { CheckoutCancels } from '../products';
import { IdRequest } from '../schemas';

/**
 * POST /api/getCheckoutCancels (admin): How far the cancelling of a banned or withdrawn product's
 * unpaid checkouts has come (issue 38); a product that had none answers zeros, done.
 */
export const getCheckoutCancels = {
  name: 'getCheckoutCancels',
  path: '/api/getCheckoutCancels',
  role: 'admin',
  body: 'json',
  request: IdRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const getCheckoutCancelsResponse = CheckoutCancels;
