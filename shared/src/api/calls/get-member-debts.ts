import type { Call } from '../call';
import { MemberDebtPage, MemberDebtsRequest } from '../payout-batches';

/**
 * POST /api/getMemberDebts (admin): the members who still owe the platform after clawbacks (a
 * refund of a sale whose commission was already paid out), each with what is owed; it comes off
 * their next payouts. A page of the `DEBTS` index, by member id.
 */
export const getMemberDebts = {
  name: 'getMemberDebts',
  path: '/api/getMemberDebts',
  role: 'admin',
  body: 'json',
  request: MemberDebtsRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const getMemberDebtsResponse = MemberDebtPage;
