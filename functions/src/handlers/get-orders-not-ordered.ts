import { getOrdersNotOrdered } from '@portal/shared/api/calls/get-orders-not-ordered';
import { apiHandler, sales } from '../composition';
import { ordersPage } from '../orders/manage';

/** The orders whose next step is this one (orders/manage.ts), newest first, with the counters. */
export const handler = apiHandler(getOrdersNotOrdered, async ({ body }) =>
  ordersPage(sales, 'not_ordered', body.cursor, body.limit),
);
