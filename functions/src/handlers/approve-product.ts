import { dynamoProducts } from '../adapters/dynamo-products';
import { apiHandler } from '../lib/api-handler';
import { assertModerated } from '../lib/products/errors';

export const handler = apiHandler('approveProduct', async ({ body }) => {
  assertModerated(await dynamoProducts.approve(body.id, new Date().toISOString()));
  return { id: body.id, status: 'approved' as const };
});
