import type { Call } from '../call';
import { CommissionPage, ListRequest } from '../sales';

/**
 * POST /api/getCommisionsToStripe (admin): One page of the commissions to send to the members'
 * Stripe balances. (The path keeps the spec's spelling.)
 */
export const getCommissionsToStripe = {
  name: 'getCommisionsToStripe',
  path: '/api/getCommisionsToStripe',
  role: 'admin',
  body: 'json',
  request: ListRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const getCommissionsToStripeResponse = CommissionPage;
