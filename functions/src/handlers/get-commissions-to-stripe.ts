import { getCommissionsToStripe } from '@portal/shared/api/calls/get-commissions-to-stripe';
import { commissionsPage } from '../commissions/reads';
import { apiHandler, commissionStore } from '../composition';

export const handler = apiHandler(getCommissionsToStripe, async ({ body }) =>
  commissionsPage(commissionStore, 'to_stripe', body.cursor, body.limit),
);
