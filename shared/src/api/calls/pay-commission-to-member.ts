import type { Call } from '../call';
import { CommissionResult } from '../sales';
import { IdRequest } from '../schemas';

/**
 * POST /api/payCommisionToMember (admin): Admin: pays a commission in Stripe out to the member's
 * debit card (a payout); idempotent. (The path keeps the spec's spelling.)
 */
export const payCommissionToMember = {
  name: 'payCommisionToMember',
  path: '/api/payCommisionToMember',
  role: 'admin',
  body: 'json',
  request: IdRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const payCommissionToMemberResponse = CommissionResult;
