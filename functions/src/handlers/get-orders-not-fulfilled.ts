import { getOrdersNotFulfilled } from '@portal/shared/api/calls/get-orders-not-fulfilled';
import { apiHandler, sales } from '../composition';
import { ordersPage } from '../orders/manage';

/** The orders whose next step is this one (orders/manage.ts), newest first, with the counters. */
export const handler = apiHandler(getOrdersNotFulfilled, async ({ body }) =>
  ordersPage(sales, 'not_fulfilled', body.cursor, body.limit),
);
