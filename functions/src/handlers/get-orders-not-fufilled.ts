import { ListRequest } from '@portal/shared/api/sales';
import { apiHandler, sales } from '../composition';
import { ordersPage } from '../orders/manage';

/** The orders whose next step is this one (orders/manage.ts), newest first, with the counters. */
export const handler = apiHandler(
  'getOrdersNotFufilled',
  async ({ body }) => ordersPage(sales, 'not_fufilled', body.cursor, body.limit),
  { request: ListRequest },
);
