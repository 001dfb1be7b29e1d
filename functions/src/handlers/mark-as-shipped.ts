import { markAsShipped } from '@portal/shared/api/calls/mark-as-shipped';
import { apiHandler, orders } from '../composition';

/** An admin marks an order shipped: the orders capability (orders/manage.ts), wired in composition.ts. */
export const handler = apiHandler(markAsShipped, async ({ body }) => orders.mark(body.id, 'shipped'));
