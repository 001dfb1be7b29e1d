import { markAsFulfilled } from '@portal/shared/api/calls/mark-as-fulfilled';
import { apiHandler, sales } from '../composition';
import { clock } from '../config/clock';
import { markOrder } from '../orders/manage';

export const handler = apiHandler(markAsFulfilled, async ({ body }) =>
  markOrder(sales, body.id, 'fufilled', clock.now()),
);
