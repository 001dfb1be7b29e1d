import { clock } from '../config/clock';
import { approveProduct } from '@portal/shared/api/calls/approve-product';
import { apiHandler, products } from '../composition';
import { assertModerated } from '../products/moderation';

export const handler = apiHandler(approveProduct, async ({ body }) => {
  assertModerated(await products.approve(body.id, body.version, new Date(clock.now()).toISOString()));
  return { id: body.id, status: 'approved' as const };
});
