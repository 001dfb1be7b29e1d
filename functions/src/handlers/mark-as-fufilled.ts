import { IdRequest } from '@portal/shared/api/schemas';
import { apiHandler, sales } from '../composition';
import { clock } from '../config/clock';
import { markOrder } from '../orders/manage';

export const handler = apiHandler(
  'markAsFufilled',
  async ({ body }) => markOrder(sales, body.id, 'fulfilled', clock.now()),
  { request: IdRequest },
);
