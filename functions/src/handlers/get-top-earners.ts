import { ListRequest } from '@portal/shared/api/sales';
import { topEarners } from '../commissions/reads';
import { apiHandler, sales } from '../composition';

export const handler = apiHandler('getTopEarners', async ({ body }) => topEarners(sales, body.cursor, body.limit), {
  request: ListRequest,
});
