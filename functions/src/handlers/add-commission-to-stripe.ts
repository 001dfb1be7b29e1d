import { IdRequest } from '@portal/shared/api/schemas';
import { apiHandler, commissionMoney } from '../composition';
import { addCommissionToStripe } from '../commissions/money-movement';

/** Admin: sends a commission to the member's Stripe balance (a transfer); idempotent. */
export const handler = apiHandler(
  'addCommisionToStripe',
  async ({ body }) => ({
    commission: await addCommissionToStripe(commissionMoney, body.id),
  }),
  { request: IdRequest },
);
