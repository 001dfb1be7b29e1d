import { ListRequest } from '@portal/shared/api/sales';
import { commissionsPage } from '../commissions/reads';
import { apiHandler, sales } from '../composition';

export const handler = apiHandler(
  'getCommisionsToStripe',
  async ({ body }) => commissionsPage(sales, 'to_stripe', body.cursor, body.limit),
  { request: ListRequest },
);
