import { dynamoProducts } from '../adapters/dynamo-products';
import { apiHandler } from '../http/api-handler';
import { assertModerated } from '../products/moderation';

export const handler = apiHandler('banProduct', async ({ body }) => {
  assertModerated(await dynamoProducts.ban(body.id, new Date().toISOString()));
  return { id: body.id, status: 'banned' as const };
});
