import { getImportedProduct } from '@portal/shared/api/calls/get-imported-product';
import { apiHandler, products } from '../composition';
import { DomainError } from '../errors';
import { PRODUCT_NOT_FOUND } from '../products/moderation';
import { toImported } from '../products/present';

export const handler = apiHandler(getImportedProduct, async ({ body }) => {
  const product = await products.get(body.id);
  if (!product) throw new DomainError('not-found', PRODUCT_NOT_FOUND);
  return toImported(product);
});
