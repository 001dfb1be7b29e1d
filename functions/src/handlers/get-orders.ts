import { getOrders } from '@portal/shared/api/calls/get-orders';
import { apiHandler, sales } from '../composition';
import { ordersPage } from '../orders/manage';

export const handler = apiHandler(getOrders, async ({ body }) =>
  ordersPage(sales, body.type, body.cursor, body.limit, body),
);
