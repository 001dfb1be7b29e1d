import { ListRequest } from '@portal/shared/api/sales';
import { commissionsPage } from '../commissions/reads';
import { apiHandler, sales } from '../composition';

export const handler = apiHandler(
  'getCommisions',
  async ({ body }) => commissionsPage(sales, 'all', body.cursor, body.limit),
  { request: ListRequest },
);
