import { payCommissionToMember as payCommissionToMemberCall } from '@portal/shared/api/calls/pay-commission-to-member';
import { apiHandler, commissionMoney } from '../composition';
import { payCommissionToMember } from '../commissions/money-movement';

/** Admin: pays a commission in the member's Stripe balance out to their debit card (a payout); idempotent. */
export const handler = apiHandler(payCommissionToMemberCall, async ({ body }) => ({
  commission: await payCommissionToMember(commissionMoney, body.id),
}));
