import { OrdersRequest } from '@portal/shared/api/sales';
import { apiHandler, sales } from '../composition';
import { ordersPage } from '../orders/manage';

export const handler = apiHandler(
  'getOrders',
  async ({ body }) => ordersPage(sales, body.type, body.cursor, body.limit),
  { request: OrdersRequest },
);
