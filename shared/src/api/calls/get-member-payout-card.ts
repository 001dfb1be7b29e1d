import type { Call } from '../call';
import { MemberPayoutCard, MemberPayoutCardRequest } from '../payout-batches';

/**
 * POST /api/getMemberPayoutCard (admin): the debit card a member's payouts go to (its last four,
 * brand, whether it takes instant payouts), so a payout's confirmation can name it.
 */
export const getMemberPayoutCard = {
  name: 'getMemberPayoutCard',
  path: '/api/getMemberPayoutCard',
  role: 'admin',
  body: 'json',
  request: MemberPayoutCardRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const getMemberPayoutCardResponse = MemberPayoutCard;
