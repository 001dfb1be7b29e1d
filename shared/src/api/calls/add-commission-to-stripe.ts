import type { Call } from '../call';
import { CommissionResult } from '../sales';
import { IdRequest } from '../schemas';

/**
 * POST /api/addCommisionToStripe (admin): Admin: sends a commission to the member's Stripe balance
 * (a transfer); idempotent. (The path keeps the spec's spelling.)
 */
export const addCommissionToStripe = {
  name: 'addCommisionToStripe',
  path: '/api/addCommisionToStripe',
  role: 'admin',
  body: 'json',
  request: IdRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const addCommissionToStripeResponse = CommissionResult;
