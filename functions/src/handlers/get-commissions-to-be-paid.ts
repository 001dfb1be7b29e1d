import { getCommissionsToBePaid } from '@portal/shared/api/calls/get-commissions-to-be-paid';
import { commissionsPage } from '../commissions/reads';
import { apiHandler, commissionStore } from '../composition';

export const handler = apiHandler(getCommissionsToBePaid, async ({ body }) =>
  commissionsPage(commissionStore, 'to_be_paid', body.cursor, body.limit),
);
