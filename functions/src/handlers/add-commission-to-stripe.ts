import { addCommissionToStripe as addCommissionToStripeCall } from '@portal/shared/api/calls/add-commission-to-stripe';
import { apiHandler, commissionMoney } from '../composition';
import { addCommissionToStripe } from '../commissions/money-movement';

/** Admin: sends a commission to the member's Stripe balance (a transfer); idempotent. */
export const handler = apiHandler(addCommissionToStripeCall, async ({ body }) => ({
  commission: await addCommissionToStripe(commissionMoney, body.id),
}));
