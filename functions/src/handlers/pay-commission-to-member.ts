import { payCommissionToMember as payCommissionToMemberCall } from '@portal/shared/api/calls/pay-commission-to-member';
import { apiHandler, commissionMoney, payoutOnItsWay } from '../composition';
import { payCommissionToMember } from '../commissions/money-movement';

/**
 * Admin: pays a commission in the member's Stripe balance out to their debit card (a payout);
 * idempotent. Then the member's "your payout is on its way", once per payout (a retry of a paid
 * commission sends it if the first call died before it; so does the payout's `payout.paid`).
 */
export const handler = apiHandler(payCommissionToMemberCall, async ({ body }) => {
  const commission = await payCommissionToMember(commissionMoney, body.id);
  await payoutOnItsWay(body.id);
  return { commission };
});
