import { markAsShipped } from '@portal/shared/api/calls/mark-as-shipped';
import { shipmentOf } from '@portal/shared/api/order-page';
import { apiHandler, shipOrder } from '../composition';

/**
 * An admin marks an order shipped, with the carrier and tracking number when given: the orders
 * capability (orders/manage.ts markShipped), which then mails the customer once.
 */
export const handler = apiHandler(markAsShipped, async ({ body }) => shipOrder(body.id, shipmentOf(body)));
