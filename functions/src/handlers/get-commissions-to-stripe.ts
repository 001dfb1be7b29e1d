import { getCommissionsToStripe } from '@portal/shared/api/calls/get-commissions-to-stripe';
import { commissionsPage } from '../commissions/reads';
import { apiHandler, sales } from '../composition';

export const handler = apiHandler(getCommissionsToStripe, async ({ body }) =>
  commissionsPage(sales, 'to_stripe', body.cursor, body.limit),
);
