import { getCommissionsToBePaid } from '@portal/shared/api/calls/get-commissions-to-be-paid';
import { commissionsPage } from '../commissions/reads';
import { apiHandler, sales } from '../composition';

export const handler = apiHandler(getCommissionsToBePaid, async ({ body }) =>
  commissionsPage(sales, 'to_be_paid', body.cursor, body.limit),
);
