import { ListRequest } from '@portal/shared/api/sales';
import { commissionsPage } from '../commissions/reads';
import { apiHandler, sales } from '../composition';

export const handler = apiHandler(
  'getCommisionsToBePayed',
  async ({ body }) => commissionsPage(sales, 'to_be_paid', body.cursor, body.limit),
  { request: ListRequest },
);
