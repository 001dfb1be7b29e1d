import { getMemberPayoutCard } from '@portal/shared/api/calls/get-member-payout-card';
import { apiHandler, payoutBatches } from '../composition';
import { memberPayoutCard } from '../commissions/batches';

/** Admin: the debit card a member's payouts go to, for a payout's confirmation (commissions/batches.ts). */
export const handler = apiHandler(getMemberPayoutCard, async ({ body }) =>
  memberPayoutCard(payoutBatches, body.memberId),
);
