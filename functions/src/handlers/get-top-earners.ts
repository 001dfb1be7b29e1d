import { getTopEarners } from '@portal/shared/api/calls/get-top-earners';
import { topEarners } from '../commissions/reads';
import { apiHandler, commissionStore } from '../composition';

export const handler = apiHandler(getTopEarners, async ({ body }) =>
  topEarners(commissionStore, body.cursor, body.limit),
);
