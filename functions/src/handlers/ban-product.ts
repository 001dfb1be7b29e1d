import { banProduct } from '@portal/shared/api/calls/ban-product';
import { apiHandler, products } from '../composition';
import { assertModerated } from '../products/moderation';

export const handler = apiHandler(banProduct, async ({ body }) => {
  assertModerated(await products.ban(body.id, new Date().toISOString()));
  return { id: body.id, status: 'banned' as const };
});
