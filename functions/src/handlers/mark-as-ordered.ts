import { markAsOrdered } from '@portal/shared/api/calls/mark-as-ordered';
import { apiHandler, sales } from '../composition';
import { clock } from '../config/clock';
import { markOrder } from '../orders/manage';

export const handler = apiHandler(markAsOrdered, async ({ body }) => markOrder(sales, body.id, 'ordered', clock.now()));
