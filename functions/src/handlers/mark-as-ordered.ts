import { markAsOrdered } from '@portal/shared/api/calls/mark-as-ordered';
import { apiHandler, orders } from '../composition';

/** An admin marks an order ordered at the supplier: the orders capability (orders/manage.ts), wired in composition.ts. */
export const handler = apiHandler(markAsOrdered, async ({ body }) => orders.mark(body.id, 'ordered'));
