import { dynamoProducts } from '../adapters/dynamo-products';
import { apiHandler } from '../http/api-handler';
import { DomainError } from '../errors';
import { PRODUCT_NOT_FOUND } from '../products/moderation';
import { toImported } from '../products/present';

export const handler = apiHandler('getImportedProduct', async ({ body }) => {
  const product = await dynamoProducts.get(body.id);
  if (!product) throw new DomainError('not-found', PRODUCT_NOT_FOUND);
  return toImported(product);
});
