import { getCommissions } from '@portal/shared/api/calls/get-commissions';
import { commissionsPage } from '../commissions/reads';
import { apiHandler, sales } from '../composition';

export const handler = apiHandler(getCommissions, async ({ body }) =>
  commissionsPage(sales, 'all', body.cursor, body.limit),
);
