import { getOrdersNotShipped } from '@portal/shared/api/calls/get-orders-not-shipped';
import { apiHandler, sales } from '../composition';
import { ordersPage } from '../orders/manage';

/** The orders whose next step is this one (orders/manage.ts), newest first, with the counters. */
export const handler = apiHandler(getOrdersNotShipped, async ({ body }) =>
  ordersPage(sales, 'not_shipped', body.cursor, body.limit),
);
