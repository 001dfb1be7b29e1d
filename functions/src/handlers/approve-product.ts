import { dynamoProducts } from '../adapters/dynamo-products';
import { apiHandler } from '../http/api-handler';
import { assertModerated } from '../products/moderation';

export const handler = apiHandler('approveProduct', async ({ body }) => {
  assertModerated(await dynamoProducts.approve(body.id, new Date().toISOString()));
  return { id: body.id, status: 'approved' as const };
});
