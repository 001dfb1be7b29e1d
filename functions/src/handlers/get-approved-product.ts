import { getApprovedProduct } from '@portal/shared/api/calls/get-approved-product';
import { apiHandler, products } from '../composition';
import { DomainError } from '../errors';
import { memberView, toDetail } from '../products/present';

export const handler = apiHandler(getApprovedProduct, async ({ body }) => {
  const product = await products.get(body.id);
  const content = product && memberView(product);
  // A product in review for the first time, or banned, is not in the catalogue: not found.
  if (!product || !content) throw new DomainError('not-found', 'This product is not in the catalogue.');
  return toDetail(product.id, content);
});
