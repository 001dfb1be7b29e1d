import { dynamoProducts } from '../adapters/dynamo-products';
import { apiHandler } from '../lib/api-handler';
import { assertModerated } from '../lib/products/errors';

export const handler = apiHandler('banProduct', async ({ body }) => {
  assertModerated(await dynamoProducts.ban(body.id, new Date().toISOString()));
  return { id: body.id, status: 'banned' as const };
});
