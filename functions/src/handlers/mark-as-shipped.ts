import { markAsShipped } from '@portal/shared/api/calls/mark-as-shipped';
import { apiHandler, sales } from '../composition';
import { clock } from '../config/clock';
import { markOrder } from '../orders/manage';

export const handler = apiHandler(markAsShipped, async ({ body }) => markOrder(sales, body.id, 'shipped', clock.now()));
