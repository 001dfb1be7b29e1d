import { dynamoProducts } from '../adapters/dynamo-products';
import { apiHandler } from '../lib/api-handler';
import { DomainError } from '../lib/errors';
import { PRODUCT_NOT_FOUND } from '../lib/products/errors';
import { toImported } from '../lib/products/present';

export const handler = apiHandler('getImportedProduct', async ({ body }) => {
  const product = await dynamoProducts.get(body.id);
  if (!product) throw new DomainError('not-found', PRODUCT_NOT_FOUND);
  return toImported(product);
});
