import { getTopEarners } from '@portal/shared/api/calls/get-top-earners';
import { topEarners } from '../commissions/reads';
import { apiHandler, sales } from '../composition';

export const handler = apiHandler(getTopEarners, async ({ body }) => topEarners(sales, body.cursor, body.limit));
