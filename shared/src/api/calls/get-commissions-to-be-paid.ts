import type { Call } from '../call';
import { CommissionPage, ListRequest } from '../sales';

/**
 * POST /api/getCommisionsToBePayed (admin): One page of the commissions in Stripe, to pay out to
 * the members' cards. (The path keeps the spec's spelling.)
 */
export const getCommissionsToBePaid = {
  name: 'getCommisionsToBePayed',
  path: '/api/getCommisionsToBePayed',
  role: 'admin',
  body: 'json',
  request: ListRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const getCommissionsToBePaidResponse = CommissionPage;
