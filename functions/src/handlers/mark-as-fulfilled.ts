import { markAsFulfilled } from '@portal/shared/api/calls/mark-as-fulfilled';
import { apiHandler, orders } from '../composition';

/** An admin marks an order fulfilled: the orders capability (orders/manage.ts), wired in composition.ts. */
export const handler = apiHandler(markAsFulfilled, async ({ body }) => orders.mark(body.id, 'fulfilled'));
